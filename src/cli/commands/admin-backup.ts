import { resolve } from 'node:path';
import type { Command } from 'commander';
import { StoreConfigSchema, mergeSources, parseConfig } from '../../config.js';
import { createBackup } from '../../ops/backup.js';
import { RestoreRefused, restoreBackup } from '../../ops/restore.js';
import { describeStoreLocation } from '../../store/store-presence.js';
import { openStore } from '../../store/store.js';
import { report, resolveStore, UsageError, withStoreOptions, type StoreFlags } from '../cli-support.js';

/** `canvas-mcp admin backup` and `admin restore` (docs/operations.md, "Backups"). */

type Flags = StoreFlags & { json?: boolean };
type Run = (json: boolean, work: () => Promise<void>) => Promise<void>;

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export function registerBackupCommands(admin: Command, run: Run): void {
  withStoreOptions(admin.command('backup'))
    .description('Write one archive (.tar.gz) with a consistent copy of the SQLite store and its asset files (on PostgreSQL: the assets, and how to dump the database)')
    .requiredOption('--out <file>', 'the archive to write (must not exist)')
    .option('--json', 'print one JSON object')
    .action((flags: Flags & { out: string }) =>
      run(!!flags.json, async () => {
        const location = await resolveStore(flags);
        const { dataDir } = parseConfig(StoreConfigSchema, mergeSources({ dataDir: flags.data, databaseUrl: flags.databaseUrl }, process.env));
        const listAssets = async () => {
          const store = await openStore(location, { migrate: false });
          try {
            return await store.directory.assetIds();
          } finally {
            await store.close();
          }
        };
        const result = await createBackup({ location, dataDir, listAssets }, flags.out);
        const { manifest } = result;
        const summary = `backup written: ${result.archive} (${result.bytes} bytes, ${manifest.dialect}, ${manifest.assets} assets)`;
        const missing = manifest.missing_assets.length > 0 ? `\n${manifest.missing_assets.length} assets listed by the database had no file: ${manifest.missing_assets.join(', ')}` : '';
        if (location.kind === 'sqlite') {
          report(flags.json, { archive: result.archive, bytes: result.bytes, manifest, database: { included: true } }, summary + missing);
          return;
        }
        const url = describeStoreLocation(location).replace(/^postgres /, '');
        const dump = resolve(`${result.archive.replace(/\.tar\.gz$|\.tgz$/, '')}.dump`);
        const dumpCommand = `pg_dump --format=custom --file=${quote(dump)} ${quote(url)}`;
        const restoreCommand = `pg_restore --no-owner --dbname=${quote(url)} ${quote(dump)}`;
        report(
          flags.json,
          { archive: result.archive, bytes: result.bytes, manifest, database: { included: false, dump_command: dumpCommand, restore_command: restoreCommand } },
          `${summary}${missing}\nThe PostgreSQL database is not in the archive. Dump it with pg_dump (add the password as usual: PGPASSWORD or ~/.pgpass);\n` +
            `dump it before taking this archive, so that every asset the dump lists is in the archive:\n  ${dumpCommand}\n` +
            `Restore it into an empty database with:\n  ${restoreCommand}`,
        );
      }),
    );

  admin
    .command('restore')
    .description('Restore an archive of admin backup into a new, empty data dir')
    .argument('<file>', 'the archive')
    .requiredOption('--data <dir>', 'the data dir to create (it must not exist, or be empty)')
    .option('--json', 'print one JSON object')
    .action((file: string, flags: { data: string; json?: boolean }) =>
      run(!!flags.json, async () => {
        const result = await restoreBackup(file, flags.data).catch((error: unknown) => {
          throw error instanceof RestoreRefused ? new UsageError(error.message) : error;
        });
        const { manifest } = result;
        const next =
          manifest.dialect === 'sqlite'
            ? `start it with: npm start -- --data ${result.dataDir}`
            : 'the database is not in the archive: restore it with pg_restore (admin backup printed the command), then start with --database-url and this --data';
        report(
          flags.json,
          { data_dir: result.dataDir, dialect: manifest.dialect, assets: manifest.assets, created_at: manifest.created_at },
          `restored ${manifest.dialect} backup of ${manifest.created_at} (${manifest.assets} assets) into ${result.dataDir}\n${next}`,
        );
      }),
    );
}
