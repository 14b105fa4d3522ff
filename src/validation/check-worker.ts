import type { MessagePort } from 'node:worker_threads';
import { sayStarted } from '../shared/worker-deadline.js';
import { checkBody, type BodyTarget, type BodyVerdict } from './check-body.js';

/**
 * The worker thread side of the body check pool (src/validation/body-check-pool.ts). It says when it starts on `started`,
 * so the check's time limit counts the check, not the thread's start or the wait in line.
 */
export default function check(task: {
  bytes: Uint8Array;
  target: BodyTarget;
  started: MessagePort;
}): BodyVerdict | { kind: 'not_utf8' } {
  sayStarted(task.started);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(task.bytes);
  } catch {
    return { kind: 'not_utf8' };
  }
  return checkBody(text, task.target);
}
