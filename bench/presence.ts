import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { cpuMillis } from './process-stats.js';
import { ROOT, startProcess } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';

/**
 * `npm run bench` (part): presence. 20 people on one canvas, each signed in with a session and holding the canvas's
 * change feed open, as their pages do. One at a time each moves their cursor (POST …/presence); the figure is the time
 * from that request leaving to the `presence` event carrying the new cursor arriving at each of the 19 others, and the
 * server's CPU per update. Target: p99 under 100 ms.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const PEOPLE = 20;
const ROUNDS = Number(process.env.BENCH_PRESENCE_ROUNDS ?? 10);
const IDP = 'https://idp.bench';

interface Person {
  subject: string;
  cookie: string;
  /** When each cursor x of each other person was first seen. */
  seen: Map<string, number>;
  close(): void;
}

const arrivals = arrivalWaiter();

async function signIn(url: string, secret: string): Promise<string> {
  const response = await fetch(`${url}/auth/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: secret }),
  });
  return response.headers.get('set-cookie')!.split(';', 1)[0]!;
}

async function follow(url: string, subject: string, cookie: string): Promise<Person> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/v2/projects/demo/canvases/main/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const seen = new Map<string, number>();
  void readEvents(response, (block, now) => {
    if (!block.startsWith('event: presence')) return;
    const data = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as {
      entries: Array<{ name: string; cursor: { x: number } | null }>;
    };
    for (const entry of data.entries) {
      const key = `${entry.name}@${entry.cursor?.x}`;
      if (!seen.has(key)) seen.set(key, now);
    }
    arrivals.wake();
  });
  return { subject, cookie, seen, close: () => controller.abort() };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface PresenceFigures {
  people: number;
  updates: number;
  p50: number;
  p99: number;
  max: number;
  cpuPerUpdateMs: number;
}

export async function measurePresence(): Promise<PresenceFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-presence-'));
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0'],
    join(dataDir, 'serve.log'),
  );
  try {
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
    const links: Array<[string, string]> = [];
    for (let index = 0; index < PEOPLE; index += 1) {
      const person = { issuer: IDP, subject: `person-${index}` };
      await store.projects.addMember('demo', person, 'editor');
      links.push([person.subject, await store.sessions.createLoginLink(person, { expiresInMs: 600_000 })]);
    }
    await store.close();
    const people = await Promise.all(
      links.map(async ([subject, secret]) => follow(url, subject, await signIn(url, secret))),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    const samples: number[] = [];
    const cpuBefore = cpuMillis(child.pid!);
    let updates = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const mover of people) {
        const x = round * 1000 + updates;
        const key = `${mover.subject}@${x}`;
        const sent = performance.now();
        await fetch(`${url}/api/v2/projects/demo/canvases/main/presence`, {
          method: 'POST',
          headers: {
            cookie: mover.cookie,
            origin: url,
            'x-requested-by': 'canvas-mcp',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ selection: [], cursor: { x, y: 0 } }),
        });
        const others = people.filter((person) => person !== mover);
        await arrivals.until(() => others.every((person) => person.seen.has(key)), 2000);
        for (const person of others) samples.push((person.seen.get(key) ?? Infinity) - sent);
        updates += 1;
      }
    }
    const cpuPerUpdateMs = (cpuMillis(child.pid!) - cpuBefore) / updates;
    for (const person of people) person.close();
    return {
      people: PEOPLE,
      updates,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      max: Math.max(...samples),
      cpuPerUpdateMs,
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measurePresence();
  process.stdout.write(
    [
      '',
      `presence (${figures.people} people on one canvas, ${figures.updates} cursor moves, each seen by the ${figures.people - 1} others):`,
      '| update → others p50 ms | p99 ms | max ms | server CPU ms per update |',
      '|---:|---:|---:|---:|',
      `| ${figures.p50.toFixed(1)} | ${figures.p99.toFixed(1)} | ${figures.max.toFixed(1)} | ${figures.cpuPerUpdateMs.toFixed(2)} |`,
      '',
    ].join('\n'),
  );
}
