import type { CanvasRef, CheckpointCreateBody, CheckpointList, CheckpointView } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { StoredCheckpoint } from '../../store/checkpoint-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';

/**
 * Checkpoints (docs/ui.md, "History"): members read a canvas's checkpoints; editors name one (the
 * current revision, or an earlier one). Restoring is a revert to its revision, through the revert route.
 */

export const CHECKPOINT_ID_PREFIX = 'cp_';

export function checkpointView(checkpoint: StoredCheckpoint): CheckpointView {
  return {
    checkpoint_id: checkpoint.id,
    name: checkpoint.name,
    revision: checkpoint.revision,
    kind: checkpoint.kind,
    created_by: checkpoint.createdBy,
    created_at: new Date(checkpoint.createdAt).toISOString(),
  };
}

export function createCheckpointOperations(store: Store) {
  return {
    async list(ctx: CallerContext, ref: CanvasRef): Promise<CheckpointList> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      return { checkpoints: (await store.checkpoints.list(ref.projectId, ref.canvasId)).map(checkpointView) };
    },

    async create(ctx: CallerContext, ref: CanvasRef, body: CheckpointCreateBody): Promise<CheckpointView> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      const canvas = await requireCanvas(store, ref.projectId, ref.canvasId);
      const revision = body.revision ?? canvas.revision;
      if (revision > canvas.revision)
        throw new CanvasError(
          'invalid_arguments',
          `revision: ${revision} is after the canvas's current revision ${canvas.revision}.`,
          { field: 'revision' },
        );
      const createdBy =
        ctx.principal.kind === 'session'
          ? ctx.principal.person.subject
          : (ctx.actor?.subject ?? ctx.principal.tokenName);
      const created = await store.checkpoints.create(ref.projectId, ref.canvasId, {
        id: newId(CHECKPOINT_ID_PREFIX),
        name: body.name,
        revision,
        kind: 'named',
        createdBy,
      });
      return checkpointView(created);
    },
  };
}

export type CheckpointOperations = ReturnType<typeof createCheckpointOperations>;
