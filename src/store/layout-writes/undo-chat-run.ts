import { z } from 'zod';
import { CanvasError } from '../../shared/errors.js';
import type { LayoutTx } from './layout-tx.js';
import { bodyAt, restoreObjects, type RestoreTarget } from './revert.js';

/**
 * Undo of one chat run's changes (docs/chat.md, "Undo a conversation"): each node and edge the
 * run changed goes back to the body it had before the run's first change to it. One that a revision by anyone else
 * changed after that is left as they made it, and said (`kept`): a person's later work is never undone. Runs only
 * inside the write transaction, so the objects read are the ones written.
 */

const TouchedRow = z.object({
  object_kind: z.enum(['node', 'edge']),
  object_id: z.string(),
  first_revision: z.coerce.number(),
});
const LaterRow = z.object({
  revision: z.coerce.number(),
  author_kind: z.string(),
  subject: z.string().nullable(),
  agent_run_id: z.string().nullable(),
});

/** The receipt's own part (the write frame adds the rest). */
interface Undone {
  agent_run_id: string;
  changed_node_ids: string[];
  changed_edge_ids: string[];
  cancelled_run_ids: string[];
  kept: Array<{ kind: 'node' | 'edge'; id: string; revision: number; by: string }>;
}

export async function undoChatRunLayout(layout: LayoutTx, agentRunId: string): Promise<Undone> {
  const key = [layout.projectId, layout.canvasId];
  const touched = (
    await layout.tx.all(
      `SELECT c.object_kind, c.object_id, MIN(c.revision) AS first_revision
       FROM canvas_changes c JOIN canvas_revisions r
         ON r.project_id = c.project_id AND r.canvas_id = c.canvas_id AND r.revision = c.revision
       WHERE c.project_id = ? AND c.canvas_id = ? AND r.agent_run_id = ?
       GROUP BY c.object_kind, c.object_id ORDER BY c.object_kind, c.object_id`,
      [...key, agentRunId],
    )
  ).map((row) => TouchedRow.parse(row));
  if (touched.length === 0)
    throw new CanvasError(
      'invalid_arguments',
      `The chat run ${agentRunId} changed nothing on this canvas: nothing to undo.`,
      {
        agent_run_id: agentRunId,
      },
    );
  const targets: RestoreTarget[] = [];
  const kept: Undone['kept'] = [];
  for (const { object_kind: kind, object_id: id, first_revision: first } of touched) {
    const later = await layout.tx.get(
      `SELECT c.revision, r.author_kind, r.subject, r.agent_run_id
       FROM canvas_changes c JOIN canvas_revisions r
         ON r.project_id = c.project_id AND r.canvas_id = c.canvas_id AND r.revision = c.revision
       WHERE c.project_id = ? AND c.canvas_id = ? AND c.object_kind = ? AND c.object_id = ? AND c.revision > ?
         AND (r.agent_run_id IS NULL OR r.agent_run_id <> ?)
       ORDER BY c.revision LIMIT 1`,
      [...key, kind, id, first, agentRunId],
    );
    if (later) {
      const row = LaterRow.parse(later);
      kept.push({
        kind,
        id,
        revision: row.revision,
        by:
          row.author_kind === 'person'
            ? (row.subject ?? 'a person')
            : row.author_kind === 'agent'
              ? `an agent (${row.agent_run_id ?? 'a token'})`
              : 'the system',
      });
      continue;
    }
    targets.push({ kind, id, body: await bodyAt(layout, kind, id, first - 1) });
  }
  if (targets.length === 0)
    throw new CanvasError(
      'invalid_arguments',
      `Nothing the chat run ${agentRunId} changed is left to undo: ${kept.map((entry) => `${entry.kind} ${entry.id} was changed since by ${entry.by}`).join('; ')}.`,
      { agent_run_id: agentRunId, kept },
    );
  const result = await restoreObjects(layout, targets);
  return {
    agent_run_id: agentRunId,
    changed_node_ids: result.changedNodeIds,
    changed_edge_ids: result.changedEdgeIds,
    cancelled_run_ids: result.cancelledRunIds,
    kept,
  };
}
