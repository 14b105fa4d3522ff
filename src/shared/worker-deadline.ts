import { MessageChannel, type MessagePort } from 'node:worker_threads';

/**
 * A deadline for one task on a worker thread that counts the task's own work. It starts when the worker says it has
 * started the task, not when the task was queued. A thread started afresh (seconds on a loaded machine, more from
 * TypeScript source) or a wait behind other tasks is not the input's doing, and a deadline that counted it refused
 * good input as too costly. The wait and the start have a bound of their own.
 */

/** Why a task was stopped: it ran past its deadline, or it never started within the bound. */
class DeadlineError extends Error {
  override name = 'AbortError';
  constructor(readonly stage: 'start' | 'run') {
    super(stage === 'run' ? 'The task ran past its deadline.' : 'The task did not start in time.');
  }
}

/** How a pool runs a task: Piscina's `run`, which aborts the task (ending its thread) when the signal fires. */
type RunOnThread = (task: object, options: { signal: AbortSignal; transferList: MessagePort[] }) => Promise<unknown>;

/** What the caller answers when its task is refused: each is the error its request fails with. */
export interface Refusals {
  /** The task did not start within the bound: its thread was busy or starting. */
  notStarted: () => Error;
  /** The task ran past its deadline and was stopped. */
  overran: () => Error;
  /** The pool's queue was full. */
  queueFull: () => Error;
}

/**
 * Runs `task` with a `started` port the worker signals through (`sayStarted`). Rejects with the caller's refusal when
 * a bound passes or the queue is full, and otherwise with what the pool rejected with.
 */
export async function runWithDeadline(
  run: RunOnThread,
  task: object,
  bounds: { deadlineMs: number; startBoundMs: number },
  refusals: Refusals,
): Promise<unknown> {
  const stop = new AbortController();
  const { port1: heard, port2: started } = new MessageChannel();
  let timer = setTimeout(() => stop.abort(new DeadlineError('start')), bounds.startBoundMs + bounds.deadlineMs);
  heard.once('message', () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop.abort(new DeadlineError('run')), bounds.deadlineMs);
  });
  try {
    return await run({ ...task, started }, { signal: stop.signal, transferList: [started] });
  } catch (error) {
    const reason: unknown = stop.signal.reason;
    if (reason instanceof DeadlineError) throw reason.stage === 'start' ? refusals.notStarted() : refusals.overran();
    const name = (error as { name?: string }).name;
    if (name === 'AbortError' || name === 'TimeoutError') throw refusals.overran();
    // Piscina's refusal when its queue is full.
    if (String((error as Error).message).includes('queue')) throw refusals.queueFull();
    throw error;
  } finally {
    clearTimeout(timer);
    heard.close();
  }
}

/** The worker's side: tells the caller's deadline that the task has started. */
export function sayStarted(started: MessagePort): void {
  started.postMessage('started');
  started.close();
}
