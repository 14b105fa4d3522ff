import { z } from 'zod';
import { CanvasNode } from '../contract/index.js';
import { CanvasRow, parseRow, parseRows, type CanvasRecord } from './records.js';
import type { ReadCache } from './read-cache.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Reads of the layout for the snapshot cache: a full load, or only what changed since a known revision. */

export interface LayoutLoad {
  canvas: CanvasRecord;
  nodes: OrderedObject[];
  edges: OrderedObject[];
}

/** A layout object as stored, with its place in creation order. */
export interface OrderedObject {
  id: string;
  body: string;
  seq: number;
}

/** A changed object: its current body and place in creation order, or null when it was deleted. */
export interface LayoutChange {
  id: string;
  body: string | null;
  seq: number | null;
}

export interface LayoutDelta {
  canvas: CanvasRecord;
  nodes: LayoutChange[];
  edges: LayoutChange[];
}

const CANVAS_COLUMNS = 'project_id, id, revision, states_version, locked';

const ChangeRow = z.object({ id: z.string(), body: z.string().nullable(), seq: z.coerce.number().int().nullable() });
const OrderedRow = z.object({ id: z.string(), body: z.string(), seq: z.coerce.number().int() });
const NodeBodyRow = z.object({ body: z.string(), seq: z.coerce.number().int() });
const NodeTypeRow = z.object({ id: z.string(), type: z.string() });

async function readCanvas(tx: SqlExecutor, projectId: string, canvasId: string): Promise<CanvasRecord | undefined> {
  const row = await tx.get(
    `SELECT ${CANVAS_COLUMNS} FROM canvases WHERE project_id = ? AND id = ? AND deleted_at IS NULL`,
    [projectId, canvasId],
  );
  return row ? parseRow(CanvasRow, row) : undefined;
}

function changesSql(kind: 'node' | 'edge'): string {
  const table = kind === 'node' ? 'canvas_nodes' : 'canvas_edges';
  // Deleted objects sort last (no seq); created ones come in creation order, so appending keeps parents first.
  return `SELECT c.object_id AS id, o.body AS body, o.seq AS seq FROM
            (SELECT DISTINCT object_id FROM canvas_changes
             WHERE project_id = ? AND canvas_id = ? AND object_kind = '${kind}' AND revision > ?) c
          LEFT JOIN ${table} o ON o.project_id = ? AND o.canvas_id = ? AND o.id = c.object_id
          ORDER BY CASE WHEN o.seq IS NULL THEN 1 ELSE 0 END, o.seq
          LIMIT ?`;
}

export function createLayoutReads(driver: SqlDriver, cachedRead: ReadCache) {
  return {
    readCanvas: (projectId: string, canvasId: string) =>
      cachedRead(`canvas\u0000${projectId}\u0000${canvasId}`, () => readCanvas(driver, projectId, canvasId)),

    /** A node with its creation sequence number (which incarnation of the id it is). */
    async readNode(
      projectId: string,
      canvasId: string,
      nodeId: string,
    ): Promise<{ node: CanvasNode; seq: number } | undefined> {
      const row = await driver.get(
        'SELECT body, seq FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id = ?',
        [projectId, canvasId, nodeId],
      );
      if (!row) return undefined;
      const { body, seq } = NodeBodyRow.parse(row);
      return { node: CanvasNode.parse(JSON.parse(body)), seq };
    },

    /** The types of those of these nodes that exist (at most a batch's worth of ids: one query). */
    async nodeTypes(projectId: string, canvasId: string, nodeIds: string[]): Promise<Record<string, string>> {
      if (nodeIds.length === 0) return {};
      const rows = await driver.all(
        `SELECT id, type FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND id IN (${nodeIds.map(() => '?').join(', ')})`,
        [projectId, canvasId, ...nodeIds],
      );
      return Object.fromEntries(parseRows(NodeTypeRow, rows).map((row) => [row.id, row.type]));
    },

    /** Every node of one type on a canvas, in creation order (boards, to find the shot a node makes pictures for). */
    async nodesOfType(projectId: string, canvasId: string, type: CanvasNode['type']): Promise<CanvasNode[]> {
      const rows = await driver.all(
        'SELECT body, seq FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? AND type = ? ORDER BY seq',
        [projectId, canvasId, type],
      );
      return rows.map((row) => CanvasNode.parse(JSON.parse(NodeBodyRow.parse(row).body)));
    },

    /** The nodes with an edge into this one, in edge creation order. */
    async edgeSources(projectId: string, canvasId: string, nodeId: string): Promise<string[]> {
      const rows = await driver.all(
        'SELECT source FROM canvas_edges WHERE project_id = ? AND canvas_id = ? AND target = ? ORDER BY seq',
        [projectId, canvasId, nodeId],
      );
      return rows.map((row) => z.object({ source: z.string() }).parse(row).source);
    },

    loadLayout(projectId: string, canvasId: string): Promise<LayoutLoad | undefined> {
      return driver.readSnapshot(async (tx) => {
        const canvas = await readCanvas(tx, projectId, canvasId);
        if (!canvas) return undefined;
        const key = [projectId, canvasId];
        const nodes = parseRows(
          OrderedRow,
          await tx.all(
            'SELECT id, body, seq FROM canvas_nodes WHERE project_id = ? AND canvas_id = ? ORDER BY seq',
            key,
          ),
        );
        const edges = parseRows(
          OrderedRow,
          await tx.all(
            'SELECT id, body, seq FROM canvas_edges WHERE project_id = ? AND canvas_id = ? ORDER BY seq',
            key,
          ),
        );
        return { canvas, nodes, edges };
      });
    },

    /** What changed after `sinceRevision`, or undefined when more than `limit` objects changed (reload instead). */
    layoutChangesSince(
      projectId: string,
      canvasId: string,
      sinceRevision: number,
      limit: number,
    ): Promise<LayoutDelta | undefined> {
      return driver.readSnapshot(async (tx) => {
        const canvas = await readCanvas(tx, projectId, canvasId);
        if (!canvas) return undefined;
        const params = [projectId, canvasId, sinceRevision, projectId, canvasId, limit + 1];
        const nodes = parseRows(ChangeRow, await tx.all(changesSql('node'), params));
        const edges = parseRows(ChangeRow, await tx.all(changesSql('edge'), params));
        if (nodes.length > limit || edges.length > limit) return undefined;
        return { canvas, nodes, edges };
      });
    },
  };
}

export type LayoutReads = ReturnType<typeof createLayoutReads>;
