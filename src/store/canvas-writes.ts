import {
  CanvasNode,
  CreateEdgeReceipt,
  CreateNodeReceipt,
  DeleteEdgeReceipt,
  DeleteNodeReceipt,
  type CanvasEdge,
  type SaveReceipt,
} from '../contract/index.js';
import { editAuthorizationRefusal, type EditAuthorization } from '../canvas/edit-authorization.js';
import { reparentChild } from '../canvas/rules.js';
import { CanvasError } from '../shared/errors.js';
import { canonicalJson, sha256Hex } from '../shared/ids.js';
import { z } from 'zod';
import { CHAT_RUN_COLUMNS, ChatRunRow, parseRow } from './records.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/**
 * Layout writes. Each runs in one transaction: replay a stored receipt, check lock and base_revision, apply the
 * change, bump the revision by exactly 1, record what changed, store the receipt. Any failure rolls everything
 * back: nothing is ever half written.
 */

export interface WriteTarget {
  projectId: string;
  canvasId: string;
  baseRevision: number;
  clientSaveId: string | null;
  /** Checked inside the transaction, so an edit authorization cannot end between check and write. */
  authorization: EditAuthorization;
}

const MAX_CHANGED_IDS = 100;

const CanvasLockRow = z.object({
  revision: z.coerce.number().int(),
  locked: z.coerce.number(),
  next_seq: z.coerce.number().int(),
});
const ReceiptRow = z.object({ payload_hash: z.string(), receipt: z.string() });
const IdRow = z.object({ id: z.string() });
const BodyRow = z.object({ id: z.string(), body: z.string() });

interface WriteStep {
  tx: SqlExecutor;
  revision: number;
  /** Next creation sequence number; a step that creates objects takes them from here. */
  takeSeq(): number;
  recordChange(kind: 'node' | 'edge', id: string, change: 'create' | 'update' | 'delete'): Promise<void>;
}

async function changedNodeIds(tx: SqlExecutor, target: WriteTarget): Promise<{ ids: string[]; truncated: boolean }> {
  const rows = await tx.all(
    `SELECT DISTINCT object_id AS id FROM canvas_changes
     WHERE project_id = ? AND canvas_id = ? AND object_kind = 'node' AND revision > ?
     ORDER BY object_id LIMIT ${MAX_CHANGED_IDS + 1}`,
    [target.projectId, target.canvasId, target.baseRevision],
  );
  const ids = rows.map((row) => IdRow.parse(row).id);
  return { ids: ids.slice(0, MAX_CHANGED_IDS), truncated: ids.length > MAX_CHANGED_IDS };
}

function parseNodeBody(body: string): CanvasNode {
  return CanvasNode.parse(JSON.parse(body));
}

async function checkEditAuthorization(tx: SqlExecutor, target: WriteTarget): Promise<void> {
  const { authorization } = target;
  if (authorization.kind === 'system') return;
  const row = authorization.agentRunId
    ? await tx.get(`SELECT ${CHAT_RUN_COLUMNS} FROM chat_runs WHERE id = ?`, [authorization.agentRunId])
    : undefined;
  const refusal = editAuthorizationRefusal(row ? parseRow(ChatRunRow, row) : undefined, authorization, target.projectId, target.canvasId);
  if (refusal) throw new CanvasError('edit_not_authorized', `No canvas edit authorization: ${refusal}`);
}

export function createCanvasWrites(driver: SqlDriver, clock: () => number) {
  async function write<R extends SaveReceipt>(
    target: WriteTarget,
    receiptSchema: z.ZodType<R>,
    payload: Record<string, unknown>,
    step: (context: WriteStep) => Promise<Omit<R, keyof SaveReceiptBase>>,
  ): Promise<R> {
    // Only a save with a client_save_id is ever compared with another.
    const payloadHash =
      target.clientSaveId === null ? '' : sha256Hex(canonicalJson({ ...payload, base_revision: target.baseRevision }));
    const key = [target.projectId, target.canvasId];
    return driver.transaction(async (tx) => {
      const canvasRow = await tx.get(
        `SELECT revision, locked, next_seq FROM canvases WHERE project_id = ? AND id = ?${driver.forUpdate}`,
        key,
      );
      if (!canvasRow) {
        throw new CanvasError('not_found', `No canvas ${target.canvasId} in project ${target.projectId}.`);
      }
      const canvas = CanvasLockRow.parse(canvasRow);
      await checkEditAuthorization(tx, target);

      if (target.clientSaveId !== null) {
        const stored = await tx.get(
          'SELECT payload_hash, receipt FROM save_receipts WHERE project_id = ? AND canvas_id = ? AND client_save_id = ?',
          [...key, target.clientSaveId],
        );
        if (stored) {
          const { payload_hash, receipt } = ReceiptRow.parse(stored);
          if (payload_hash !== payloadHash) {
            throw new CanvasError(
              'idempotency_mismatch',
              `client_save_id ${JSON.stringify(target.clientSaveId)} was already used for a different save on this canvas; use a new client_save_id.`,
              { client_save_id: target.clientSaveId },
            );
          }
          return { ...receiptSchema.parse(JSON.parse(receipt)), replayed: true };
        }
      }

      if (canvas.locked === 1) {
        throw new CanvasError('canvas_locked', `Canvas ${target.canvasId} is locked read-only; no write is allowed.`);
      }
      if (canvas.revision !== target.baseRevision) {
        const changed = await changedNodeIds(tx, target);
        throw new CanvasError(
          'revision_conflict',
          `base_revision ${target.baseRevision} is stale: the canvas is at revision ${canvas.revision}. Re-read with get_canvas, merge the other changes, and resubmit with base_revision ${canvas.revision}.`,
          {
            base_revision: target.baseRevision,
            current_revision: canvas.revision,
            changed_node_ids: changed.ids,
            changed_node_ids_truncated: changed.truncated,
          },
        );
      }

      const revision = canvas.revision + 1;
      let nextSeq = canvas.next_seq;
      const result = await step({
        tx,
        revision,
        takeSeq: () => nextSeq++,
        recordChange: async (kind, id, change) => {
          await tx.run(
            `INSERT INTO canvas_changes (project_id, canvas_id, revision, object_kind, object_id, change)
             VALUES (?, ?, ?, ?, ?, ?)`,
            [...key, revision, kind, id, change],
          );
        },
      });
      await tx.run('UPDATE canvases SET revision = ?, next_seq = ? WHERE project_id = ? AND id = ?', [
        revision,
        nextSeq,
        ...key,
      ]);

      const receipt = receiptSchema.parse({
        project_id: target.projectId,
        canvas_id: target.canvasId,
        revision,
        previous_revision: canvas.revision,
        client_save_id: target.clientSaveId,
        replayed: false,
        saved_at: new Date(clock()).toISOString(),
        ...result,
      });
      if (target.clientSaveId !== null) {
        await tx.run(
          `INSERT INTO save_receipts (project_id, canvas_id, client_save_id, payload_hash, receipt, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
          [...key, target.clientSaveId, payloadHash, JSON.stringify(receipt), clock()],
        );
      }
      return receipt;
    });
  }

  async function requireNode(tx: SqlExecutor, target: WriteTarget, id: string): Promise<CanvasNode | undefined> {
    const row = await tx.get('SELECT id, body FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?', [
      target.projectId,
      target.canvasId,
      id,
    ]);
    return row ? parseNodeBody(BodyRow.parse(row).body) : undefined;
  }

  function missingReference(path: string, id: string): CanvasError {
    const message = `${path} ${JSON.stringify(id)} names no node on this canvas.`;
    return new CanvasError('invalid_arguments', `Invalid arguments: ${message}`, { issues: [{ path, message }] });
  }

  return {
    createNode(target: WriteTarget, node: CanvasNode): Promise<CreateNodeReceipt> {
      return write(target, CreateNodeReceipt, { operation: 'create_node', node }, async ({ tx, revision, takeSeq, recordChange }) => {
        if (node.parentId !== undefined && !(await requireNode(tx, target, node.parentId))) {
          throw missingReference('node.parentId', node.parentId);
        }
        const { changes } = await tx.run(
          `INSERT INTO canvas_nodes (project_id, canvas_id, id, seq, type, parent_id, body, created_revision, updated_revision)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, canvas_id, id) DO NOTHING`,
          [target.projectId, target.canvasId, node.id, takeSeq(), node.type, node.parentId ?? null, JSON.stringify(node), revision, revision],
        );
        if (changes === 0) {
          throw new CanvasError('already_exists', `A node with id ${JSON.stringify(node.id)} already exists on this canvas; choose a new id.`, {
            node_id: node.id,
          });
        }
        await recordChange('node', node.id, 'create');
        return { operation: 'create_node', node_id: node.id };
      });
    },

    deleteNode(target: WriteTarget, nodeId: string): Promise<DeleteNodeReceipt> {
      return write(target, DeleteNodeReceipt, { operation: 'delete_node', node_id: nodeId }, async ({ tx, revision, recordChange }) => {
        const node = await requireNode(tx, target, nodeId);
        if (!node) throw new CanvasError('not_found', `No node with id ${JSON.stringify(nodeId)} on this canvas.`, { node_id: nodeId });
        const scope = [target.projectId, target.canvasId];

        const edgeRows = await tx.all(
          'SELECT id FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND (source = ? OR target = ?) ORDER BY seq',
          [...scope, nodeId, nodeId],
        );
        const deletedEdgeIds = edgeRows.map((row) => IdRow.parse(row).id);
        for (const edgeId of deletedEdgeIds) {
          await tx.run('DELETE FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND id = ?', [...scope, edgeId]);
          await recordChange('edge', edgeId, 'delete');
        }

        const childRows = await tx.all(
          'SELECT id, body FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND parent_id = ? ORDER BY seq',
          [...scope, nodeId],
        );
        const reparentedNodeIds: string[] = [];
        for (const row of childRows) {
          const child = reparentChild(parseNodeBody(BodyRow.parse(row).body), node);
          await tx.run(
            'UPDATE canvas_nodes SET body = ?, parent_id = ?, updated_revision = ? WHERE project_id = ? AND canvas_id = ? AND id = ?',
            [JSON.stringify(child), child.parentId ?? null, revision, ...scope, child.id],
          );
          await recordChange('node', child.id, 'update');
          reparentedNodeIds.push(child.id);
        }

        await tx.run('DELETE FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?', [...scope, nodeId]);
        await recordChange('node', nodeId, 'delete');
        return {
          operation: 'delete_node',
          node_id: nodeId,
          deleted_edge_ids: deletedEdgeIds,
          reparented_node_ids: reparentedNodeIds,
        };
      });
    },

    createEdge(target: WriteTarget, edge: CanvasEdge): Promise<CreateEdgeReceipt> {
      return write(target, CreateEdgeReceipt, { operation: 'create_edge', edge }, async ({ tx, revision, takeSeq, recordChange }) => {
        const scope = [target.projectId, target.canvasId];
        if (!(await requireNode(tx, target, edge.source))) throw missingReference('edge.source', edge.source);
        if (!(await requireNode(tx, target, edge.target))) throw missingReference('edge.target', edge.target);
        const { changes } = await tx.run(
          `INSERT INTO canvas_edges (project_id, canvas_id, id, seq, source, target, body, created_revision)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, canvas_id, id) DO NOTHING`,
          [...scope, edge.id, takeSeq(), edge.source, edge.target, JSON.stringify(edge), revision],
        );
        if (changes === 0) {
          throw new CanvasError('already_exists', `An edge with id ${JSON.stringify(edge.id)} already exists on this canvas.`, {
            edge_id: edge.id,
          });
        }
        await recordChange('edge', edge.id, 'create');
        return { operation: 'create_edge', edge_id: edge.id };
      });
    },

    deleteEdge(target: WriteTarget, edgeId: string): Promise<DeleteEdgeReceipt> {
      return write(target, DeleteEdgeReceipt, { operation: 'delete_edge', edge_id: edgeId }, async ({ tx, recordChange }) => {
        const { changes } = await tx.run('DELETE FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND id = ?', [
          target.projectId,
          target.canvasId,
          edgeId,
        ]);
        if (changes === 0) throw new CanvasError('not_found', `No edge with id ${JSON.stringify(edgeId)} on this canvas.`, { edge_id: edgeId });
        await recordChange('edge', edgeId, 'delete');
        return { operation: 'delete_edge', edge_id: edgeId };
      });
    },
  };
}

type SaveReceiptBase = Pick<
  CreateNodeReceipt,
  'project_id' | 'canvas_id' | 'revision' | 'previous_revision' | 'client_save_id' | 'replayed' | 'saved_at'
>;

export type CanvasWrites = ReturnType<typeof createCanvasWrites>;
