import type { Command } from 'commander';
import type { BackupFlags, RestoreFlags } from '../actions/admin-backup.js';
import { withAssetOptions } from '../asset-options.js';
import { withStoreOptions } from '../store-options.js';

/** `canvas-mcp admin backup` and `admin restore` (docs/operations.md, "Backups"): their flags; actions/ runs them. */

type Run = (json: boolean, work: () => Promise<void>) => Promise<void>;

const actions = () => import('../actions/admin-backup.js');

export function registerBackupCommands(admin: Command, run: Run): void {
  const backup = withAssetOptions(withStoreOptions(admin.command('backup')), { target: false })
    .description(
      'Write one archive (.tar.gz) with a consistent copy of the SQLite store and the bytes of its assets, wherever they are kept (on PostgreSQL: the assets, and how to dump the database)',
    )
    .requiredOption('--out <file>', 'the archive to write (must not exist)')
    .option('--json', 'print one JSON object');
  backup.action((flags: BackupFlags) => run(!!flags.json, async () => (await actions()).backup(backup, flags)));

  const restore = withAssetOptions(
    admin
      .command('restore')
      .description(
        'Restore an archive of admin backup into a new, empty data dir; every asset the database lists is made readable',
      )
      .argument('<file>', 'the archive')
      .requiredOption('--data <dir>', 'the data dir to create (it must not exist, or be empty)')
      .option(
        '--database-url <url>',
        'PostgreSQL: the database the dump was restored into with pg_restore (restore it first)',
      )
      .option('--json', 'print one JSON object'),
    { target: true },
  );
  restore.action((file: string, flags: RestoreFlags) =>
    run(!!flags.json, async () => (await actions()).restore(restore, file, flags)),
  );
}
