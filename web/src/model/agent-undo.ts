import type { CanvasController } from './canvas-state.js';
import { api } from './api.js';

/**
 * "Undo its changes" (docs/chat.md, "Undo a conversation"): what a conversation's assistant, or an agent or a
 * connection, changed through one chat run goes back, as one revision; a card someone changed after it is kept, and the
 * notice names it.
 */
export async function undoAgentChanges(controller: CanvasController, agentRunId: string, who: string) {
  const { address, layout } = controller.store.getState();
  try {
    const receipt = await api.undoChatRun(address, agentRunId, layout.revision);
    const count = receipt.changed_node_ids.length + receipt.changed_edge_ids.length;
    const kept = receipt.kept.map((entry) => `${entry.id} (changed since by ${entry.by})`);
    controller.notify(
      'info',
      `Undid ${who}'s ${count} change${count === 1 ? '' : 's'} in revision ${receipt.revision}.` +
        (kept.length > 0 ? ` Kept: ${kept.join(', ')}.` : ''),
    );
  } catch (error) {
    controller.notify('error', `Nothing was undone: ${(error as Error).message}`);
  }
}
