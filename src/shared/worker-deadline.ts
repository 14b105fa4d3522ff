import { MessageChannel, type MessagePort } from 'node:worker_threads';

/**
 * A deadline for one task on a worker thread that counts the task's own work. It starts when the worker says it has
 * started the task, not when the task was queued. A thread started afresh (seconds on a loaded machine, more from
 * TypeScript source) or a wait behind other tasks is not the input's doing, and a deadline that counted it refused
 * good input as too costly. The wait and the start have a bound of their own.
 */

/** Why a task was stopped: it ran past its deadline, or it never started within the bound. */
export class DeadlineError extends Error {
  override name = 'AbortError';
  constructor(readonly stage: 'start' | 'run') {
    super(stage === 'run' ? 'The task ran past its deadline.' : 'The task did not start in time.');
  }
}

/** How a pool runs a task: Piscina's `run`, which aborts the task (ending its thread) when the signal fires. */
type RunOnThread = (task: object, options: { signal: AbortSignal; transferList: MessagePort[] }) => Promise<unknown>;

/**
 * Runs `task` with a `started` port the worker signals through (`sayStarted`). Rejects with a DeadlineError naming the
 * stage when a bound passes, and otherwise with what the pool rejected with.
 */
export async function runWithDeadline(
  run: RunOnThread,
  task: object,
  bounds: { deadlineMs: number; startBoundMs: number },
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
    if (stop.signal.reason instanceof DeadlineError) throw stop.signal.reason;
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
