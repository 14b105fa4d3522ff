import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of the test's own, on its own port, started with the installed server binaries: a test may
 * restart or kill it without touching the shared server at 5432.
 */

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
    .sort((left, right) => Number(right) - Number(left));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export const POSTGRES_BINARIES = binDir();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ThrowawayPostgres {
  url: string;
  port: number;
  /** pg_ctl stop with this mode (fast: sessions are terminated; immediate: no shutdown at all). */
  stop(mode: 'fast' | 'immediate'): void;
  start(): void;
  restart(mode: 'fast' | 'immediate'): void;
  destroy(): void;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = POSTGRES_BINARIES;
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  const root = mkdtempSync(join(tmpdir(), 'canvas-mcp-pg-'));
  const data = join(root, 'data');
  // initdb refuses to run as root: the cluster belongs to the postgres user then.
  const asRoot = userInfo().uid === 0;
  if (asRoot)
    chownSync(
      root,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const run = (program: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(bin, program);
    const fullArgs = asRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args;
    const result = spawnSync(command, fullArgs, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'log'), '-w', '-t', '30', 'start']);
  const stop = (mode: 'fast' | 'immediate') => run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    restart(mode) {
      stop(mode);
      start();
    },
    destroy() {
      try {
        stop('immediate');
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
