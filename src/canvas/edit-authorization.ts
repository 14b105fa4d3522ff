import type { Actor, ChatRunRecord } from '../store/records.js';

/**
 * Spec: Authentication 5. A write made for an agent carries X-Agent-Run-Id naming a real canvas chat run of the
 * same project and canvas, active, holding an edit authorization, of the same actor. A bearer token alone never
 * gives edit rights. Administrative writes (demo seed, tooling) are `system` writes and need none.
 */
export type EditAuthorization =
  | { kind: 'agent'; agentRunId: string | null; actor: Actor | null; now: number }
  | { kind: 'system' };

export const SYSTEM_WRITE: EditAuthorization = { kind: 'system' };

const NODE_RUN_PREFIX = 'run_';

function sameActor(left: Actor | null, right: Actor | null): boolean {
  if (left === null || right === null) return left === right;
  return left.issuer === right.issuer && left.subject === right.subject;
}

/** Why the chat run gives no edit authorization for this write, or null when it does. */
export function editAuthorizationRefusal(
  chatRun: ChatRunRecord | undefined,
  authorization: Extract<EditAuthorization, { kind: 'agent' }>,
  projectId: string,
  canvasId: string,
): string | null {
  if (!authorization.agentRunId) {
    return 'send X-Agent-Run-Id with the id of an active canvas chat run that holds an edit authorization.';
  }
  if (!chatRun) {
    const hint = authorization.agentRunId.startsWith(NODE_RUN_PREFIX) ? ' (it looks like a node run id, which is a different thing)' : '';
    return `X-Agent-Run-Id names no canvas chat run${hint}.`;
  }
  if (chatRun.projectId !== projectId || chatRun.canvasId !== canvasId) return 'the chat run in X-Agent-Run-Id belongs to another canvas.';
  if (chatRun.endedAt !== null) return 'the chat run in X-Agent-Run-Id has ended.';
  if (chatRun.expiresAt !== null && chatRun.expiresAt <= authorization.now) return 'the chat run in X-Agent-Run-Id has expired.';
  if (!chatRun.canEdit) return 'the chat run in X-Agent-Run-Id holds no edit authorization.';
  if (!sameActor(chatRun.actor, authorization.actor)) return 'the chat run in X-Agent-Run-Id belongs to another actor.';
  return null;
}
