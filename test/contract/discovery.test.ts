import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registryProblems } from '../../scripts/check-registry.js';

/**
 * Discovery, the registry entry: server.json matches the MCP Registry's schema and the package (the Server Card a
 * running server serves: test/mcp/server-card.test.ts).
 */

const serverJson = JSON.parse(readFileSync('server.json', 'utf8')) as Record<string, unknown>;

describe('the registry entry', () => {
  it('server.json matches the registry schema, and names the package, its version and its secrets', () => {
    expect(registryProblems()).toEqual([]);
  });

  it('says what disagrees: another version, a name that is not mcpName, a secret left unmarked', () => {
    const packages = serverJson.packages as Array<Record<string, unknown>>;
    const unmarked = {
      ...serverJson,
      version: '9.9.9',
      name: 'io.github.someone/else',
      packages: [
        {
          ...packages[0],
          environmentVariables: (packages[0]!.environmentVariables as Array<Record<string, unknown>>).map(
            (variable, index) => (index === 0 ? { ...variable, isSecret: false } : variable),
          ),
        },
      ],
    };
    const problems = registryProblems(unmarked).join('\n');
    expect(problems).toContain("server.json version 9.9.9 is not the package's");
    expect(problems).toContain("is not package.json's mcpName io.github.canvas-mcp/canvas-mcp");
    expect(problems).toContain('must be marked isSecret');
    expect(registryProblems({ ...serverJson, description: 'x'.repeat(101) }).join('\n')).toContain(
      'server.json/description: must NOT have more than 100 characters',
    );
  });
});
