import type { Command } from 'commander';
import { buildApiDocument } from '../../http/openapi/api-document.js';

export function registerOpenApiCommand(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document of the backend REST API (what /api/openapi.json serves)')
    .action(() => {
      process.stdout.write(`${JSON.stringify(buildApiDocument(), null, 2)}\n`);
    });
}
