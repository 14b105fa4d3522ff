import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('..', import.meta.url).pathname;

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * Starts a node process with its output in logFile and waits until the log matches `ready` (by default the server's
 * "listening on" line); returns the first capture group as url ('' when the pattern has none).
 */
export async function startProcess(
  args: string[],
  logFile: string,
  options: { env?: NodeJS.ProcessEnv; ready?: RegExp } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    env: { ...process.env, ...options.env },
  });
  const ready = options.ready ?? LISTENING;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const match = ready.exec(readFileSync(logFile, 'utf8'));
    if (match) return { child, url: match[1] ?? '' };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start:\n${readFileSync(logFile, 'utf8')}`);
}

/**
 * A built `serve` on a PostgreSQL database, the way the scale benches run it: its own data dir (made here) under
 * `work`, a free port, no demo, no run workers, no rate limit unless `rateLimit` sets one; `extra` adds flags
 * (`--feed-bus`), `nodeFlags` Node's.
 */
export async function startPostgresServe(options: {
  databaseUrl: string;
  work: string;
  name: string;
  extra?: string[];
  nodeFlags?: string[];
  rateLimit?: number;
}): Promise<{ child: ChildProcess; url: string }> {
  const dataDir = join(options.work, options.name);
  mkdirSync(dataDir);
  return startProcess(
    [
      ...(options.nodeFlags ?? []),
      'dist/cli/main.js',
      'serve',
      '--database-url',
      options.databaseUrl,
      '--data',
      dataDir,
      '--port',
      '0',
      '--rate-limit',
      String(options.rateLimit ?? 0),
      '--no-seed-demo',
      '--workers',
      '0',
      ...(options.extra ?? []),
    ],
    join(options.work, `${options.name}.log`),
  );
}
