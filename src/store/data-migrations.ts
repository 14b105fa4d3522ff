import { z } from 'zod';
import { nodeWithinBounds } from '../canvas/node-bounds.js';
import type { SqlExecutor } from './sql-driver.js';

/**
 * Steps of a migration that SQL alone cannot do portably on both databases: they run in the migration's own
 * transaction, right after its SQL, keyed by its version.
 */

const NodePage = z.object({ project_id: z.string(), canvas_id: z.string(), id: z.string(), body: z.string() });
const PAGE = 500;

/** 006: every stored node within the position and size bounds; the canvases' byte counters follow. */
async function boundStoredNodes(tx: SqlExecutor): Promise<void> {
  let after: [string, string, string] = ['', '', ''];
  for (;;) {
    const rows = (
      await tx.all(
        `SELECT project_id, canvas_id, id, body FROM canvas_nodes
         WHERE project_id > ? OR (project_id = ? AND (canvas_id > ? OR (canvas_id = ? AND id > ?)))
         ORDER BY project_id, canvas_id, id LIMIT ${PAGE}`,
        [after[0], after[0], after[1], after[1], after[2]],
      )
    ).map((row) => NodePage.parse(row));
    for (const row of rows) {
      const bounded = nodeWithinBounds(row.body);
      if (bounded === null) continue;
      await tx.run('UPDATE canvas_nodes SET body = ? WHERE project_id = ? AND canvas_id = ? AND id = ?', [
        bounded,
        row.project_id,
        row.canvas_id,
        row.id,
      ]);
      await tx.run('UPDATE canvases SET layout_bytes = layout_bytes + ? WHERE project_id = ? AND id = ?', [
        Buffer.byteLength(bounded) - Buffer.byteLength(row.body),
        row.project_id,
        row.canvas_id,
      ]);
    }
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = [last.project_id, last.canvas_id, last.id];
  }
}

export const DATA_MIGRATIONS: Readonly<Record<number, (tx: SqlExecutor) => Promise<void>>> = {
  6: boundStoredNodes,
};
