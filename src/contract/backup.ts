import { z } from 'zod';

/** manifest.json of a backup archive (`admin backup`), read back by `admin restore` (docs/operations.md, "Backups"). */

export const BACKUP_FORMAT = 'canvas-mcp-backup';
export const BACKUP_FORMAT_VERSION = 1;

export const BackupManifest = z.looseObject({
  format: z.literal(BACKUP_FORMAT),
  format_version: z.literal(BACKUP_FORMAT_VERSION),
  created_at: z.string(),
  package_version: z.string(),
  dialect: z
    .enum(['sqlite', 'postgres'])
    .meta({ description: 'sqlite: canvas.db is in the archive; postgres: the database is dumped apart (pg_dump).' }),
  schema_version: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'The last migration applied to the database copied (null for PostgreSQL).' }),
  assets: z.int().min(0).meta({ description: 'Asset files in the archive.' }),
  asset_bytes: z.int().min(0),
  missing_assets: z
    .array(z.string())
    .meta({ description: 'Assets the database lists whose file was not in the data dir.' }),
});
export type BackupManifest = z.infer<typeof BackupManifest>;
