#!/usr/bin/env node
import { Command } from 'commander';
import { reportFailure } from './cli-support.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerSchemasCommand } from './commands/schemas.js';
import { registerServeCommand } from './commands/serve.js';
import { registerWorkerCommand } from './commands/worker.js';

const program = new Command()
  .name('canvas-mcp')
  .description('Canvas Tool Interface: MCP tool server and canvas backend')
  .showHelpAfterError();

async function run(json: boolean, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    process.exitCode = reportFailure(error, json);
  }
}

registerSchemasCommand(program);
registerServeCommand(program);
registerWorkerCommand(program);
registerAdminCommands(program, run);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportFailure(error, false);
}
