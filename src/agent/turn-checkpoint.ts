import { CHECKPOINT_ID_PREFIX } from '../backend/canvas/checkpoints.js';
import { newId } from '../shared/ids.js';
import type { ConversationRecord } from '../store/chat-store.js';
import type { Store } from '../store/store.js';

/** A turn that changes more nodes and edges than this gets a checkpoint before it (docs/ui.md, "History"). */
const HANDFUL_OF_CHANGES = 5;

/**
 * Before a turn that changed more than a handful of nodes and edges, a checkpoint: the revision the canvas had when
 * the turn began, named after what the person asked, so it is one click from History (docs/ui.md, "History").
 */
export async function checkpointBigTurn(
  store: Store,
  conversation: ConversationRecord,
  startRevision: number,
  asked: string | null,
): Promise<void> {
  const changed = await store.checkpoints.changedByChatRun(
    conversation.projectId,
    conversation.canvasId,
    conversation.chatRunId,
    startRevision,
  );
  if (changed <= HANDFUL_OF_CHANGES) return;
  const words = (asked ?? '').replace(/\s+/g, ' ').trim();
  await store.checkpoints.create(conversation.projectId, conversation.canvasId, {
    id: newId(CHECKPOINT_ID_PREFIX),
    name: `Before the assistant's turn: ${words.length > 60 ? `${words.slice(0, 59)}…` : words || 'a message'}`,
    revision: startRevision,
    kind: 'auto',
    createdBy: `Assistant for ${conversation.owner.subject}`,
  });
}
