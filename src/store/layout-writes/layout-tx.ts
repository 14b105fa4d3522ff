import { z } from 'zod';
import type { CanvasEdge } from '../../contract/index.js';
import { CanvasNode, LIMITS } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { yieldToIo } from '../../shared/event-loop.js';
import { RUN_COLUMNS, parseRunRow, type RunRow } from '../run-rows.js';
import { requestRunCancel } from '../run-cancel.js';
import { deferWrite, insertNew, readAll } from '../pipeline.js';
import type { SqlDriver, SqlExecutor, SqlRow } from '../sql-driver.js';

/**
 * The layout of one canvas inside one write transaction: reads see the transaction's own changes, every change is
 * recorded once per object (a create then an update in one batch is one create), and the canvas's size counters
 * follow along so the documented caps are checked without counting rows.
 */

export type ObjectKind = 'node' | 'edge';
export type ObjectChange = 'create' | 'update' | 'delete';

/** One object changed by a revision, with the body it left (null when deleted). */
export interface ChangeRecord {
  kind: ObjectKind;
  id: string;
  change: ObjectChange;
  body: string | null;
}

export interface StoredNode {
  node: CanvasNode;
  seq: number;
  bytes: number;
}

export interface CanvasCounters {
  nodeCount: number;
  edgeCount: number;
  layoutBytes: number;
}

const NodeRow = z.object({ body: z.string(), seq: z.coerce.number().int() });
/** A node's stored row: its body and creation order. */
export const NODE_ROW_QUERY = 'SELECT body, seq FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?';
const EdgeRow = z.object({ id: z.string(), body: z.string() });
const IdRow = z.object({ id: z.string() });
const EdgeBodyRow = z.object({ body: z.string() });

function mergedChange(previous: ObjectChange | undefined, next: ObjectChange): ObjectChange {
  if (previous === undefined) return next;
  if (previous === 'create') return next === 'delete' ? 'delete' : 'create';
  if (previous === 'delete') return next === 'create' ? 'update' : next;
  return next === 'delete' ? 'delete' : 'update';
}

export function byteLength(json: string): number {
  return Buffer.byteLength(json, 'utf8');
}

/** How long a write runs before it gives the event loop a turn (LayoutTx.breathe). */
const WRITE_SLICE_MS = 20;

export class LayoutTx {
  readonly changes = new Map<string, ChangeRecord>();
  /** Runs whose cancellation this write requested and whose worker must hear it. */
  readonly runsToSignal: string[] = [];
  private statesChanged = false;
  /** How the operation being applied names its refusals (a batch's index); a queued insert keeps the one of its time. */
  refusalOf: ((error: CanvasError) => CanvasError) | null = null;
  private ranSince = performance.now();
  /**
   * Node rows read with the canvas row before the write began (src/store/layout-writes/write-frame.ts): each answers
   * the first read of its node, and all are dropped once the write changes anything.
   */
  private readonly readAheadRows = new Map<string, SqlRow | undefined>();

  constructor(
    readonly tx: SqlExecutor,
    private readonly driver: SqlDriver,
    readonly projectId: string,
    readonly canvasId: string,
    readonly revision: number,
    private nextSeq: number,
    readonly counters: CanvasCounters,
    private readonly now: number,
    private readonly objectCaps: { nodeBytes: number; edgeBytes: number } = {
      nodeBytes: LIMITS.nodeBytes,
      edgeBytes: LIMITS.edgeBytes,
    },
  ) {}

  get seqAfter(): number {
    return this.nextSeq;
  }

  get runStatesChanged(): boolean {
    return this.statesChanged;
  }

  private get scope(): [string, string] {
    return [this.projectId, this.canvasId];
  }

  private record(kind: ObjectKind, id: string, change: ObjectChange, body: string | null): void {
    this.readAheadRows.clear();
    const key = `${kind}\u0000${id}`;
    const previous = this.changes.get(key);
    this.changes.delete(key);
    this.changes.set(key, { kind, id, change: mergedChange(previous?.change, change), body });
  }

  /**
   * Gives the event loop a turn once this write has run for a slice since the last one, so that a large write (a
   * 1 MiB batch, a 512 KiB node read and rewritten) never holds it past the 100 ms budget: on SQLite nothing in a
   * write waits for I/O. The transaction stays open meanwhile: other writers wait, readers carry on.
   */
  async breathe(): Promise<void> {
    if (performance.now() - this.ranSince < WRITE_SLICE_MS) return;
    await yieldToIo();
    this.ranSince = performance.now();
  }

  /** A node row read before the write began (absent: the node did not exist then). */
  readAhead(id: string, row: SqlRow | undefined): void {
    this.readAheadRows.set(id, row);
  }

  async node(id: string): Promise<StoredNode | undefined> {
    let row: SqlRow | undefined;
    if (this.readAheadRows.has(id)) {
      row = this.readAheadRows.get(id);
      this.readAheadRows.delete(id);
    } else {
      row = await this.tx.get(NODE_ROW_QUERY, [...this.scope, id]);
    }
    if (!row) return undefined;
    const { body, seq } = NodeRow.parse(row);
    const stored = { node: CanvasNode.parse(JSON.parse(body)), seq, bytes: byteLength(body) };
    await this.breathe();
    return stored;
  }

  async edgeExists(id: string): Promise<boolean> {
    return !!(await this.tx.get(
      'SELECT 1 AS present FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND id = ?',
      [...this.scope, id],
    ));
  }

  /**
   * What deleting a node touches, read together (one round trip on PostgreSQL): the edges to or from it, its children,
   * and the active runs of this incarnation of it (locked, as cancelActiveRuns reads them).
   */
  async surroundings(
    nodeId: string,
    nodeSeq: number,
  ): Promise<{ edges: Array<{ id: string; body: string }>; childIds: string[]; runs: RunRow[] }> {
    const [edges, children, runs] = await readAll(this.tx, [
      {
        sql: 'SELECT id, body FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND (source = ? OR target = ?) ORDER BY seq',
        params: [...this.scope, nodeId, nodeId],
      },
      {
        sql: 'SELECT id FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND parent_id = ? ORDER BY seq',
        params: [...this.scope, nodeId],
      },
      { sql: this.activeRunsQuery, params: [...this.scope, nodeId, nodeSeq] },
    ]);
    return {
      edges: edges!.map((row) => EdgeRow.parse(row)),
      childIds: children!.map((row) => IdRow.parse(row).id),
      runs: runs!.map(parseRunRow),
    };
  }

  async childIds(nodeId: string): Promise<string[]> {
    const rows = await this.tx.all(
      'SELECT id FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND parent_id = ? ORDER BY seq',
      [...this.scope, nodeId],
    );
    return rows.map((row) => IdRow.parse(row).id);
  }

  async allNodeIds(): Promise<string[]> {
    const rows = await this.tx.all(
      'SELECT id FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? ORDER BY seq',
      this.scope,
    );
    return rows.map((row) => IdRow.parse(row).id);
  }

  /** The ids of the canvas's floor plans (a shot's lens change reaches the cameras linked to it). */
  async planNodeIds(): Promise<string[]> {
    const rows = await this.tx.all(
      "SELECT id FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND type = 'floorPlanNode' ORDER BY seq",
      this.scope,
    );
    return rows.map((row) => IdRow.parse(row).id);
  }

  async allEdges(): Promise<Array<{ id: string; body: string }>> {
    const rows = await this.tx.all(
      'SELECT id, body FROM canvas_edges WHERE project_id = ? AND canvas_id = ? ORDER BY seq',
      this.scope,
    );
    return rows.map((row) => EdgeRow.parse(row));
  }

  /** Inserts a node whose id is new here; `path` names the field for a refusal. */
  async insertNode(node: CanvasNode, path: string): Promise<void> {
    const body = JSON.stringify(node);
    checkObjectSize(body, this.objectCaps.nodeBytes, path);
    const [projectId, canvasId] = this.scope;
    const refusal = this.refusalOf ?? ((error: CanvasError) => error);
    await insertNew(
      this.tx,
      'canvas_nodes',
      {
        project_id: projectId,
        canvas_id: canvasId,
        id: node.id,
        seq: this.nextSeq,
        type: node.type,
        parent_id: node.parentId ?? null,
        body,
        created_revision: this.revision,
        updated_revision: this.revision,
      },
      ['project_id', 'canvas_id', 'id'],
      () =>
        refusal(
          new CanvasError(
            'already_exists',
            `A node with id ${JSON.stringify(node.id)} already exists on this canvas; choose a new id.`,
            { node_id: node.id, path },
          ),
        ),
    );
    this.nextSeq += 1;
    this.counters.nodeCount += 1;
    this.counters.layoutBytes += byteLength(body);
    this.record('node', node.id, 'create', body);
  }

  async replaceNode(previous: StoredNode, node: CanvasNode, path: string): Promise<void> {
    const body = JSON.stringify(node);
    checkObjectSize(body, this.objectCaps.nodeBytes, path);
    await deferWrite(
      this.tx,
      'UPDATE canvas_nodes SET body = ?, parent_id = ?, updated_revision = ? WHERE project_id = ? AND canvas_id = ? AND id = ?',
      [body, node.parentId ?? null, this.revision, ...this.scope, node.id],
    );
    this.counters.layoutBytes += byteLength(body) - previous.bytes;
    this.record('node', node.id, 'update', body);
  }

  /**
   * Keeps a parent before its children in creation order (React Flow draws `layout.nodes` in order and needs a parent
   * first): a node whose parent was created after it moves, with its subtree, to the end.
   */
  async keepAfterParent(nodeId: string): Promise<void> {
    const stored = await this.node(nodeId);
    if (!stored?.node.parentId) return;
    const parent = await this.node(stored.node.parentId);
    if (!parent || parent.seq < stored.seq) return;
    await this.moveToEnd(nodeId);
  }

  private async moveToEnd(nodeId: string): Promise<void> {
    this.readAheadRows.clear();
    await deferWrite(this.tx, 'UPDATE canvas_nodes SET seq = ? WHERE project_id = ? AND canvas_id = ? AND id = ?', [
      this.nextSeq,
      ...this.scope,
      nodeId,
    ]);
    this.nextSeq += 1;
    const existing = this.changes.get(`node\u0000${nodeId}`);
    if (!existing) {
      const stored = (await this.node(nodeId))!;
      this.record('node', nodeId, 'update', JSON.stringify(stored.node));
    }
    for (const childId of await this.childIds(nodeId)) await this.moveToEnd(childId);
  }

  async removeNode(stored: StoredNode): Promise<void> {
    await deferWrite(this.tx, 'DELETE FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?', [
      ...this.scope,
      stored.node.id,
    ]);
    this.counters.nodeCount -= 1;
    this.counters.layoutBytes -= stored.bytes;
    this.record('node', stored.node.id, 'delete', null);
  }

  async insertEdge(edge: CanvasEdge, path: string): Promise<void> {
    const body = JSON.stringify(edge);
    checkObjectSize(body, this.objectCaps.edgeBytes, path);
    const [projectId, canvasId] = this.scope;
    const refusal = this.refusalOf ?? ((error: CanvasError) => error);
    await insertNew(
      this.tx,
      'canvas_edges',
      {
        project_id: projectId,
        canvas_id: canvasId,
        id: edge.id,
        seq: this.nextSeq,
        source: edge.source,
        target: edge.target,
        body,
        created_revision: this.revision,
      },
      ['project_id', 'canvas_id', 'id'],
      () =>
        refusal(
          new CanvasError(
            'already_exists',
            `An edge with id ${JSON.stringify(edge.id)} already exists on this canvas.`,
            {
              edge_id: edge.id,
              path,
            },
          ),
        ),
    );
    this.nextSeq += 1;
    this.counters.edgeCount += 1;
    this.counters.layoutBytes += byteLength(body);
    this.record('edge', edge.id, 'create', body);
  }

  /** Deletes an edge; false when there is none with this id. */
  async removeEdge(id: string): Promise<boolean> {
    const row = await this.tx.get('SELECT body FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND id = ?', [
      ...this.scope,
      id,
    ]);
    if (!row) return false;
    await this.removeReadEdge({ id, body: EdgeBodyRow.parse(row).body });
    return true;
  }

  /** Deletes an edge this write has just read. */
  async removeReadEdge(edge: { id: string; body: string }): Promise<void> {
    await deferWrite(this.tx, 'DELETE FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND id = ?', [
      ...this.scope,
      edge.id,
    ]);
    this.counters.edgeCount -= 1;
    this.counters.layoutBytes -= byteLength(edge.body);
    this.record('edge', edge.id, 'delete', null);
  }

  /**
   * Requests cancellation of the active runs of one node incarnation (its creation seq): a node that is deleted
   * stops spending (docs/runs.md). Returns the ids of the runs whose cancellation was requested.
   */
  async cancelActiveRuns(nodeId: string, nodeSeq: number): Promise<string[]> {
    const rows = (await this.tx.all(this.activeRunsQuery, [...this.scope, nodeId, nodeSeq])).map(parseRunRow);
    return this.cancelRuns(rows);
  }

  /** The active runs of one node incarnation, locked until the write ends. */
  private get activeRunsQuery(): string {
    return `SELECT ${RUN_COLUMNS} FROM node_runs
         WHERE project_id = ? AND canvas_id = ? AND node_id = ? AND node_seq = ? AND status IN ('queued', 'running', 'cancel_requested')
         ORDER BY seq${this.driver.forUpdate}`;
  }

  /** Requests cancellation of runs read (locked) by this write; returns their ids. */
  async cancelRuns(rows: RunRow[]): Promise<string[]> {
    const cancelled: string[] = [];
    for (const row of rows) {
      const outcome = await requestRunCancel(this.driver, this.tx, row, this.now);
      if (outcome.changed) this.statesChanged = true;
      if (outcome.signalWorker) this.runsToSignal.push(row.id);
      cancelled.push(row.id);
    }
    return cancelled;
  }
}

function checkObjectSize(body: string, limit: number, path: string): void {
  const bytes = byteLength(body);
  if (bytes <= limit) return;
  const message = `is ${bytes} bytes serialized; at most ${limit} bytes are allowed`;
  throw new CanvasError('invalid_arguments', `Invalid arguments: ${path}: ${message}`, { issues: [{ path, message }] });
}
