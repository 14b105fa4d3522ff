import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { loadAssetConfig, type AssetConfig } from '../../config/index.js';
import { ASSET_STORAGES, type AssetStorage } from '../../store/records.js';
import type { MoveProgress } from '../../ops/asset-moves.js';
import { openStore } from '../../store/store.js';
import { report, resolveStore, UsageError, withStoreOptions, type StoreFlags } from '../cli-support.js';
import { addSettingOptions, configFlagsOf, settingOptions, type SettingOption } from '../setting-options.js';

/** `canvas-mcp admin assets migrate` (docs/operations.md, "Asset storage"), and the asset flags admin commands share. */

const optionsOf = new WeakMap<Command, SettingOption[]>();

/**
 * Adds the S3 settings (credentials come from the environment, as for serve) and, for a command that writes assets
 * somewhere (`target`), `--asset-store`.
 */
export function withAssetOptions(command: Command, { target }: { target: boolean }): Command {
  const s3 = settingOptions('assets');
  const options = target ? [...settingOptions('serve').filter(({ key }) => key === 'assetStore'), ...s3] : s3;
  addSettingOptions(command, options);
  optionsOf.set(command, options);
  return command;
}

export function assetConfigOf(
  command: Command,
  flags: StoreFlags,
  overrides: { assetStore?: AssetStorage } = {},
): AssetConfig {
  return loadAssetConfig({
    ...configFlagsOf(command, optionsOf.get(command) ?? []),
    ...(flags.data !== undefined ? { dataDir: flags.data } : {}),
    ...(flags.databaseUrl !== undefined ? { databaseUrl: flags.databaseUrl } : {}),
    ...overrides,
  });
}

function progressBar(json: boolean): { update(progress: MoveProgress): void; stop(): void } {
  if (json || !process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: 'moving assets [{bar}] {value}/{total} {megabytes} MB', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update({ done, total, bytes }) {
      if (!started) bar.start(total, 0, { megabytes: '0.0' });
      started = true;
      bar.update(done, { megabytes: (bytes / 1e6).toFixed(1) });
    },
    stop: () => bar.stop(),
  };
}

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
  migrate.action((flags: StoreFlags & { to: string; keepSource?: boolean; json?: boolean }) =>
    run(!!flags.json, async () => {
      if (!(ASSET_STORAGES as readonly string[]).includes(flags.to)) {
        throw new UsageError(`--to must be one of ${ASSET_STORAGES.join(', ')}, got ${JSON.stringify(flags.to)}.`);
      }
      const config = assetConfigOf(migrate, flags, { assetStore: flags.to as AssetStorage });
      const store = await openStore(await resolveStore(flags));
      const { assetsOf } = await import('../../server/run-engine-setup.js');
      const { moveAssets } = await import('../../ops/asset-moves.js');
      const stores = assetsOf(config, store);
      const bar = progressBar(!!flags.json);
      const moved = await moveAssets(store, stores, {
        keepSource: !!flags.keepSource,
        onProgress: (progress) => bar.update(progress),
      }).finally(async () => {
        bar.stop();
        await stores.close();
        await store.close();
      });
      const verified = moved.sourceChecksum === moved.destinationChecksum;
      const failures = moved.failures.map((failure) => `\n  ${failure.assetId}: ${failure.reason}`).join('');
      report(
        flags.json,
        {
          to: moved.to,
          total: moved.total,
          moved: moved.moved,
          already_there: moved.alreadyThere,
          bytes: moved.bytes,
          source_checksum: moved.sourceChecksum,
          destination_checksum: moved.destinationChecksum,
          verified,
          failures: moved.failures.map((failure) => ({ asset_id: failure.assetId, reason: failure.reason })),
        },
        `moved ${moved.moved} of ${moved.total} assets (${moved.bytes} bytes) to ${moved.to}; ${moved.alreadyThere} were already there\n` +
          `sha256 of the moved assets: ${moved.sourceChecksum} (source), ${moved.destinationChecksum} (read back from ${moved.to})` +
          (moved.failures.length > 0 ? `\n${moved.failures.length} not moved (left where they were):${failures}` : ''),
      );
      if (moved.failures.length > 0 || !verified) process.exitCode = 1;
    }),
  );
}
