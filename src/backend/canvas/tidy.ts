import { CanvasSnapshot, type BatchReceipt, type CanvasRef, type TidyBody } from '../../contract/index.js';
import { tidyPositions } from '../../canvas/tidy.js';
import { CanvasError } from '../../shared/errors.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from './backend.js';

/**
 * Tidy (docs/ui.md, "Tidy"): the named nodes (or the canvas's top-level nodes) laid out again by
 * src/canvas/tidy.ts and written as one revision of `update_node` positions at the caller's base_revision, with the
 * checks, conflicts and history of any write. A node that is not there, or nodes of different parents, are refused
 * naming them.
 */
export async function tidyCanvas(
  backend: CanvasBackend,
  ctx: CallerContext,
  ref: CanvasRef,
  body: TidyBody,
): Promise<BatchReceipt> {
  const { layout } = CanvasSnapshot.parse(JSON.parse((await backend.readSnapshot(ctx, ref)).payload.json));
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  const named = body.node_ids ?? layout.nodes.filter((node) => node.parentId === undefined).map((node) => node.id);
  const missing = named.filter((id) => !byId.has(id));
  if (missing.length > 0)
    throw new CanvasError(
      'not_found',
      `No node ${missing.map((id) => JSON.stringify(id)).join(', ')} on this canvas.`,
      {
        node_ids: missing,
      },
    );
  const tidied = [...new Set(named)].map((id) => byId.get(id)!);
  const parents = new Set(tidied.map((node) => node.parentId ?? null));
  if (parents.size > 1)
    throw new CanvasError(
      'invalid_arguments',
      'node_ids: tidy lays out nodes of one parent at a time (all on the canvas itself, or all in one group).',
      { field: 'node_ids' },
    );
  if (tidied.length < 2)
    throw new CanvasError('invalid_arguments', 'node_ids: there is nothing to tidy (fewer than two nodes).', {
      field: 'node_ids',
    });
  if (tidied.length > 200)
    throw new CanvasError('invalid_arguments', 'node_ids: tidy at most 200 nodes at a time; name them.', {
      field: 'node_ids',
    });
  const positions = await tidyPositions(layout.nodes, tidied, layout.edges, body.mode);
  return backend.applyBatch(ctx, {
    ...ref,
    baseRevision: body.base_revision,
    clientSaveId: body.client_save_id,
    operations: [...positions].map(([nodeId, position]) => ({
      op: 'update_node' as const,
      node_id: nodeId,
      set: { position },
    })),
  });
}
