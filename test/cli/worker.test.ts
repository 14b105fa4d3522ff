import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../support/cli.js';

/** `canvas-mcp worker` keeps the data dir private like `serve` (serve's check is in serve.test.ts). */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

async function runWorkerOnce(data: string): Promise<string> {
  const worker = cliProcess(['worker', '--data', data, '--workers', '1', '--log-level', 'warn']);
  await worker.waitFor(/worker running/);
  worker.child.kill('SIGTERM');
  expect(await worker.exit).toBe(0);
  return worker.output();
}

describe('worker', () => {
  it('creates its data dir private and tightens an open one at start, with a log line', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'canvas-mcp-worker-'));
    dirs.push(parent);

    const fresh = join(parent, 'fresh');
    const freshOutput = await runWorkerOnce(fresh);
    expect(freshOutput).not.toContain('permissions tightened');
    expect(modeOf(fresh)).toBe('700');
    for (const file of readdirSync(fresh).filter((name) => name.startsWith('canvas.db')))
      expect([file, modeOf(join(fresh, file))]).toEqual([file, '600']);

    // A store made by another command, then opened to every local user by hand.
    const open = join(parent, 'open');
    expect((await cli(['admin', 'workspace', 'create', 'w', '--data', open, '--create'])).code).toBe(0);
    mkdirSync(join(open, 'assets'), { recursive: true });
    writeFileSync(join(open, 'assets', 'asset_AAAAAAAAAAAAAAAA'), 'x', { mode: 0o644 });
    chmodSync(join(open, 'assets', 'asset_AAAAAAAAAAAAAAAA'), 0o644);
    chmodSync(join(open, 'canvas.db'), 0o644);
    chmodSync(join(open, 'assets'), 0o755);
    chmodSync(open, 0o755);

    const output = await runWorkerOnce(open);
    const tightened = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; data_dir?: string; paths?: number })
      .find((line) => line.msg?.includes('permissions tightened'));
    expect(tightened).toMatchObject({ data_dir: open, paths: 4 });
    expect(
      [open, join(open, 'assets'), join(open, 'assets', 'asset_AAAAAAAAAAAAAAAA'), join(open, 'canvas.db')].map(modeOf),
    ).toEqual(['700', '700', '600', '600']);
  }, 60_000);
});
