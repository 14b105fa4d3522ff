import { dataOf, type CanvasNode } from '../../contract/index.js';
import type { CanvasRef } from '../../contract/identifiers.js';
import { shotMedia } from '../../exports/board-source.js';
import { shotListFile, shotListRows, shotsOf, type ShotListFormat } from '../../exports/shot-list.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';

/** A storyboard's shot list as CSV or XLSX, for whoever may read the canvas (docs/storyboards.md, "The shot list"). */
export async function exportShotList(
  store: Store,
  ctx: CallerContext,
  ref: CanvasRef,
  nodeId: string,
  format: ShotListFormat,
): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
  await authorizeProject(store, ctx, ref.projectId, 'viewer');
  await requireCanvas(store, ref.projectId, ref.canvasId);
  const found = await store.layout.readNode(ref.projectId, ref.canvasId, nodeId);
  if (!found) throw new CanvasError('not_found', `There is no node ${nodeId} on this canvas.`, { node_id: nodeId });
  const shots = shotsOf(found.node);
  if (!shots)
    throw new CanvasError(
      'invalid_arguments',
      `${nodeId} is a ${found.node.type}: a shot list is made from a storyboard (storyboardNode).`,
      { node_id: nodeId },
    );
  const data = dataOf(found.node, 'storyboardNode');
  const title = data?.title ?? data?.displayName ?? nodeId;
  // A video shot with no duration and no dialogue plays its clip's length, read from the card it comes from.
  const sources = new Map<string, CanvasNode>();
  for (const sourceId of new Set(shots.flatMap((shot) => (shot.sourceNodeId ? [shot.sourceNodeId] : [])))) {
    const source = await store.layout.readNode(ref.projectId, ref.canvasId, sourceId);
    if (source) sources.set(sourceId, source.node);
  }
  const rows = shotListRows(shots, (shot) =>
    shot.sourceNodeId ? shotMedia(shot, sources.get(shot.sourceNodeId), new Map()).clipMs : null,
  );
  const file = await shotListFile(title, rows, format);
  const safeTitle = title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || nodeId;
  return { bytes: file.bytes, contentType: file.contentType, fileName: `${safeTitle} shot list.${file.extension}` };
}
