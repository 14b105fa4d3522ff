import type { UIMessageChunk } from 'ai';

/**
 * A turn as it streams, for everyone who watches it: the person who sent the message and every other member with
 * the conversation open. Each watcher gets the turn from its start, then live; the person's tab closing changes
 * nothing for the turn, which a pump on the server reads to the end.
 */
export interface LiveTurn {
  /** A stream of the turn's chunks so far and then live, ending with the turn. */
  watch(): ReadableStream<UIMessageChunk>;
  readonly finished: boolean;
}

/**
 * `pumped` resolves when the source has ended; watchers' streams end only at `end()`, once the turn is recorded, so
 * whoever sees a turn end can send the next message at once.
 */
export function liveTurn(
  source: ReadableStream<UIMessageChunk>,
  onChunk?: (chunk: UIMessageChunk) => void,
): LiveTurn & { pumped: Promise<void>; end(): void } {
  const chunks: UIMessageChunk[] = [];
  const watchers = new Set<ReadableStreamDefaultController<UIMessageChunk>>();
  let finished = false;

  const pumped = (async () => {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        onChunk?.(value);
        for (const watcher of watchers) watcher.enqueue(value);
      }
    } finally {
      reader.releaseLock();
    }
  })();

  return {
    pumped,
    end() {
      if (finished) return;
      finished = true;
      for (const watcher of watchers) watcher.close();
      watchers.clear();
    },
    get finished() {
      return finished;
    },
    watch() {
      let mine: ReadableStreamDefaultController<UIMessageChunk> | undefined;
      return new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          if (finished) controller.close();
          else {
            mine = controller;
            watchers.add(controller);
          }
        },
        cancel() {
          if (mine) watchers.delete(mine);
        },
      });
    },
  };
}
