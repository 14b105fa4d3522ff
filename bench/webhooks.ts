import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { ROOT, startProcess } from './processes.js';

/**
 * `npm run bench` (part): webhook delivery. A serve process on SQLite with one run worker and the local provider at no
 * delay; an owner registers a receiver on loopback; runs are submitted one after another. The figure is the time from a
 * run's end (its finished_at) to its `run.succeeded` delivery arriving at the receiver. Target: p99 under 200 ms.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const RUNS = Number(process.env.BENCH_WEBHOOK_RUNS ?? 40);
const OWNER = { issuer: 'https://idp.bench', subject: 'owner' };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export interface WebhookFigures {
  runs: number;
  p50: number;
  p99: number;
  max: number;
}

export async function measureWebhooks(): Promise<WebhookFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-webhooks-'));
  const arrivals = new Map<string, number>();
  let arrived: (() => void) | null = null;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { run_id?: string; finished_at?: string } };
      if (event.type === 'run.succeeded' && event.data.run_id)
        arrivals.set(event.data.run_id, Date.now() - Date.parse(event.data.finished_at!));
      res.writeHead(204).end();
      arrived?.();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const { child, url } = await startProcess(
    [
      CLI,
      'serve',
      '--data',
      dataDir,
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--workers',
      '1',
      '--run-duration-ms',
      '0',
      '--webhooks-private-network',
    ],
    join(dataDir, 'serve.log'),
  );
  try {
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
    await store.projects.addMember('demo', OWNER, 'owner');
    const secret = await store.sessions.createLoginLink(OWNER, { expiresInMs: 600_000 });
    await store.close();
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: secret }),
    });
    const headers = {
      cookie: login.headers.get('set-cookie')!.split(';', 1)[0]!,
      origin: url,
      'x-requested-by': 'canvas-mcp',
      'content-type': 'application/json',
    };
    const registered = await fetch(`${url}/api/v1/projects/demo/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: hookUrl, allow_private_network: true, events: ['run.succeeded'] }),
    });
    if (registered.status !== 201)
      throw new Error(`registering the webhook answered ${registered.status}: ${await registered.text()}`);

    for (let index = 0; index < RUNS; index += 1) {
      const submitted = await fetch(`${url}/api/v2/projects/demo/canvases/main/nodes/frame-1/runs`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': `bench-${index}` },
      });
      const { run_id: runId } = (await submitted.json()) as { run_id: string };
      const deadline = Date.now() + 5000;
      while (!arrivals.has(runId) && Date.now() < deadline)
        await new Promise<void>((resolve) => ((arrived = resolve), setTimeout(resolve, 100)));
      if (!arrivals.has(runId)) throw new Error(`run ${runId}: no run.succeeded delivery within 5 s`);
    }
    const samples = [...arrivals.values()];
    return {
      runs: samples.length,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      max: Math.max(...samples),
    };
  } finally {
    child.kill('SIGTERM');
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureWebhooks();
  process.stdout.write(
    [
      '',
      `webhooks (${figures.runs} runs one after another, run.succeeded to a receiver on loopback):`,
      '| run end → delivery p50 ms | p99 ms | max ms |',
      '|---:|---:|---:|',
      `| ${figures.p50.toFixed(1)} | ${figures.p99.toFixed(1)} | ${figures.max.toFixed(1)} |`,
      '',
    ].join('\n'),
  );
}
