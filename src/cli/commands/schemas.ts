import type { Command } from 'commander';
import { publishedToolSchemas } from '../../contract/index.js';

export function registerSchemasCommand(program: Command): void {
  program
    .command('schemas')
    .description('Print the JSON Schemas of the six published tools as one JSON object')
    .action(() => {
      process.stdout.write(`${JSON.stringify({ tools: publishedToolSchemas() }, null, 2)}\n`);
    });
}
