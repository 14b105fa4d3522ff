import type { Command } from 'commander';

export function registerSchemasCommand(program: Command): void {
  program
    .command('schemas')
    .description('Print the JSON Schemas of the six published tools as one JSON object')
    .action(async () => {
      const { publishedToolSchemas } = await import('../../contract/index.js');
      process.stdout.write(`${JSON.stringify({ tools: publishedToolSchemas() }, null, 2)}\n`);
    });
}
