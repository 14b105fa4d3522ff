import { z } from 'zod';
import { LIMITS, type RevisionAuthor, type SaveReceipt } from '../../contract/index.js';
import { editAuthorizationRefusal, type EditAuthorization } from '../edit-authorization.js';
import { CanvasError } from '../../shared/errors.js';
import { canonicalJson, sha256Hex } from '../../shared/ids.js';
import { CHAT_RUN_COLUMNS, ChatRunRow, MemberRoleRow, parseRow, type MemberRole } from '../records.js';
import { deferRow } from '../row-statements.js';
import { deferWrite, readMany } from '../pipeline.js';
import { bumpStatesVersion } from '../run-store.js';
import { WEBHOOKS_OF_PROJECT, emitLayoutEvent, hooksOf } from '../webhook-outbox.js';
import type { SqlDriver, SqlExecutor } from '../sql-driver.js';
import { NODE_ROW_QUERY, LayoutTx, type ChangeRecord } from './layout-tx.js';

/**
 * The one transaction every layout write runs in: lock the canvas row, check the edit authorization, replay an
 * identical earlier request, check the lock and base_revision, apply the operations, check the canvas caps, bump
 * the revision by exactly 1, log what changed (with bodies) and who changed it, store the receipt. Any failure
 * rolls all of it back: nothing is ever half written.
 */

export interface WriteTarget {
  projectId: string;
  canvasId: string;
  baseRevision: number;
  clientSaveId: string | null;
  /** Checked inside the transaction, so an edit authorization cannot end between check and write. */
  authorization: EditAuthorization;
}

/** What a committed write tells the rest of the process (run engine, change feed). */
export interface CommittedWrite {
  projectId: string;
  canvasId: string;
  revision: number;
  author: RevisionAuthor;
  operation: string;
  /** When it was written (ISO 8601), as the change log records it. */
  at: string;
  changes: ChangeRecord[];
  runsToSignal: string[];
}

/** The channel on which processes tell each other about layout revisions: `<revision> <project_id>/<canvas_id>`. */
export const LAYOUT_EVENTS_CHANNEL = 'canvas_mcp_layout';

export type ReceiptBase = Pick<
  SaveReceipt,
  'project_id' | 'canvas_id' | 'revision' | 'previous_revision' | 'client_save_id' | 'replayed' | 'saved_at'
>;

const MAX_CHANGED_IDS = 100;

const CanvasLockRow = z.object({
  revision: z.coerce.number().int(),
  locked: z.coerce.number(),
  next_seq: z.coerce.number().int(),
  node_count: z.coerce.number().int(),
  edge_count: z.coerce.number().int(),
  layout_bytes: z.coerce.number().int(),
});
const ReceiptRow = z.object({ receipt: z.string() });
const IdRow = z.object({ id: z.string() });

export function authorOf(authorization: EditAuthorization): RevisionAuthor {
  switch (authorization.kind) {
    case 'person':
      return { kind: 'person', issuer: authorization.person.issuer, subject: authorization.person.subject };
    case 'agent':
      return {
        kind: 'agent',
        token_id: authorization.tokenId,
        ...(authorization.tokenName !== undefined ? { token_name: authorization.tokenName } : {}),
        agent_run_id: authorization.agentRunId,
        ...(authorization.actor ? { on_behalf_of: { ...authorization.actor } } : {}),
      };
    case 'system':
      return { kind: 'system' };
  }
}

/** Who presented a write, as save receipts are scoped: the token, or the signed-in person. */
function presenterOf(authorization: EditAuthorization): string {
  switch (authorization.kind) {
    case 'person':
      return `person\u0000${authorization.person.issuer}\u0000${authorization.person.subject}`;
    case 'agent':
      return `token\u0000${authorization.tokenId}`;
    case 'system':
      return 'system';
  }
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

/**
 * The reads a write needs before it changes anything, in one round trip on PostgreSQL (src/store/pipeline.ts): the
 * canvas row, locked; for an agent, its chat run and the role of the person who opened it; the project's webhooks;
 * an identical earlier request's receipt; and the rows of the nodes the write reads first (an update's, a delete's),
 * read after the lock in the same message, so they are as current as a read inside the write.
 */
async function readBeforeWrite(
  tx: SqlExecutor,
  forUpdate: string,
  target: WriteTarget,
  receiptKey: { key: string; payloadHash: string } | null,
  nodesRead: readonly string[],
) {
  const key = [target.projectId, target.canvasId];
  const { authorization } = target;
  const agentRunId = authorization.kind === 'agent' ? authorization.agentRunId : null;
  const queries = [
    {
      sql: `SELECT revision, locked, next_seq, node_count, edge_count, layout_bytes FROM canvases WHERE project_id = ? AND id = ? AND deleted_at IS NULL${forUpdate}`,
      params: key,
    },
    { sql: WEBHOOKS_OF_PROJECT, params: [target.projectId] },
  ];
  if (agentRunId !== null)
    queries.push(
      { sql: `SELECT ${CHAT_RUN_COLUMNS} FROM chat_runs WHERE id = ?`, params: [agentRunId] },
      {
        sql: `SELECT m.role AS role FROM chat_runs r JOIN project_members m
                ON m.project_id = ? AND m.issuer = r.opened_by_issuer AND m.subject = r.opened_by_subject WHERE r.id = ?`,
        params: [target.projectId, agentRunId],
      },
    );
  if (receiptKey !== null)
    queries.push({
      sql: 'SELECT receipt FROM save_receipts WHERE project_id = ? AND canvas_id = ? AND client_save_key = ? AND payload_hash = ?',
      params: [...key, receiptKey.key, receiptKey.payloadHash],
    });
  const nodesFrom = queries.length;
  for (const nodeId of nodesRead) queries.push({ sql: NODE_ROW_QUERY, params: [...key, nodeId] });
  const rows = await readMany(tx, queries);
  const [canvasRow, hooksRow] = rows;
  const [chatRunRow, openerRow] = agentRunId !== null ? rows.slice(2, 4) : [undefined, undefined];
  const receiptRow = receiptKey !== null ? rows[nodesFrom - 1] : undefined;
  return {
    nodeRows: nodesRead.map((nodeId, index) => [nodeId, rows[nodesFrom + index]] as const),
    canvas: canvasRow ? CanvasLockRow.parse(canvasRow) : undefined,
    hooks: hooksOf(hooksRow),
    chatRun: chatRunRow ? parseRow(ChatRunRow, chatRunRow) : undefined,
    openerRole: openerRow ? parseRow(MemberRoleRow, openerRow).role : null,
    storedReceipt: receiptRow ? ReceiptRow.parse(receiptRow).receipt : null,
  };
}

function checkEditAuthorization(
  target: WriteTarget,
  chatRun: ReturnType<typeof parseRow<typeof ChatRunRow>> | undefined,
  openerRole: MemberRole | null,
): void {
  const { authorization } = target;
  if (authorization.kind !== 'agent') return;
  const refusal = editAuthorizationRefusal(chatRun, authorization, target.projectId, target.canvasId, openerRole);
  if (refusal) throw new CanvasError('edit_not_authorized', `No canvas edit authorization: ${refusal}`);
}

export interface CanvasCaps {
  canvasNodes: number;
  canvasEdges: number;
  canvasBytes: number;
  nodeBytes: number;
  edgeBytes: number;
  /** Change-log bytes one write may leave. */
  changeLogBytes: number;
}

export const DEFAULT_CAPS: CanvasCaps = {
  canvasNodes: LIMITS.canvasNodes,
  canvasEdges: LIMITS.canvasEdges,
  canvasBytes: LIMITS.canvasBytes,
  nodeBytes: LIMITS.nodeBytes,
  edgeBytes: LIMITS.edgeBytes,
  changeLogBytes: LIMITS.changeLogBytes,
};

/** The bytes of change log a write leaves: the bodies it stores (UTF-16 code units, a close bound for JSON text). */
export function changeLogBytes(changes: Iterable<ChangeRecord>): number {
  let bytes = 0;
  for (const change of changes) bytes += change.body?.length ?? 0;
  return bytes;
}

function checkCaps(layout: LayoutTx, caps: CanvasCaps): void {
  const { nodeCount, edgeCount, layoutBytes } = layout.counters;
  const refuse = (message: string, limit: Record<string, number>) => {
    throw new CanvasError('limit_exceeded', `This write would exceed a canvas limit: ${message}`, limit);
  };
  if (nodeCount > caps.canvasNodes)
    refuse(`a canvas holds at most ${caps.canvasNodes} nodes.`, { max_nodes: caps.canvasNodes });
  if (edgeCount > caps.canvasEdges)
    refuse(`a canvas holds at most ${caps.canvasEdges} edges.`, { max_edges: caps.canvasEdges });
  if (layoutBytes > caps.canvasBytes) {
    refuse(`a canvas layout is at most ${caps.canvasBytes} bytes serialized.`, { max_layout_bytes: caps.canvasBytes });
  }
  const logged = changeLogBytes(layout.changes.values());
  if (logged > caps.changeLogBytes) {
    throw new CanvasError(
      'limit_exceeded',
      `This write would log ${logged} bytes of changed nodes and edges, more than the ${caps.changeLogBytes} one request may cause: change fewer large nodes at once (for a revert, revert to a later revision first).`,
      { max_change_log_bytes: caps.changeLogBytes, change_log_bytes: logged },
    );
  }
}

export interface WriteFrameDeps {
  driver: SqlDriver;
  clock: () => number;
  /** Runs after each commit, in this process. */
  committed: (write: CommittedWrite) => void;
  caps: CanvasCaps;
}

export async function runLayoutWrite<R extends SaveReceipt>(
  deps: WriteFrameDeps,
  target: WriteTarget,
  request: { operation: string; payload: Record<string, unknown> },
  receiptSchema: z.ZodType<R>,
  apply: (layout: LayoutTx) => Promise<Omit<R, keyof ReceiptBase>>,
  /** Nodes the write reads before it changes anything, read with the canvas row (one round trip fewer). */
  nodesRead: readonly string[] = [],
): Promise<R> {
  const { driver, clock } = deps;
  const key = [target.projectId, target.canvasId];
  const author = authorOf(target.authorization);
  // The receipt is keyed by its presenter, the id and the whole request: only an identical retry by the same token or
  // person replays it (docs/api.md); another caller with the same id makes its own write. Hashing a 1 MiB batch
  // costs ~15 ms of the event loop: only when there is a receipt to key.
  const saved =
    target.clientSaveId === null
      ? null
      : {
          key: sha256Hex(`${presenterOf(target.authorization)}\u0000${target.clientSaveId}`),
          payloadHash: sha256Hex(canonicalJson({ ...request.payload, base_revision: target.baseRevision })),
        };

  let committed: CommittedWrite | undefined;
  const receipt = await driver.transaction(async (tx) => {
    committed = undefined;
    const before = await readBeforeWrite(tx, driver.forUpdate, target, saved, nodesRead);
    const { canvas } = before;
    if (!canvas) throw new CanvasError('not_found', `No canvas ${target.canvasId} in project ${target.projectId}.`);
    checkEditAuthorization(target, before.chatRun, before.openerRole);
    if (before.storedReceipt !== null)
      return { ...receiptSchema.parse(JSON.parse(before.storedReceipt)), replayed: true };

    if (canvas.locked === 1)
      throw new CanvasError('canvas_locked', `Canvas ${target.canvasId} is locked read-only; no write is allowed.`);
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

    const now = clock();
    const revision = canvas.revision + 1;
    const layout = new LayoutTx(
      tx,
      driver,
      target.projectId,
      target.canvasId,
      revision,
      canvas.next_seq,
      { nodeCount: canvas.node_count, edgeCount: canvas.edge_count, layoutBytes: canvas.layout_bytes },
      now,
      { nodeBytes: deps.caps.nodeBytes, edgeBytes: deps.caps.edgeBytes },
    );
    for (const [nodeId, row] of before.nodeRows) layout.readAhead(nodeId, row);
    const result = await apply(layout);
    checkCaps(layout, deps.caps);

    const changes = [...layout.changes.values()];
    for (const change of changes) {
      await deferRow(tx, 'canvas_changes', {
        project_id: target.projectId,
        canvas_id: target.canvasId,
        revision,
        object_kind: change.kind,
        object_id: change.id,
        change: change.change,
        body: change.body,
        has_body: 1,
      });
    }
    await deferRow(tx, 'canvas_revisions', {
      project_id: target.projectId,
      canvas_id: target.canvasId,
      revision,
      author_kind: author.kind,
      token_id: author.kind === 'agent' ? author.token_id : null,
      agent_run_id: author.kind === 'agent' ? author.agent_run_id : null,
      issuer:
        author.kind === 'person'
          ? author.issuer
          : author.kind === 'agent'
            ? (author.on_behalf_of?.issuer ?? null)
            : null,
      subject:
        author.kind === 'person'
          ? author.subject
          : author.kind === 'agent'
            ? (author.on_behalf_of?.subject ?? null)
            : null,
      operation: request.operation,
      created_at: now,
    });
    await deferWrite(
      tx,
      'UPDATE canvases SET revision = ?, next_seq = ?, node_count = ?, edge_count = ?, layout_bytes = ? WHERE project_id = ? AND id = ?',
      [
        revision,
        layout.seqAfter,
        layout.counters.nodeCount,
        layout.counters.edgeCount,
        layout.counters.layoutBytes,
        ...key,
      ],
    );
    if (layout.runStatesChanged) await bumpStatesVersion(driver, tx, target.projectId, target.canvasId);
    await emitLayoutEvent(
      driver,
      tx,
      { projectId: target.projectId, canvasId: target.canvasId, revision, author, operation: request.operation, now },
      before.hooks,
    );

    const receipt = receiptSchema.parse({
      project_id: target.projectId,
      canvas_id: target.canvasId,
      revision,
      previous_revision: canvas.revision,
      client_save_id: target.clientSaveId,
      replayed: false,
      saved_at: new Date(now).toISOString(),
      ...result,
    });
    if (saved !== null) {
      await deferWrite(
        tx,
        `INSERT INTO save_receipts (project_id, canvas_id, client_save_key, payload_hash, receipt, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [...key, saved.key, saved.payloadHash, JSON.stringify(receipt), now],
      );
    }
    await driver.notify(tx, LAYOUT_EVENTS_CHANNEL, `${revision} ${target.projectId}/${target.canvasId}`);
    committed = {
      projectId: target.projectId,
      canvasId: target.canvasId,
      revision,
      author,
      operation: request.operation,
      at: new Date(now).toISOString(),
      changes,
      runsToSignal: layout.runsToSignal,
    };
    return receipt;
  });
  if (committed) deps.committed(committed);
  return receipt;
}
