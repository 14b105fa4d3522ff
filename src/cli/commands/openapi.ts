import type { Command } from 'commander';

export function registerOpenApiCommand(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the backend REST API (what /api/openapi.json serves)')
    .action(async () => {
      const { buildApiDocument } = await import('../../http/openapi/api-document.js');
      process.stdout.write(`${JSON.stringify(buildApiDocument(), null, 2)}\n`);
    });
}
