import type { Command } from 'commander';
import { ASSET_STORAGES } from '../../store/records.js';
import type { MigrateFlags } from '../actions/admin-assets.js';
import { withAssetOptions } from '../asset-options.js';
import { withStoreOptions } from '../store-options.js';

/** `canvas-mcp admin assets migrate` (docs/operations.md, "Asset storage"): its flags; actions/ holds what it does. */

export function registerAssetCommands(
  admin: Command,
  run: (json: boolean, work: () => Promise<void>) => Promise<void>,
): void {
  const assets = admin.command('assets').description('Run outputs: where their bytes are kept');
  const migrate = withAssetOptions(
    withStoreOptions(assets.command('migrate'))
      .description(
        'Move every asset into one store, each copy verified (size and SHA-256) before its record points at it',
      )
      .requiredOption('--to <store>', `the store to move them into: ${ASSET_STORAGES.join(', ')}`)
      .option('--keep-source', 'keep the old copies (default: removed once the new one is verified and recorded)')
      .option('--json', 'print one JSON object'),
    { target: false },
  );
  migrate.action((flags: MigrateFlags) =>
    run(!!flags.json, async () => (await import('../actions/admin-assets.js')).migrateAssets(migrate, flags)),
  );
}
