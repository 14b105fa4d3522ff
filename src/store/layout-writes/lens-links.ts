import type { CanvasNode, NodeDataOf } from '../../contract/index.js';
import type { LayoutTx } from './layout-tx.js';

/**
 * A floor plan's camera linked to a shot and that shot's `lensMm` follow each other (docs/storyboards.md, "Floor
 * plans"): whoever writes one of them (an agent through MCP or REST, a person, a batch), the other is written in the
 * same transaction, so one revision holds both. The link names the shot by its id, never its number.
 *
 * - A plan written (created or updated): each linked camera's lens goes to its shot when the shot's differs.
 * - A board updated: each shot whose lens changed in this write gives it to the cameras linked to it.
 *
 * The nodes changed here are replaced as they are (not through updateNode), so a follow never follows back.
 */
export async function followLensLinks(layout: LayoutTx, previous: CanvasNode | undefined, node: CanvasNode) {
  if (node.type === 'floorPlanNode') await lensesToShots(layout, node.data);
  else if (node.type === 'storyboardNode' && previous?.type === 'storyboardNode')
    await shotsToCameras(layout, node.id, changedLenses(previous.data, node.data));
}

type PlanData = NodeDataOf<'floorPlanNode'>;
type BoardData = NodeDataOf<'storyboardNode'>;

async function lensesToShots(layout: LayoutTx, plan: PlanData): Promise<void> {
  const byBoard = new Map<string, Map<string, number>>();
  for (const camera of plan.cameras) {
    if (!camera.shot) continue;
    const lenses = byBoard.get(camera.shot.board_node_id) ?? new Map<string, number>();
    lenses.set(camera.shot.shot_id, camera.lensMm);
    byBoard.set(camera.shot.board_node_id, lenses);
  }
  for (const [boardId, lenses] of byBoard) {
    const stored = await layout.node(boardId);
    if (stored?.node.type !== 'storyboardNode') continue;
    const board = stored.node;
    let changed = false;
    const frames = board.data.frames.map((frame) => {
      const lens = lenses.get(frame.id);
      if (lens === undefined || frame.lensMm === lens) return frame;
      changed = true;
      return { ...frame, lensMm: lens };
    });
    if (changed) await layout.replaceNode(stored, { ...board, data: { ...board.data, frames } }, 'node');
  }
}

/** The shots whose lens this write set or changed (a lens removed leaves the cameras as they are). */
function changedLenses(before: BoardData, after: BoardData): Map<string, number> {
  const earlier = new Map(before.frames.map((frame) => [frame.id, frame.lensMm]));
  const changed = new Map<string, number>();
  for (const frame of after.frames)
    if (frame.lensMm !== undefined && earlier.get(frame.id) !== frame.lensMm) changed.set(frame.id, frame.lensMm);
  return changed;
}

async function shotsToCameras(layout: LayoutTx, boardId: string, lenses: Map<string, number>): Promise<void> {
  if (lenses.size === 0) return;
  // Rare (a shot's lens changed), so reading the canvas's plans here costs nothing on other writes.
  for (const id of await layout.planNodeIds()) {
    const stored = await layout.node(id);
    if (stored?.node.type !== 'floorPlanNode') continue;
    const plan = stored.node;
    let changed = false;
    const cameras = plan.data.cameras.map((camera) => {
      const lens = camera.shot?.board_node_id === boardId ? lenses.get(camera.shot.shot_id) : undefined;
      if (lens === undefined || lens === camera.lensMm) return camera;
      changed = true;
      return { ...camera, lensMm: lens };
    });
    if (changed) await layout.replaceNode(stored, { ...plan, data: { ...plan.data, cameras } }, 'node');
  }
}
