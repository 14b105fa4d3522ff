/** A Server-Sent Events reader over fetch for tests: events in arrival order, each with its arrival time. */
export interface ReceivedEvent {
  event: string;
  id: string | undefined;
  data: unknown;
  at: number;
}

/** A comment line (`: keep-alive`), which carries no event: only its text and arrival time. */
export interface ReceivedComment {
  text: string;
  at: number;
}

export interface EventReader {
  events: ReceivedEvent[];
  comments: ReceivedComment[];
  /** Resolves with the first event (at or after `from`) that matches, or fails after the timeout. */
  waitFor(match: (event: ReceivedEvent) => boolean, timeoutMs?: number, from?: number): Promise<ReceivedEvent>;
  status: number;
  closed: Promise<void>;
  close(): void;
}

export async function openEvents(url: string, headers: Record<string, string>): Promise<EventReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: ReceivedEvent[] = [];
  const comments: ReceivedComment[] = [];
  const closed = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let boundary = buffer.indexOf('\n\n');
        while (boundary >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          boundary = buffer.indexOf('\n\n');
          let event = 'message';
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              comments.push({ text: line.slice(1).replace(/^ /, ''), at: Date.now() });
              continue;
            }
            const separator = line.indexOf(':');
            const field = separator < 0 ? line : line.slice(0, separator);
            const value = separator < 0 ? '' : line.slice(separator + 1).replace(/^ /, '');
            if (field === 'event') event = value;
            else if (field === 'id') id = value;
            else if (field === 'data') data.push(value);
          }
          if (data.length > 0) events.push({ event, id, data: JSON.parse(data.join('\n')), at: Date.now() });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    comments,
    status: response.status,
    closed,
    close: () => controller.abort(),
    async waitFor(match, timeoutMs = 5_000, from = 0) {
      const started = Date.now();
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        if (Date.now() - started > timeoutMs) {
          throw new Error(
            `no matching event within ${timeoutMs} ms; received: ${JSON.stringify(events.map((event) => [event.event, event.id]))}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
