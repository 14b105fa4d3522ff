import { z } from 'zod';
import { insertRow } from './row-statements.js';
import type { SqlDriver } from './sql-driver.js';

/** Share links of canvases (migrations/027_exports_and_share_links.sql): only the secret's hash. */

const ShareRow = z.object({
  id: z.string(),
  project_id: z.string(),
  canvas_id: z.string(),
  node_id: z.string().nullable(),
  downloads: z.string(),
  review: z.enum(['none', 'read', 'comment']),
  created_by: z.string(),
  created_at: z.coerce.number(),
  expires_at: z.coerce.number(),
  revoked_at: z.coerce.number().nullable(),
});

export interface StoredShareLink {
  id: string;
  projectId: string;
  canvasId: string;
  nodeId: string | null;
  downloads: string[];
  review: 'none' | 'read' | 'comment';
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

const COLUMNS = 'id, project_id, canvas_id, node_id, downloads, review, created_by, created_at, expires_at, revoked_at';

function parse(row: unknown): StoredShareLink {
  const r = ShareRow.parse(row);
  return {
    id: r.id,
    projectId: r.project_id,
    canvasId: r.canvas_id,
    nodeId: r.node_id,
    downloads: z.array(z.string()).parse(JSON.parse(r.downloads)),
    review: r.review,
    createdBy: r.created_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}

export function createShareLinkStore(driver: SqlDriver, clock: () => number) {
  return {
    async create(
      link: Omit<StoredShareLink, 'createdAt' | 'revokedAt'> & { secretHash: string },
    ): Promise<StoredShareLink> {
      const createdAt = clock();
      await insertRow(driver, 'share_links', {
        id: link.id,
        secret_hash: link.secretHash,
        project_id: link.projectId,
        canvas_id: link.canvasId,
        node_id: link.nodeId,
        downloads: JSON.stringify(link.downloads),
        review: link.review,
        created_by: link.createdBy,
        created_at: createdAt,
        expires_at: link.expiresAt,
      });
      return { ...link, createdAt, revokedAt: null };
    },

    /** The link a secret's hash names, whatever its state (the caller tells expired and revoked apart). */
    async bySecretHash(secretHash: string): Promise<StoredShareLink | undefined> {
      const row = await driver.get(`SELECT ${COLUMNS} FROM share_links WHERE secret_hash = ?`, [secretHash]);
      return row ? parse(row) : undefined;
    },

    async byId(id: string): Promise<StoredShareLink | undefined> {
      const row = await driver.get(`SELECT ${COLUMNS} FROM share_links WHERE id = ?`, [id]);
      return row ? parse(row) : undefined;
    },

    async list(projectId: string, canvasId: string): Promise<StoredShareLink[]> {
      const rows = await driver.all(
        `SELECT ${COLUMNS} FROM share_links WHERE project_id = ? AND canvas_id = ? ORDER BY created_at DESC, id DESC LIMIT 100`,
        [projectId, canvasId],
      );
      return rows.map(parse);
    },

    /** Ends a link at once; false when there is no such link on the canvas. */
    async revoke(projectId: string, canvasId: string, id: string): Promise<boolean> {
      const changed = await driver.run(
        'UPDATE share_links SET revoked_at = COALESCE(revoked_at, ?) WHERE project_id = ? AND canvas_id = ? AND id = ?',
        [clock(), projectId, canvasId, id],
      );
      return changed.changes > 0;
    },
  };
}

export type ShareLinkStore = ReturnType<typeof createShareLinkStore>;
