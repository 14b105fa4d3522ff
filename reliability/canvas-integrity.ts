import { z } from 'zod';
import { CanvasEdge, CanvasNode } from '../src/contract/index.js';
import { openDriver, storeOnDriver, type StoreLocation } from '../src/store/store.js';

/**
 * What must hold of a canvas whatever happened to the processes writing it: every body is a valid node or edge, edges
 * and parents point at nodes that exist, the size counters equal the rows, and the revision equals the number of
 * revisions logged (each write bumped it exactly once, none was half applied).
 */
export interface CanvasFacts {
  revision: number;
  nodeIds: Set<string>;
  problems: string[];
}

const Counters = z.object({
  node_count: z.coerce.number(),
  edge_count: z.coerce.number(),
  revisions: z.coerce.number(),
});

export async function inspectCanvas(
  location: StoreLocation,
  projectId: string,
  canvasId: string,
): Promise<CanvasFacts> {
  const driver = await openDriver(location);
  const store = storeOnDriver(driver, Date.now);
  const problems: string[] = [];
  try {
    const layout = await store.layout.loadLayout(projectId, canvasId);
    if (!layout) return { revision: -1, nodeIds: new Set(), problems: ['canvas missing'] };
    const nodeIds = new Set(layout.nodes.map((row) => row.id));
    for (const row of layout.nodes) {
      const parsed = CanvasNode.safeParse(JSON.parse(row.body));
      if (!parsed.success) problems.push(`node ${row.id} does not parse`);
      else if (parsed.data.parentId && !nodeIds.has(parsed.data.parentId))
        problems.push(`node ${row.id} names a missing parent`);
    }
    for (const row of layout.edges) {
      const edge = CanvasEdge.safeParse(JSON.parse(row.body));
      if (!edge.success) problems.push(`edge ${row.id} does not parse`);
      else if (!nodeIds.has(edge.data.source) || !nodeIds.has(edge.data.target))
        problems.push(`edge ${row.id} dangles`);
    }
    const counters = Counters.parse(
      await driver.get(
        `SELECT c.node_count, c.edge_count, (SELECT COUNT(*) FROM canvas_revisions r WHERE r.project_id = c.project_id AND r.canvas_id = c.id) AS revisions
         FROM canvases c WHERE c.project_id = ? AND c.id = ?`,
        [projectId, canvasId],
      ),
    );
    if (counters.node_count !== layout.nodes.length)
      problems.push(`node_count ${counters.node_count} but ${layout.nodes.length} nodes`);
    if (counters.edge_count !== layout.edges.length)
      problems.push(`edge_count ${counters.edge_count} but ${layout.edges.length} edges`);
    if (counters.revisions !== layout.canvas.revision)
      problems.push(`revision ${layout.canvas.revision} but ${counters.revisions} revisions logged`);
    return { revision: layout.canvas.revision, nodeIds, problems };
  } finally {
    await driver.close();
  }
}
