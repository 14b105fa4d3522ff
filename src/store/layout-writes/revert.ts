import { z } from 'zod';
import { CanvasEdge, CanvasNode } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { nodeWithinBounds } from '../../canvas/node-bounds.js';
import { parentsFirst } from '../../canvas/parents-first.js';
import type { LayoutTx, ObjectKind } from './layout-tx.js';

/**
 * Revert: a new revision whose layout equals the layout at an earlier revision (docs/api.md). Only the objects
 * changed after that revision are touched; each takes the body its last change at or before that revision left, or
 * goes away when it did not exist then. The change log keeps bodies from schema 004 on: a revert that would need
 * the body of an older change is refused.
 */

const ChangedRow = z.object({ object_kind: z.enum(['node', 'edge']), object_id: z.string() });
const StateRow = z.object({
  change: z.enum(['create', 'update', 'delete']),
  body: z.string().nullable(),
  has_body: z.coerce.number(),
});

export interface RevertResult {
  changedNodeIds: string[];
  changedEdgeIds: string[];
  cancelledRunIds: string[];
}

function invalidTarget(message: string): CanvasError {
  return new CanvasError('invalid_arguments', `Invalid arguments: to_revision: ${message}`, {
    issues: [{ path: 'to_revision', message }],
  });
}

/** The body an object had at `revision`: a string, or null when it did not exist then. */
export async function bodyAt(layout: LayoutTx, kind: ObjectKind, id: string, revision: number): Promise<string | null> {
  const row = await layout.tx.get(
    `SELECT change, body, has_body FROM canvas_changes
     WHERE project_id = ? AND canvas_id = ? AND object_kind = ? AND object_id = ? AND revision <= ?
     ORDER BY revision DESC LIMIT 1`,
    [layout.projectId, layout.canvasId, kind, id, revision],
  );
  if (!row) return null;
  const state = StateRow.parse(row);
  if (state.change === 'delete') return null;
  if (state.has_body !== 1 || state.body === null) {
    throw invalidTarget(
      `the history of ${kind} ${JSON.stringify(id)} at that revision predates the stored bodies; revert to a later revision`,
    );
  }
  return state.body;
}

export async function revertLayout(layout: LayoutTx, toRevision: number): Promise<RevertResult> {
  const current = layout.revision - 1;
  if (toRevision > current) throw invalidTarget(`is ${toRevision}, after the current revision ${current}`);
  const changedRows = await layout.tx.all(
    `SELECT DISTINCT object_kind, object_id FROM canvas_changes WHERE project_id = ? AND canvas_id = ? AND revision > ?
     ORDER BY object_kind, object_id`,
    [layout.projectId, layout.canvasId, toRevision],
  );
  const changed = changedRows.map((row) => ChangedRow.parse(row));
  const targets: RestoreTarget[] = [];
  for (const { object_kind: kind, object_id: id } of changed)
    targets.push({ kind, id, body: await bodyAt(layout, kind, id, toRevision) });
  return restoreObjects(layout, targets);
}

/** An object and the body it goes back to (null: it goes away). */
export interface RestoreTarget {
  kind: ObjectKind;
  id: string;
  body: string | null;
}

/** Puts objects back to the given bodies (revert, undo of a chat run), keeping every edge's ends in place throughout. */
export async function restoreObjects(layout: LayoutTx, targets: readonly RestoreTarget[]): Promise<RevertResult> {
  const result: RevertResult = { changedNodeIds: [], changedEdgeIds: [], cancelledRunIds: [] };
  const edges = targets.filter((target) => target.kind === 'edge');
  const nodes = targets.filter((target) => target.kind === 'node');

  // Edges first out, nodes in, nodes out, edges in: every edge always has both ends while the write runs.
  for (const edge of edges) {
    if (await layout.removeEdge(edge.id)) result.changedEdgeIds.push(edge.id);
  }
  const restored: CanvasNode[] = [];
  for (const target of nodes) {
    const stored = await layout.node(target.id);
    if (target.body === null) {
      if (!stored) continue;
      result.cancelledRunIds.push(...(await layout.cancelActiveRuns(target.id, stored.seq)));
      await layout.removeNode(stored);
    } else {
      // A body logged before positions and sizes were bounded comes back within them.
      const node = CanvasNode.parse(JSON.parse(nodeWithinBounds(target.body) ?? target.body));
      if (stored) await layout.replaceNode(stored, node, 'to_revision');
      else restored.push(node);
    }
    result.changedNodeIds.push(target.id);
  }
  // Nodes that come back are inserted parents first.
  for (const node of parentsFirst(restored)) await layout.insertNode(node, 'to_revision');
  for (const target of nodes) if (target.body !== null) await layout.keepAfterParent(target.id);
  for (const edge of edges) {
    if (edge.body === null) continue;
    await layout.insertEdge(CanvasEdge.parse(JSON.parse(edge.body)), 'to_revision');
    if (!result.changedEdgeIds.includes(edge.id)) result.changedEdgeIds.push(edge.id);
  }
  return result;
}
