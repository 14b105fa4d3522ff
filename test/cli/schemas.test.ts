import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { publishedToolSchemas } from '../../src/contract/index.js';

/** `canvas-mcp schemas` (the published JSON Schema of the six tools, test/contract/tools.test.ts) from the CLI. */
describe('canvas-mcp schemas', () => {
  it('`canvas-mcp schemas` prints one JSON object with the six tools', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'schemas'], {
      encoding: 'utf8',
    });
    const printed = JSON.parse(output) as {
      tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }>;
    };
    expect(Object.keys(printed)).toEqual(['tools']);
    expect(printed.tools).toEqual(JSON.parse(JSON.stringify(publishedToolSchemas())));
  });
});
