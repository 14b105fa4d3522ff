import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { describeStoreLocation } from '../../store/store-presence.js';
import { openStore, sqliteFileIn } from '../../store/store.js';
import { report, resolveStore } from '../cli-support.js';
import { UsageError } from '../failure.js';
import type { StoreFlags } from '../store-options.js';
import { assetConfigOf } from './admin-assets.js';

/** `canvas-mcp admin backup` and `admin restore` (docs/operations.md, "Backups"). */

export type BackupFlags = StoreFlags & { out: string; json?: boolean };
export type RestoreFlags = { data: string; databaseUrl?: string; json?: boolean };

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export async function backup(command: Command, flags: BackupFlags): Promise<void> {
  const location = await resolveStore(flags);
  const config = assetConfigOf(command, flags);
  // Loaded once the store is found and the flags read: a refusal comes without loading the object store's SDK and the
  // run engine's providers.
  const { s3StoreOf } = await import('../../assets/s3-store.js');
  const { createBackup } = await import('../../ops/backup.js');
  const { assetsOf } = await import('../../server/run-engine-setup.js');
  const s3 = s3StoreOf(config);
  const store = location.kind === 'postgres' ? await openStore(location, { migrate: false }) : null;
  const assets = store ? await assetsOf(config, store) : null;
  const result = await createBackup(
    {
      location,
      dataDir: config.dataDir,
      listAssets: async () => (store ? store.assets.listAssets() : []),
      readerOf: (storage) => (storage === 's3' ? s3 : (assets?.reader(storage) ?? null)),
    },
    flags.out,
  ).finally(async () => {
    await s3?.close();
    await assets?.close();
    await store?.close();
  });
  const { manifest } = result;
  const summary = `backup written: ${result.archive} (${result.bytes} bytes, ${manifest.dialect}, ${manifest.assets} assets)`;
  const missing =
    manifest.missing_assets.length > 0
      ? `\n${manifest.missing_assets.length} assets listed by the database had no file: ${manifest.missing_assets.join(', ')}`
      : '';
  if (location.kind === 'sqlite') {
    report(
      flags.json,
      { archive: result.archive, bytes: result.bytes, manifest, database: { included: true } },
      summary + missing,
    );
    return;
  }
  const url = describeStoreLocation(location).replace(/^postgres /, '');
  const dump = resolve(`${result.archive.replace(/\.tar\.gz$|\.tgz$/, '')}.dump`);
  const dumpCommand = `pg_dump --format=custom --file=${quote(dump)} ${quote(url)}`;
  const restoreCommand = `pg_restore --no-owner --dbname=${quote(url)} ${quote(dump)}`;
  report(
    flags.json,
    {
      archive: result.archive,
      bytes: result.bytes,
      manifest,
      database: { included: false, dump_command: dumpCommand, restore_command: restoreCommand },
    },
    `${summary}${missing}\nThe PostgreSQL database is not in the archive. Dump it with pg_dump (add the password as usual: PGPASSWORD or ~/.pgpass);\n` +
      `dump it before taking this archive, so that every asset the dump lists is in the archive:\n  ${dumpCommand}\n` +
      `Restore it into an empty database with:\n  ${restoreCommand}`,
  );
}

export async function restore(command: Command, file: string, flags: RestoreFlags): Promise<void> {
  const config = assetConfigOf(command, flags);
  const { RestoreRefused, restoreBackup } = await import('../../ops/restore.js');
  const { settleRestoredAssets } = await import('../../ops/asset-moves.js');
  const { assetsOf } = await import('../../server/run-engine-setup.js');
  const result = await restoreBackup(file, flags.data).catch((error: unknown) => {
    throw error instanceof RestoreRefused ? new UsageError(error.message) : error;
  });
  const { manifest } = result;
  const restored = {
    data_dir: result.dataDir,
    dialect: manifest.dialect,
    assets: manifest.assets,
    created_at: manifest.created_at,
  };
  if (manifest.dialect === 'postgres' && !flags.databaseUrl) {
    report(
      flags.json,
      { ...restored, settled: false },
      `restored the asset files of a postgres backup of ${manifest.created_at} (${manifest.assets} assets) into ${result.dataDir}\n` +
        'the database is not in the archive: restore it with pg_restore (admin backup printed the command) into an empty database, then run this again into a new --data with --database-url, so every asset the database lists is made readable',
    );
    return;
  }
  const location =
    manifest.dialect === 'sqlite'
      ? { kind: 'sqlite' as const, file: sqliteFileIn(result.dataDir) }
      : await resolveStore({ databaseUrl: flags.databaseUrl });
  const store = await openStore(location);
  const assets = await assetsOf({ ...config, dataDir: result.dataDir }, store);
  const settled = await settleRestoredAssets(store, assets, join(result.dataDir, 'assets')).finally(async () => {
    await assets.close();
    await store.close();
  });
  const start =
    manifest.dialect === 'sqlite'
      ? `npm start -- --data ${result.dataDir}`
      : `npm start -- --database-url <url> --data ${result.dataDir}`;
  const missing =
    settled.missing.length > 0
      ? `\n${settled.missing.length} assets are in neither the archive nor their store: ${settled.missing.join(', ')}`
      : '';
  report(
    flags.json,
    {
      ...restored,
      settled: true,
      asset_store: config.assetStore,
      assets_in_place: settled.inPlace,
      assets_from_archive: settled.fromArchive,
      missing_assets: settled.missing,
    },
    `restored ${manifest.dialect} backup of ${manifest.created_at} (${manifest.assets} assets) into ${result.dataDir}\n` +
      `assets: ${settled.inPlace} readable where they were, ${settled.fromArchive} restored from the archive into ${config.assetStore} storage${missing}\n` +
      `start it with: ${start}${config.assetStore === 'local' ? '' : ` --asset-store ${config.assetStore}`}`,
  );
}
