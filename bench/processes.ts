import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';

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
