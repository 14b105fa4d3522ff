import type { Command } from 'commander';
import { addSettingOptions, configFlagsOf, settingOptions } from '../setting-options.js';

/** `canvas-mcp serve`: its flags, one per setting; actions/serve.ts starts the server. */

export function registerServeCommand(program: Command): void {
  const serve = program.command('serve').description('Serve the canvas backend and the MCP tool server');
  const options = settingOptions('serve');
  addSettingOptions(serve, options);
  serve.action(async () => (await import('../actions/serve.js')).serve(configFlagsOf(serve, options)));
}
