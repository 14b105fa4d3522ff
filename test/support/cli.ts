import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs the built canvas-mcp CLI (dist/cli/main.js, rebuilt by the tests' global setup when a source is newer), as a
 * separate process, the way a user or a script would: plain node, no transpiler on each start.
 */
export const CLI_ENTRY = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | undefined;
}

export function cli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_ENTRY, ...args],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 60_000, cwd },
      (error, stdout, stderr) => {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(stdout) as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  /** Resolves with the first match of the pattern in stdout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exit: Promise<number | null>;
}

export function serveProcess(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): ServeProcess {
  return cliProcess(['serve', ...args], env, cwd);
}

/** Any long-running canvas-mcp command (serve, worker) as a child process whose output can be awaited. */
export function cliProcess(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): ServeProcess {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    cwd,
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => stdout,
    exit,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const match = stdout.match(pattern);
          if (match) {
            clearInterval(poll);
            resolve(match);
          } else if (Date.now() - started > timeoutMs || child.exitCode !== null) {
            clearInterval(poll);
            reject(new Error(`no ${pattern} in output:\n${stdout}`));
          }
        }, 50);
      });
    },
  };
}
