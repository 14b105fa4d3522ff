import type { Actor, ChatRunRecord, MemberRole } from './records.js';
import { samePerson } from '../contract/index.js';

/**
 * What authorizes one layout write (spec: Authentication 5; docs/security.md):
 * - `agent`: X-Agent-Run-Id names a real canvas chat run of the same project and canvas, active, holding an edit
 *   authorization, and presented by the token and for the person it was opened for. A bearer token alone never
 *   gives edit rights.
 * - `person`: a signed-in project member whose role (editor or owner) the backend checked before the write.
 * - `system`: administrative writes (demo seed, tooling).
 * The authorization also says who the author of the revision is.
 */
export type EditAuthorization =
  | { kind: 'agent'; agentRunId: string | null; tokenId: string; tokenName?: string; actor: Actor | null; now: number }
  | { kind: 'person'; person: Actor }
  | { kind: 'system' };

export const SYSTEM_WRITE: EditAuthorization = { kind: 'system' };

const NODE_RUN_PREFIX = 'run_';

/**
 * Why the chat run gives no edit authorization for this write, or null when it does. `openerRole` is the current
 * project role of the person who opened the chat run (null: no longer a member); it is not read for a chat run an
 * administrator opened.
 */
export function editAuthorizationRefusal(
  chatRun: ChatRunRecord | undefined,
  authorization: Extract<EditAuthorization, { kind: 'agent' }>,
  projectId: string,
  canvasId: string,
  openerRole: MemberRole | null,
): string | null {
  if (!authorization.agentRunId) {
    return 'send X-Agent-Run-Id with the id of an active canvas chat run that holds an edit authorization.';
  }
  if (!chatRun) {
    const hint = authorization.agentRunId.startsWith(NODE_RUN_PREFIX)
      ? ' (it looks like a node run id, which is a different thing)'
      : '';
    return `X-Agent-Run-Id names no canvas chat run${hint}.`;
  }
  if (chatRun.projectId !== projectId || chatRun.canvasId !== canvasId)
    return 'the chat run in X-Agent-Run-Id belongs to another canvas.';
  if (chatRun.endedAt !== null) return 'the chat run in X-Agent-Run-Id has ended.';
  if (chatRun.expiresAt !== null && chatRun.expiresAt <= authorization.now)
    return 'the chat run in X-Agent-Run-Id has expired.';
  if (!chatRun.canEdit) return 'the chat run in X-Agent-Run-Id holds no edit authorization.';
  // Bound to its presenter: a chat run id appears on log lines, so knowing it must not be enough.
  if (chatRun.tokenId === null && chatRun.actor === null) {
    return 'the chat run in X-Agent-Run-Id is bound to no token and no person; open a new one for your token.';
  }
  if (chatRun.tokenId !== null && chatRun.tokenId !== authorization.tokenId) {
    return 'the chat run in X-Agent-Run-Id was opened for another token.';
  }
  if (chatRun.actor !== null && !samePerson(chatRun.actor, authorization.actor)) {
    return 'the chat run in X-Agent-Run-Id belongs to another person.';
  }
  // What a person granted never exceeds what they hold now (docs/security.md, "What people grant to agents").
  if (chatRun.openedBy !== null && openerRole !== 'editor' && openerRole !== 'owner') {
    return `${chatRun.openedBy.subject}, who opened the chat run in X-Agent-Run-Id, no longer has edit rights on project ${projectId}.`;
  }
  return null;
}
