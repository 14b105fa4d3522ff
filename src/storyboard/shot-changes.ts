import { LoggedBoardFrames, type ShotChange } from '../contract/index.js';

/**
 * What one write did to a storyboard's shots (docs/ui.md, "History"): the board node before and after it, compared
 * shot by shot (by id, so a renumbering is an update of `number`, not a new shot). Bodies come from the change log and
 * are read as plain JSON: anything that is not a storyboard with a list of frames has no shots to tell of.
 */

type Frame = Record<string, unknown> & { id: string };

function framesOf(node: unknown): Map<string, Frame> | null {
  const board = LoggedBoardFrames.safeParse(node);
  if (!board.success) return null;
  const byId = new Map<string, Frame>();
  for (const frame of board.data.data.frames)
    if (typeof frame === 'object' && frame !== null && typeof (frame as { id?: unknown }).id === 'string')
      byId.set((frame as Frame).id, frame as Frame);
  return byId;
}

const numberOf = (frame: Frame) => (typeof frame.number === 'string' ? frame.number : null);
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The shots a write changed, in the board's order after it (removed shots last); empty when it is not a board. */
export function shotChanges(nodeId: string, before: unknown, after: unknown): ShotChange[] {
  const was = framesOf(before) ?? new Map<string, Frame>();
  const is = framesOf(after);
  if (!is && was.size === 0) return [];
  const now = is ?? new Map<string, Frame>();
  const changes: ShotChange[] = [];
  for (const [id, frame] of now) {
    const old = was.get(id);
    if (!old) {
      changes.push({ node_id: nodeId, shot_id: id, number: numberOf(frame), change: 'create', fields: [] });
      continue;
    }
    const fields = [...new Set([...Object.keys(old), ...Object.keys(frame)])].filter(
      (field) => !same(old[field], frame[field]),
    );
    if (fields.length > 0)
      changes.push({ node_id: nodeId, shot_id: id, number: numberOf(frame), change: 'update', fields });
  }
  for (const [id, frame] of was)
    if (!now.has(id))
      changes.push({ node_id: nodeId, shot_id: id, number: numberOf(frame), change: 'delete', fields: [] });
  return changes;
}
