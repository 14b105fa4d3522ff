#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { CommandLineError, reportFailure } from './failure.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerDoctorCommand } from './commands/doctor.js';
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

const json = process.argv.includes('--json');
const program = new Command()
  .name('canvas-mcp')
  .description('Canvas Tool Interface: MCP tool server and canvas backend')
  .version(PACKAGE_VERSION, '-V, --version', 'print the version')
  // With --json a command line that does not parse is one JSON object too (reported below), not commander's text.
  .showHelpAfterError(!json)
  .configureOutput(json ? { outputError: () => undefined } : {})
  .exitOverride();

async function run(json: boolean, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    process.exitCode = reportFailure(error, json);
  }
}

// Each command's arguments, flags and help are here up front (help lists them all); what a command does is imported
// when it runs (actions/), so a command line loads only the modules of the one command it runs.
registerSchemasCommand(program);
registerOpenApiCommand(program);
registerServeCommand(program);
registerWorkerCommand(program);
registerAdminCommands(program, run);
registerDoctorCommand(program, run);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and --version end here too, with exit code 0 and nothing to report.
    if (error.exitCode !== 0)
      process.exitCode = json ? reportFailure(new CommandLineError(error.message.replace(/^error: /, ''), 2), true) : 2;
    else process.exitCode = 0;
  } else {
    process.exitCode = reportFailure(error, json);
  }
}
