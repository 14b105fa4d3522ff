#!/usr/bin/env node
import { Command } from 'commander';
import { registerSchemasCommand } from './commands/schemas.js';

const program = new Command()
  .name('canvas-mcp')
  .description('Canvas Tool Interface: MCP tool server and canvas backend')
  .showHelpAfterError();

registerSchemasCommand(program);

await program.parseAsync(process.argv);
