import { resolve } from 'node:path';
import type { AssetConfig, ServeConfig } from '../config/index.js';
import { createAssets, type Assets } from '../assets/assets.js';
import { createRunEngine, type RunEngine, type RunEngineOptions } from '../runs/engine.js';
import { createExportEngine, type ExportEngine } from '../exports/export-engine.js';
import { createProviderRegistry } from '../runs/providers/registry.js';
import type { Logger } from '../shared/logger.js';
import { ensurePrivateDir, tightenPrivateTree } from '../shared/private-files.js';
import type { Store } from '../store/store.js';
import { createContentCredentials, type ContentCredentials } from '../provenance/content-credentials.js';

/**
 * The data dir is private (docs/security.md): created 0700, and an existing one opened to other users is tightened
 * at start, with one log line.
 */
export function tightenDataDir(dataDir: string, logger: Logger): void {
  const root = resolve(dataDir);
  ensurePrivateDir(root);
  const changed = tightenPrivateTree(root);
  if (changed.length > 0) {
    logger.warn(
      { data_dir: root, paths: changed.length },
      'the data dir was readable by other users: permissions tightened to 0700/0600',
    );
  }
}

/**
 * The asset stores as configured (`--asset-store`, and the S3 settings when given). The object store's SDK is loaded
 * only when a bucket is configured: it takes a quarter of a second to load.
 */
export async function assetsOf(config: AssetConfig, store: Store): Promise<Assets> {
  const s3 = config.s3Bucket ? (await import('../assets/s3-store.js')).s3StoreOf(config) : null;
  return createAssets({ dataDir: resolve(config.dataDir), store, storage: config.assetStore, s3 });
}

const credentialsByStore = new WeakMap<Store, ContentCredentials>();

/**
 * The content credentials this process signs run outputs and exports with (docs/provenance.md): one per store, shared
 * by the run and export workers; the key is loaded at the first file signed.
 */
export function credentialsOf(config: ServeConfig, store: Store, assets: Assets, logger: Logger): ContentCredentials {
  let credentials = credentialsByStore.get(store);
  if (!credentials) {
    credentials = createContentCredentials({
      store,
      inputFile: (assetId) => assets.inputFile(assetId),
      keyFile: config.c2paKeyFile,
      certFile: config.c2paCertFile,
      signMaxBytes: config.c2paSignMaxBytes,
      logger: logger.child({ component: 'content-credentials' }),
    });
    credentialsByStore.set(store, credentials);
  }
  return credentials;
}

/** The run engine as configured: `serve` runs it in-process, `worker` runs only it. */
export function runEngineOf(
  config: ServeConfig,
  store: Store,
  assets: Assets,
  logger: Logger,
  onRunFinished?: RunEngineOptions['onRunFinished'],
): RunEngine {
  return createRunEngine({
    store,
    assets,
    logger,
    onRunFinished,
    credentials: credentialsOf(config, store, assets, logger),
    workers: config.workers,
    leaseMs: config.runLeaseMs,
    timeoutMs: config.runTimeoutMs,
    providers: createProviderRegistry({
      imageProvider: config.imageProvider,
      speechProvider: config.speechProvider,
      videoProvider: config.videoProvider,
      storyboardProvider: config.storyboardProvider,
      pollIntervalMs: config.providerPollMs,
      referenceInputs: config.referenceInputs,
      replicate: config.replicateApiToken
        ? {
            apiToken: config.replicateApiToken,
            baseUrl: config.replicateBaseUrl,
            models: {
              image_generation: config.replicateImageModel,
              video_generation: config.replicateVideoModel,
              storyboard_generation: config.replicateStoryboardModel,
            },
          }
        : undefined,
      fal: config.falKey
        ? {
            apiKey: config.falKey,
            queueUrl: config.falQueueUrl,
            models: {
              image_generation: config.falImageModel,
              video_generation: config.falVideoModel,
              storyboard_generation: config.falStoryboardModel,
            },
          }
        : undefined,
      localDurationMs: config.runDurationMs,
      localExecutionLog: config.localExecutionLog,
      openai: config.openaiApiKey
        ? {
            baseUrl: config.openaiBaseUrl,
            apiKey: config.openaiApiKey,
            model: config.openaiModel,
            speechModel: config.openaiSpeechModel,
            speechVoice: config.openaiSpeechVoice,
          }
        : undefined,
    }),
  });
}

/** The export workers as configured (`--export-workers`): `serve` runs them in-process, `worker` runs only them and runs. */
export function exportEngineOf(config: ServeConfig, store: Store, assets: Assets, logger: Logger): ExportEngine {
  return createExportEngine({
    store,
    assets,
    logger: logger.child({ component: 'exports' }),
    workers: config.exportWorkers,
    credentials: credentialsOf(config, store, assets, logger),
    leaseMs: config.runLeaseMs,
    // An export of the longest board allowed must have time to encode, whatever the runs' own timeout.
    timeoutMs: Math.max(config.runTimeoutMs, 20 * 60_000, config.exportMaxMinutes * 60_000),
  });
}
