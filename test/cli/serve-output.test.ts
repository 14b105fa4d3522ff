import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../support/cli.js';
import { waitFor } from '../support/wait.js';

/** `serve`'s stdout carries JSON log lines only; the first-start banner is on stderr, with the token once. */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('serve output', () => {
  it('writes only JSON lines to stdout and the banner to stderr, showing the token once and the sign-in link', async () => {
    const data = mkdtempSync(join(tmpdir(), 'canvas-mcp-output-'));
    dirs.push(data);
    const child = spawn(process.execPath, [CLI_ENTRY, 'serve', '--data', data, '--port', '0'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor(
        async () => stderr,
        (text) => text.includes('Cursor (~/.cursor/mcp.json') || child.exitCode !== null,
        30_000,
      );
      const [, token] = /token \(shown once, keep it\):\s+(cmcp_\S+)/.exec(stderr) ?? [];
      expect(token).toBeDefined();
      expect(stderr.split(token!).length - 1).toBe(1);
      expect(stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(stderr).toMatch(/http:\/\/127\.0\.0\.1:\d+\/auth\/login\?token=\S+/);
      expect(stderr).toContain('claude mcp add --transport http');
      expect(stdout).not.toContain(token!);

      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(stderr).toContain('SIGTERM: shutting down');
      const lines = stdout.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('canvas-mcp listening');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
