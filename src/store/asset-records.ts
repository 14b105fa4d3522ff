import { z } from 'zod';
import { AssetKind as AssetKindSchema, type AssetKind } from '../contract/index.js';
import type { Person } from '../contract/person.js';
import { ASSET_STORAGES, type AssetStorage } from './records.js';
import { insertRow } from './row-statements.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/**
 * Asset records: one row per asset a run made (or a copy of a run took over), naming the run, its kind and size, and
 * where its bytes are kept; or per file a person or agent uploaded, naming who and under which file name.
 * The bytes themselves live in an asset store (src/assets/).
 */

/** What an asset is: a run's output kinds, and a document (an uploaded PDF). */
export const StoredAssetKind = z.union([AssetKindSchema, z.literal('document')]);
export type StoredAssetKind = AssetKind | 'document';

export interface AssetRecord {
  id: string;
  /** The same id, as an asset store reads it (AssetLocation). */
  assetId: string;
  projectId: string;
  canvasId: string;
  /** The run that made it; null for an upload. */
  runId: string | null;
  kind: StoredAssetKind;
  mimeType: string;
  byteSize: number;
  /** Where the bytes are (src/assets/asset-store.ts), and under which key (null: a local file named after the id). */
  storage: AssetStorage;
  storageKey: string | null;
  /** The name it was uploaded or exported under (a download is saved under it), when it has one. */
  fileName?: string | null;
}

const AssetRow = z
  .object({
    id: z.string(),
    project_id: z.string(),
    canvas_id: z.string(),
    run_id: z.string().nullable(),
    kind: StoredAssetKind,
    mime_type: z.string(),
    byte_size: z.coerce.number(),
    storage: z.enum(ASSET_STORAGES),
    storage_key: z.string().nullable(),
    file_name: z.string().nullable().optional(),
  })
  .transform((row) => ({
    id: row.id,
    assetId: row.id,
    storage: row.storage,
    storageKey: row.storage_key,
    projectId: row.project_id,
    canvasId: row.canvas_id,
    runId: row.run_id,
    kind: row.kind,
    mimeType: row.mime_type,
    byteSize: row.byte_size,
    fileName: row.file_name ?? null,
  }));

/** The columns every asset's row has: a run's output names its run, an upload none. */
function assetColumns(asset: Omit<AssetRecord, 'assetId' | 'runId'>, runId: string | null, createdAt: number) {
  return {
    id: asset.id,
    project_id: asset.projectId,
    canvas_id: asset.canvasId,
    run_id: runId,
    kind: asset.kind,
    mime_type: asset.mimeType,
    byte_size: asset.byteSize,
    created_at: createdAt,
    storage: asset.storage,
    storage_key: asset.storageKey,
  };
}

/** Records an asset inside the caller's transaction (a run that succeeded, a run copied to another canvas). */
export async function insertAssetRecord(
  tx: SqlExecutor,
  asset: Omit<AssetRecord, 'assetId' | 'runId'> & { runId: string },
  createdAt: number,
): Promise<void> {
  await insertRow(tx, 'assets', assetColumns(asset, asset.runId, createdAt));
}

/** Who uploaded a file and under which name, for an upload's record. */
export interface UploadOrigin {
  uploadedBy: Person | { tokenId: string };
  fileName: string;
}

/** Records uploaded assets (a file and its thumbnail, say) in one transaction: all of them or none. */
export async function insertUploadRecords(
  tx: SqlExecutor,
  assets: ReadonlyArray<Omit<AssetRecord, 'assetId' | 'runId'> & { origin: UploadOrigin }>,
  createdAt: number,
): Promise<void> {
  for (const asset of assets) {
    await insertRow(tx, 'assets', {
      ...assetColumns(asset, null, createdAt),
      uploaded_by: JSON.stringify(asset.origin.uploadedBy),
      file_name: asset.origin.fileName,
    });
  }
}

/** What a project keeps: the bytes of all its assets (run outputs, uploads, thumbnails, exports). */
async function projectBytesIn(executor: SqlExecutor, projectId: string): Promise<number> {
  const row = await executor.get('SELECT COALESCE(SUM(byte_size), 0) AS used FROM assets WHERE project_id = ?', [
    projectId,
  ]);
  return z.object({ used: z.coerce.number() }).parse(row).used;
}

/**
 * Records a picture made from another asset (its thumbnail): same project and canvas as its source, no run.
 * Its id is derived from the source's, so two servers making it at once write the same row: the second is a no-op.
 */
export async function insertDerivedAssetRecord(
  executor: SqlExecutor,
  asset: Omit<AssetRecord, 'assetId' | 'runId' | 'fileName'> & { derivedFrom: string },
  createdAt: number,
): Promise<void> {
  await executor.run(
    `INSERT INTO assets (id, project_id, canvas_id, run_id, kind, mime_type, byte_size, created_at, storage, storage_key, uploaded_by)
       VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    [
      asset.id,
      asset.projectId,
      asset.canvasId,
      asset.kind,
      asset.mimeType,
      asset.byteSize,
      createdAt,
      asset.storage,
      asset.storageKey,
      JSON.stringify({ thumbnail_of: asset.derivedFrom }),
    ],
  );
}

export function createAssetRecords(driver: SqlDriver) {
  return {
    async getAsset(assetId: string): Promise<AssetRecord | undefined> {
      const row = await driver.get(
        'SELECT id, project_id, canvas_id, run_id, kind, mime_type, byte_size, storage, storage_key, file_name FROM assets WHERE id = ?',
        [assetId],
      );
      return row ? AssetRow.parse(row) : undefined;
    },

    /** The bytes a project keeps, summed over its assets. */
    projectBytes(projectId: string): Promise<number> {
      return projectBytesIn(driver, projectId);
    },

    /**
     * Records a request's uploads (all of one project) only while the project stays within its quota with them;
     * otherwise records nothing and answers what the project already keeps. The sum is read in the inserting
     * transaction, under the project row's lock on PostgreSQL (SQLite's writer is one at a time), so two uploads
     * cannot both pass on the room only one of them has.
     */
    async insertUploadsWithin(
      quota: { projectId: string; quotaBytes: number },
      assets: Parameters<typeof insertUploadRecords>[1],
      createdAt: number,
    ): Promise<{ kept: true } | { kept: false; usedBytes: number }> {
      const adding = assets.reduce((sum, asset) => sum + asset.byteSize, 0);
      return driver.transaction(async (tx) => {
        await tx.get(`SELECT id FROM projects WHERE id = ?${driver.forUpdate}`, [quota.projectId]);
        const usedBytes = await projectBytesIn(tx, quota.projectId);
        if (usedBytes + adding > quota.quotaBytes) return { kept: false, usedBytes };
        await insertUploadRecords(tx, assets, createdAt);
        return { kept: true };
      });
    },

    /** Every asset, in id order (backup, admin assets migrate). */
    async listAssets(): Promise<AssetRecord[]> {
      const rows = await driver.all(
        'SELECT id, project_id, canvas_id, run_id, kind, mime_type, byte_size, storage, storage_key FROM assets ORDER BY id',
      );
      return rows.map((row) => AssetRow.parse(row));
    },

    /**
     * Points an asset's row at a new copy of its bytes (admin assets migrate, admin restore), only if the row still
     * names the copy that was read: false when something else moved it meanwhile.
     */
    async relocateAsset(
      assetId: string,
      from: { storage: AssetStorage; storageKey: string | null },
      to: { storage: AssetStorage; storageKey: string | null },
    ): Promise<boolean> {
      const result = await driver.run(
        'UPDATE assets SET storage = ?, storage_key = ? WHERE id = ? AND storage = ? AND storage_key IS NOT DISTINCT FROM ?',
        [to.storage, to.storageKey, assetId, from.storage, from.storageKey],
      );
      return result.changes === 1;
    },

    /** Which of these asset ids have a row (an asset store's sweep keeps their bytes), in one query per 500. */
    async knownAssetIds(assetIds: readonly string[]): Promise<ReadonlySet<string>> {
      const known = new Set<string>();
      for (let start = 0; start < assetIds.length; start += 500) {
        const batch = assetIds.slice(start, start + 500);
        const rows = await driver.all(`SELECT id FROM assets WHERE id IN (${batch.map(() => '?').join(', ')})`, batch);
        for (const row of rows) known.add(z.object({ id: z.string() }).parse(row).id);
      }
      return known;
    },
  };
}

export type AssetRecords = ReturnType<typeof createAssetRecords>;
