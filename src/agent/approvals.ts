import type { ChatApprovalAnswer, StoredChatMessage } from '../contract/index.js';

/**
 * The transcript's bookkeeping of a turn (pure, tested without a server in the quick lane): which approvals a message
 * still waits on, the person's answers written into it, and what the person last asked.
 */

/** Answers to approval requests written into the assistant message the turn continues. */
export function answered(message: StoredChatMessage, answers: ChatApprovalAnswer[]): StoredChatMessage {
  const byId = new Map(answers.map((answer) => [answer.approval_id, answer]));
  return {
    ...message,
    parts: message.parts.map((part) => {
      const approval = (part as { approval?: { id?: string } }).approval;
      const answer = approval?.id === undefined ? undefined : byId.get(approval.id);
      if ((part as { state?: string }).state !== 'approval-requested' || !answer) return part;
      return {
        ...part,
        state: 'approval-responded',
        approval: {
          id: answer.approval_id,
          approved: answer.approved,
          ...(answer.reason ? { reason: answer.reason } : {}),
        },
      };
    }),
  };
}

/** The text of the person's latest message: what the turn (or the turn an approval continues) answers. */
export function lastPersonText(history: readonly StoredChatMessage[]): string | null {
  const message = [...history].reverse().find((each) => each.role === 'user');
  if (!message) return null;
  return message.parts
    .map((part) => (part.type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''))
    .join('\n');
}

/** The approval requests still open in a message. */
export function pendingApprovals(message: StoredChatMessage | undefined): string[] {
  if (!message) return [];
  return message.parts.flatMap((part) => {
    const { state, approval } = part as { state?: string; approval?: { id?: string } };
    return state === 'approval-requested' && approval?.id ? [approval.id] : [];
  });
}
