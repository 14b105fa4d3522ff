import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { loadAssetConfig, type AssetConfig } from '../../config/index.js';
import type { MoveProgress } from '../../ops/asset-moves.js';
import { ASSET_STORAGES, type AssetStorage } from '../../store/records.js';
import { openStore } from '../../store/store.js';
import { assetFlagsOf } from '../asset-options.js';
import { report, resolveStore } from '../cli-support.js';
import { UsageError } from '../failure.js';
import type { StoreFlags } from '../store-options.js';

/** `canvas-mcp admin assets migrate` (docs/operations.md, "Asset storage"), and the asset settings of admin commands. */

export type MigrateFlags = StoreFlags & { to: string; keepSource?: boolean; json?: boolean };

/** The asset settings of a command made with withAssetOptions: its flags, then the environment and settings file. */
export function assetConfigOf(
  command: Command,
  flags: StoreFlags,
  overrides: { assetStore?: AssetStorage } = {},
): AssetConfig {
  return loadAssetConfig({
    ...assetFlagsOf(command),
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

export async function migrateAssets(command: Command, flags: MigrateFlags): Promise<void> {
  if (!(ASSET_STORAGES as readonly string[]).includes(flags.to)) {
    throw new UsageError(`--to must be one of ${ASSET_STORAGES.join(', ')}, got ${JSON.stringify(flags.to)}.`);
  }
  const config = assetConfigOf(command, flags, { assetStore: flags.to as AssetStorage });
  const store = await openStore(await resolveStore(flags));
  const { assetsOf } = await import('../../server/run-engine-setup.js');
  const { moveAssets } = await import('../../ops/asset-moves.js');
  const stores = await assetsOf(config, store);
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
}
