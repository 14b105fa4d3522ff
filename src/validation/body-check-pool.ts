import { Piscina } from 'piscina';
import { CanvasError } from '../shared/errors.js';
import { runWithDeadline, type Refusals } from '../shared/worker-deadline.js';
import type { BodyTarget, BodyVerdict } from './check-body.js';

/**
 * Where request bodies are checked (docs/performance.md, "Large request bodies"). Parsing and validating JSON is
 * linear, but its constant is large for hostile shapes (an object with 400,000 keys takes 370 ms to parse; 18,000
 * schema issues take 200 ms to build): a body above `inlineBytes` is checked on a worker thread, so no request holds
 * the event loop while it is refused. A valid REST body comes back as its schema parsed it (copying it back costs a
 * third of parsing and validating it again); the MCP handler parses a valid body again.
 */

export type CheckVerdict = BodyVerdict | { kind: 'not_utf8' };

export interface BodyCheckPool {
  /**
   * The verdict on a large body, checked on a worker thread; null for a body small enough for the caller to parse
   * and validate on its own thread as usual.
   */
  checkLarge(bytes: Uint8Array, target: BodyTarget): Promise<CheckVerdict | null>;
  /** Starts the worker thread ahead of the first large body (it takes a few hundred ms, off the event loop). */
  warm(): void;
  close(): Promise<void>;
}

export interface BodyCheckPoolOptions {
  /** Bodies up to this size are checked on the calling thread. */
  inlineBytes?: number;
  /** Worker threads (created on first use, ended when idle). */
  threads?: number;
  /** Checks waiting for a thread; beyond it a request is answered `unavailable`. */
  maxQueue?: number;
  /** A check running longer is abandoned and its request refused (counted from the check's start on its thread). */
  timeoutMs?: number;
}

/** How long a check may wait for its thread (in line, or the thread starting) before the check itself starts. */
const START_BOUND_MS = 30_000;

// From the built package the worker is JavaScript; from source (tests, tsx) it is TypeScript, loaded through tsx.
const fromSource = import.meta.url.endsWith('.ts');

/** Whether to start the worker at server start: from the built package; not from source, where tests start many. */
export const WARM_AT_START = !fromSource;

function workerLocation(): { filename: string; execArgv: string[] } {
  const filename = new URL(`./check-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href;
  return { filename, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}

export function createBodyCheckPool(options: BodyCheckPoolOptions = {}): BodyCheckPool {
  const inlineBytes = options.inlineBytes ?? 64 * 1024;
  const timeoutMs = options.timeoutMs ?? 5_000;
  let pool: Piscina | undefined;
  const refusals: Refusals = {
    notStarted: () =>
      new CanvasError('unavailable', 'The body checker did not start on this request in time; retry shortly.'),
    overran: () =>
      new CanvasError('payload_too_large', `The request body is too complex to check within ${timeoutMs} ms.`),
    queueFull: () =>
      new CanvasError('unavailable', 'Too many large requests are waiting to be checked; retry shortly.'),
  };

  function workers(): Piscina {
    pool ??= new Piscina({
      ...workerLocation(),
      minThreads: 0,
      maxThreads: options.threads ?? 1,
      idleTimeout: 30_000,
      maxQueue: options.maxQueue ?? 32,
    });
    return pool;
  }

  return {
    async checkLarge(bytes, target) {
      if (bytes.length <= inlineBytes) return null;
      return (await runWithDeadline(
        (...args) => workers().run(...args),
        { bytes, target },
        { deadlineMs: timeoutMs, startBoundMs: START_BOUND_MS },
        refusals,
      )) as CheckVerdict;
    },
    warm() {
      const task = { bytes: new TextEncoder().encode('{}'), target: { kind: 'mcp' } };
      const bounds = { deadlineMs: timeoutMs, startBoundMs: START_BOUND_MS };
      runWithDeadline((...args) => workers().run(...args), task, bounds, refusals).catch(() => undefined);
    },
    async close() {
      await pool?.destroy();
    },
  };
}
