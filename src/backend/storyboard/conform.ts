import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  dataOf,
  type StoryboardFrame as StoryboardFrameSchema,
  type CanvasNode,
  type CanvasRef,
  type ConformBody,
  type ConformReport,
} from '../../contract/index.js';
import { TimelineReadError } from '../../exports/timeline/read-cut.js';
import { shotDurationMs } from '../../shared/shot-words.js';
import { CanvasError } from '../../shared/errors.js';
import { planConform, type Frame } from './conform-plan.js';
import type { Store } from '../../store/store.js';
import { requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';

type StoryboardFrame = z.infer<typeof StoryboardFrameSchema>;

/**
 * Conform (docs/deliverables.md, "Conform"): an editor's timeline of a board's cut (OTIO, FCP 7 XML, FCPXML, CMX 3600
 * EDL) read back into the board as one batch at the caller's base_revision, with the same checks, history and feed as
 * every other write, and a report of exactly what changed. A timeline that changes nothing writes nothing.
 */
export function createConform(store: Store, backend: CanvasBackend) {
  const newShotId = () => `shot-${randomBytes(4).toString('hex')}`;

  /** A video shot without a duration of its own plays its clip's length, as in the exports: its source card says it. */
  async function clipLengths(ref: CanvasRef, frames: readonly StoryboardFrame[]): Promise<Map<string, number>> {
    const lengths = new Map<string, number>();
    for (const frame of frames) {
      const source = frame.sourceNodeId;
      if (typeof source !== 'string' || lengths.has(source)) continue;
      if (typeof frame.durationMs === 'number' && frame.durationMs > 0) continue;
      const found = await store.layout.readNode(ref.projectId, ref.canvasId, source);
      const video = dataOf(found?.node, 'videoNode');
      if (video && typeof video.durationMs === 'number' && video.durationMs > 0) lengths.set(source, video.durationMs);
    }
    return lengths;
  }

  return {
    async conform(ctx: CallerContext, ref: CanvasRef, body: ConformBody): Promise<ConformReport> {
      // Rights first: nobody without them makes the server read a file, or learns what the canvas holds.
      await backend.authorize(ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const found = await store.layout.readNode(ref.projectId, ref.canvasId, body.node_id);
      if (!found)
        throw new CanvasError('not_found', `There is no node ${body.node_id} on this canvas.`, {
          node_id: body.node_id,
        });
      const board: CanvasNode = found.node;
      const data = dataOf(board, 'storyboardNode');
      if (!data)
        throw new CanvasError('invalid_arguments', `${body.node_id} is a ${board.type}, not a storyboardNode.`, {
          field: 'node_id',
        });
      // The timeline readers (and the XML parser under them) are loaded by the first conform, not at the start.
      const { readTimeline } = await import('../../exports/timeline/read-timeline.js');
      try {
        const cut = readTimeline(body.text, body.frame_rate);
        const clips = await clipLengths(ref, data.frames);
        const plan = planConform({
          frames: data.frames as Frame[],
          playedMs: (frame) => {
            const source = typeof frame.sourceNodeId === 'string' ? frame.sourceNodeId : null;
            return shotDurationMs(frame as StoryboardFrame, source ? (clips.get(source) ?? null) : null);
          },
          cut,
          newShotId,
        });
        if (!plan.frames) return { revision: null, node_id: body.node_id, ...plan.report };
        const receipt = await backend.applyBatch(ctx, {
          ...ref,
          baseRevision: body.base_revision,
          clientSaveId: null,
          operations: [
            {
              op: 'update_node',
              node_id: body.node_id,
              set: { data: { ...(board.data as Record<string, unknown>), frames: plan.frames } },
            },
          ],
        });
        return { revision: receipt.revision, node_id: body.node_id, ...plan.report };
      } catch (error) {
        if (error instanceof TimelineReadError)
          throw new CanvasError('invalid_arguments', `${body.file_name}: ${error.message}`, { field: 'text' });
        throw error;
      }
    },
  };
}

export type Conform = ReturnType<typeof createConform>;
