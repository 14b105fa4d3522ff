import type { Command } from 'commander';
import { loadServeConfig, storeLocationOf } from '../../config/index.js';
import { createLogger } from '../../shared/logger.js';
import { addSettingOptions, configFlagsOf, settingOptions } from '../setting-options.js';

/**
 * `canvas-mcp worker`: node run workers without an HTTP server, on the same store as `serve`. On PostgreSQL any
 * number of worker processes share the queue; on SQLite they share the file on one machine.
 */
export function registerWorkerCommand(program: Command): void {
  const worker = program
    .command('worker')
    .description('Run node run workers (no HTTP server) on the same store as serve');
  const options = settingOptions('worker');
  addSettingOptions(worker, options);
  worker.action(async () => {
    const config = loadServeConfig({ ...configFlagsOf(worker, options), seedDemo: false });
    const { assetsOf, exportEngineOf, runEngineOf, tightenDataDir } = await import('../../server/run-engine-setup.js');
    const { openStore } = await import('../../store/store.js');
    const logger = createLogger(config.logLevel);
    tightenDataDir(config.dataDir, logger);
    const store = await openStore(storeLocationOf(config), { logger, feedBus: config.feedBus });
    const assets = assetsOf(config, store);
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
  });
}
