/**
 * Reads a Server-Sent Events response as it arrives, for the benches: each complete event block is handed over with
 * the time its bytes arrived. Answers once the stream ends or is aborted.
 */
export async function readEvents(
  response: Response,
  onBlock: (block: string, arrivedAt: number) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const now = performance.now();
      buffer += decoder.decode(chunk, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) onBlock(block, now);
    }
  } catch {
    // closed
  }
}

/**
 * Wakes a measuring loop when what it awaits has arrived, without polling: readers call `wake()` on every event, and
 * `until(ready)` resolves once `ready()` holds, or after `timeoutMs` (a lost event then shows as a missing sample).
 */
export function arrivalWaiter(): { wake(): void; until(ready: () => boolean, timeoutMs: number): Promise<void> } {
  const waiters = new Set<() => void>();
  return {
    wake: () => waiters.forEach((waiter) => waiter()),
    until: (ready, timeoutMs) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (ready()) done();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}
