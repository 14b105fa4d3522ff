import type { Command } from 'commander';
import { addSettingOptions, configFlagsOf, settingOptions } from '../setting-options.js';

/** `canvas-mcp worker`: its flags, one per setting; actions/worker.ts runs the workers. */

export function registerWorkerCommand(program: Command): void {
  const worker = program
    .command('worker')
    .description('Run node run workers (no HTTP server) on the same store as serve');
  const options = settingOptions('worker');
  addSettingOptions(worker, options);
  worker.action(async () => (await import('../actions/worker.js')).runWorkers(configFlagsOf(worker, options)));
}
