import type { Logger } from '../shared/logger.js';

/**
 * What the composition root opened, closed in reverse (tldraw's disposables, graphile's `release`): each part registers
 * its own cleanup as it opens, so a start that fails halfway and a `close()` run one and the same list. A step that
 * fails is logged and the rest still run: a stuck feed never keeps the store open.
 */
export interface CleanupStack {
  /** Registers how to close what was just opened. */
  defer(name: string, close: () => Promise<void> | void): void;
  /** Closes everything registered, newest first; later calls wait for the first. */
  closeAll(): Promise<void>;
}

export function createCleanupStack(logger: Logger): CleanupStack {
  const steps: Array<{ name: string; close: () => Promise<void> | void }> = [];
  let closing: Promise<void> | undefined;
  return {
    defer(name, close) {
      steps.push({ name, close });
    },
    closeAll() {
      closing ??= (async () => {
        for (const step of steps.splice(0).reverse()) {
          try {
            await step.close();
          } catch (error) {
            logger.error({ err: error, step: step.name }, 'closing a part of the server failed; closing the rest');
          }
        }
      })();
      return closing;
    },
  };
}
