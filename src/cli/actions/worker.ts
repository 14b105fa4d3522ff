import { loadServeConfig, storeLocationOf, type ConfigInput } from '../../config/index.js';
import { createLogger } from '../../shared/logger.js';
import { openStore } from '../../store/store.js';

/**
 * `canvas-mcp worker`: node run workers without an HTTP server, on the same store as `serve`. On PostgreSQL any
 * number of worker processes share the queue; on SQLite they share the file on one machine.
 */
export async function runWorkers(flags: ConfigInput): Promise<void> {
  const config = loadServeConfig({ ...flags, seedDemo: false });
  // Loaded once the settings are valid: a mistyped flag is answered without loading the engines and providers.
  const { assetsOf, exportEngineOf, runEngineOf, tightenDataDir } = await import('../../server/run-engine-setup.js');
  const logger = createLogger(config.logLevel);
  tightenDataDir(config.dataDir, logger);
  const store = await openStore(storeLocationOf(config), { logger, feedBus: config.feedBus });
  const assets = await assetsOf(config, store);
  const engine = runEngineOf(config, store, assets, logger);
  const exportEngine = exportEngineOf(config, store, assets, logger);
  await engine.start();
  await exportEngine.start();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: stopping workers\n`);
    Promise.all([engine.stop(), exportEngine.stop()])
      .then(() => assets.close())
      .then(() => store.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.stderr.write(
    `canvas-mcp worker running ${config.workers} workers on ${store.dialect} (and ${config.exportWorkers} export workers)\n`,
  );
}
