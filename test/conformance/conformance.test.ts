import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13, the last to run on Node 20), run the
 * way CI and people run it: `npm run conformance` (scripts/conformance.ts) starts a server, gives the suite a token
 * through a loopback proxy, and runs every scenario that applies (the others are listed, with why, in
 * scripts/conformance-expected-failures.yml).
 */
const SCRIPT = fileURLToPath(new URL('../../scripts/conformance.ts', import.meta.url));

function conformance(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', SCRIPT, ...args],
      { timeout: 120_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('npm run conformance', () => {
  it('passes every applicable scenario of the active suite, DNS rebinding protection included', async () => {
    const { code, output } = await conformance([]);
    expect(output).toContain('Baseline check passed');
    for (const scenario of [
      'server-initialize: 1 passed, 0 failed',
      'ping: 1 passed, 0 failed',
      'tools-list: 1 passed, 0 failed',
      'dns-rebinding-protection: 2 passed, 0 failed',
    ]) {
      expect(output).toContain(`✓ ${scenario}`);
    }
    expect(code).toBe(0);
  }, 120_000);

  it('runs the scenarios named with --scenario, on the node given in CONFORMANCE_NODE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-conformance-node-'));
    const wrapper = join(dir, 'node-wrapper.sh');
    writeFileSync(wrapper, `#!/bin/sh\necho "suite on wrapped node" >&2\nexec "${process.execPath}" "$@"\n`, {
      mode: 0o755,
    });
    const { code, output } = await conformance(['--scenario', 'tools-list', '--scenario', 'ping'], {
      CONFORMANCE_NODE: wrapper,
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(output).toContain(`conformance: ${wrapper} `);
    expect(output.match(/suite on wrapped node/g)).toHaveLength(2);
    expect(output.match(/Passed: 1\/1, 0 failed/g)).toHaveLength(2);
    expect(output).not.toContain('server-initialize');
    expect(code).toBe(0);
  }, 120_000);
});
