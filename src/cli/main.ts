#!/usr/bin/env node
import { Command } from 'commander';
import { reportFailure } from './cli-support.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerOpenApiCommand } from './commands/openapi.js';
import { registerSchemasCommand } from './commands/schemas.js';
import { registerServeCommand } from './commands/serve.js';
import { registerWorkerCommand } from './commands/worker.js';
import { PACKAGE_VERSION } from '../shared/version.js';

// A reader that stops early (`canvas-mcp openapi | head`) closes the pipe: that ends the output, it is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = new Command()
  .name('canvas-mcp')
  .description('Canvas Tool Interface: MCP tool server and canvas backend')
  .version(PACKAGE_VERSION, '-V, --version', 'print the version')
  .showHelpAfterError();

async function run(json: boolean, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    process.exitCode = reportFailure(error, json);
  }
}

registerSchemasCommand(program);
registerOpenApiCommand(program);
registerServeCommand(program);
registerWorkerCommand(program);
registerAdminCommands(program, run);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportFailure(error, false);
}
