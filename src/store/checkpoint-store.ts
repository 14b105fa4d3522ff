import { z } from 'zod';
import type { SqlDriver } from './sql-driver.js';

/** Checkpoints of canvases (migrations/026_checkpoints.sql). */

const CheckpointRow = z.object({
  id: z.string(),
  name: z.string(),
  revision: z.coerce.number(),
  kind: z.enum(['named', 'auto']),
  created_by: z.string(),
  created_at: z.coerce.number(),
});

export interface StoredCheckpoint {
  id: string;
  name: string;
  revision: number;
  kind: 'named' | 'auto';
  /** Who made it, in words. */
  createdBy: string;
  createdAt: number;
}

const parse = (row: unknown): StoredCheckpoint => {
  const parsed = CheckpointRow.parse(row);
  return {
    id: parsed.id,
    name: parsed.name,
    revision: parsed.revision,
    kind: parsed.kind,
    createdBy: parsed.created_by,
    createdAt: parsed.created_at,
  };
};

export function createCheckpointStore(driver: SqlDriver, clock: () => number) {
  return {
    async create(
      projectId: string,
      canvasId: string,
      checkpoint: Omit<StoredCheckpoint, 'createdAt'>,
    ): Promise<StoredCheckpoint> {
      const createdAt = clock();
      await driver.run(
        'INSERT INTO canvas_checkpoints (project_id, canvas_id, id, name, revision, kind, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          projectId,
          canvasId,
          checkpoint.id,
          checkpoint.name,
          checkpoint.revision,
          checkpoint.kind,
          checkpoint.createdBy,
          createdAt,
        ],
      );
      return { ...checkpoint, createdAt };
    },
    /** The newest first, at most `limit`. */
    async list(projectId: string, canvasId: string, limit = 100): Promise<StoredCheckpoint[]> {
      const rows = await driver.all(
        'SELECT id, name, revision, kind, created_by, created_at FROM canvas_checkpoints WHERE project_id = ? AND canvas_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
        [projectId, canvasId, limit],
      );
      return rows.map(parse);
    },
    /** How many nodes and edges a chat run changed on a canvas after a revision (an assistant's turn's work). */
    async changedByChatRun(projectId: string, canvasId: string, agentRunId: string, after: number): Promise<number> {
      const row = await driver.get(
        `SELECT COUNT(DISTINCT c.object_kind || ':' || c.object_id) AS changed
         FROM canvas_changes c JOIN canvas_revisions r
           ON r.project_id = c.project_id AND r.canvas_id = c.canvas_id AND r.revision = c.revision
         WHERE c.project_id = ? AND c.canvas_id = ? AND r.agent_run_id = ? AND c.revision > ?`,
        [projectId, canvasId, agentRunId, after],
      );
      return z.object({ changed: z.coerce.number() }).parse(row).changed;
    },
  };
}

export type CheckpointStore = ReturnType<typeof createCheckpointStore>;
