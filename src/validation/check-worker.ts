import { checkBody, type BodyTarget, type BodyVerdict } from './check-body.js';

/** The worker thread side of the body check pool (src/validation/body-check-pool.ts). */
export default function check(task: { bytes: Uint8Array; target: BodyTarget }): BodyVerdict | { kind: 'not_utf8' } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(task.bytes);
  } catch {
    return { kind: 'not_utf8' };
  }
  return checkBody(text, task.target);
}
