import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './processes.js';

/**
 * How long the README's first command takes to serve (`npm start` to `/readyz` 200 on a built clone, target under 2 s).
 * Each sample spawns `npm start` in its own process group, watches its output for the "listening on" line, then polls
 * `/readyz` every 5 ms until it answers 200; the figure is from the spawn to that answer. Setups: a first start (an
 * empty data dir: the store is created, migrated and the demo seeded) and a later start on that store, each also
 * without npm (`node dist/cli/main.js serve`). The baseline, measured in the same run, is
 * `npm run -s cli -- --version`: npm, Node and the CLI's modules loaded, nothing served. BENCH_STARTUP_SAMPLES sets the
 * samples (default 5).
 */

const SAMPLES = Number(process.env.BENCH_STARTUP_SAMPLES ?? 5);
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

interface Setup {
  name: string;
  command: string[];
  /** A fresh data dir for every sample (a first start), or one kept across samples. */
  freshStore: boolean;
  serves: boolean;
}

async function sample(setup: Setup, dataDir: string): Promise<number> {
  const started = performance.now();
  const [file, ...args] = setup.command;
  const storeArgs = setup.serves ? ['--data', dataDir, '--port', '0', '--log-level', 'warn'] : [];
  const child = spawn(file!, [...args, ...storeArgs], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!setup.serves) {
    const code = await exited;
    if (code !== 0) throw new Error(`${setup.command.join(' ')} exited ${code}`);
    return performance.now() - started;
  }
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const watch = (chunk: Buffer) => {
        output += chunk.toString();
        const match = LISTENING.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout!.on('data', watch);
      child.stderr!.on('data', watch);
      void exited.then((code) => reject(new Error(`${setup.name}: exited ${code} before listening:\n${output}`)));
    });
    for (;;) {
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return performance.now() - started;
      if (performance.now() - started > 60_000) throw new Error(`${setup.name}: /readyz not 200 within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    // The whole group, as a terminal's Ctrl-C would: npm does not forward SIGTERM to its child.
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-startup-bench-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const setups: Setup[] = [
    {
      name: 'baseline: npm run -s cli -- --version',
      command: [npm, 'run', '-s', 'cli', '--', '--version'],
      freshStore: false,
      serves: false,
    },
    { name: 'npm start, first start (empty data dir)', command: [npm, 'start', '--'], freshStore: true, serves: true },
    { name: 'npm start, existing store', command: [npm, 'start', '--'], freshStore: false, serves: true },
    {
      name: 'node dist/cli/main.js serve, first start',
      command: [process.execPath, 'dist/cli/main.js', 'serve'],
      freshStore: true,
      serves: true,
    },
    {
      name: 'node dist/cli/main.js serve, existing store',
      command: [process.execPath, 'dist/cli/main.js', 'serve'],
      freshStore: false,
      serves: true,
    },
  ];
  const rows: Array<{ setup: Setup; samples: number[] }> = [];
  try {
    // The store the "existing store" setups start on: created (and the demo seeded) by one start, not measured.
    const kept = join(work, 'kept');
    await sample(setups[3]!, kept);
    for (const setup of setups) {
      process.stdout.write(`startup: ${setup.name}…\n`);
      const samples: number[] = [];
      for (let index = 0; index < SAMPLES; index += 1) {
        const dataDir = setup.freshStore ? join(work, `fresh-${rows.length}-${index}`) : kept;
        samples.push(await sample(setup, dataDir));
      }
      rows.push({ setup, samples });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const baseline = median(rows[0]!.samples);
  const lines = rows.map(({ setup, samples }) => {
    const figures = [median(samples), Math.min(...samples), Math.max(...samples)].map((value) => value.toFixed(0));
    return `| ${setup.name} | ${figures.join(' | ')} | ${(median(samples) / baseline).toFixed(2)}× |`;
  });
  process.stdout.write(
    `\nstart → /readyz 200 (${SAMPLES} samples each, node ${process.version}):\n` +
      '| setup | median ms | min ms | max ms | median ÷ baseline |\n|---|---:|---:|---:|---:|\n' +
      `${lines.join('\n')}\n`,
  );
}

await main();
