import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SYSTEM_WRITE } from '../src/canvas/edit-authorization.js';
import { CanvasNode } from '../src/contract/index.js';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { cpuMillis, rssMegabytes } from './process-stats.js';
import { ROOT, startProcess } from './processes.js';

/**
 * `npm run bench`: the real server (built, embedded SQLite store, default log level) next to three baselines serving
 * the same get_canvas result, measured in one run with autocannon. At 50 nodes both protocol eras are measured for
 * our server and the SDK v2 handler: the measurement that decides whether to adopt createMcpHandler (issue 12). Prints req/s, p50, p99, server CPU per call,
 * RSS, and ratios against the baselines. BENCH_DURATION (seconds per measurement, default 10) shortens a run.
 */

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Math.max(1, Math.round(DURATION / 5));
const CONNECTIONS = 16;
const SIZES = [50, 1000, 10_000] as const;
const BARE_WRITE = 'bare node:http + SQLite write';
const SDK_V2 = 'SDK v2 createMcpHandler';
/** Adopt the SDK v2 handler if its CPU per get_canvas call at 50 nodes is within this factor of ours (issue 12). */
const ADOPTION_FACTOR = 1.5;
type Era = 'legacy' | 'modern';

interface Measurement {
  target: string;
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuPerCallMs: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  errors: number;
}

function node(index: number): CanvasNode {
  const position = { x: (index % 40) * 360, y: Math.floor(index / 40) * 280 };
  const id = `n${index}`;
  switch (index % 4) {
    case 0:
      return CanvasNode.parse({
        id,
        type: 'imageGenNode',
        position,
        data: {
          displayName: `Frame ${index}`,
          prompt: `Shot ${index}: a lighthouse keeper climbs the stairs as the storm hits the windows, low angle, cinematic`,
          size: '1K',
          count: 1,
          imageUrl: null,
          aspectRatio: '16:9',
        },
      });
    case 1:
      return CanvasNode.parse({ id, type: 'textAnnotationNode', position, data: { displayName: `Note ${index}`, content: `Keep the lamp as the only warm light in shot ${index}.` } });
    case 2:
      return CanvasNode.parse({ id, type: 'audioNode', position, data: { displayName: `Line ${index}`, audioUrl: null, audioKind: 'speech', text: 'The sea had been waiting for her.' } });
    default:
      return CanvasNode.parse({ id, type: 'skillNode', position, data: { skill_id: 'zone.sketch_from_context', skill_schema_version: 'skill.v1', parameters: { aspect_ratio: '16:9' } } });
  }
}

/**
 * A canvas holds at most 20,000 nodes (LIMITS.canvasNodes): sequential creates fill one write canvas up to
 * WRITE_CANVAS_FILL, then go on on the next, so every measured create is a real write, never a "canvas full" refusal.
 */
const WRITE_CANVASES = 8;
const WRITE_CANVAS_FILL = 15_000;
const writeCanvas = (index: number) => `writes-${index}`;

async function seed(dataDir: string, sizes: readonly number[]): Promise<{ token: string; chatRuns: string[] }> {
  const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
  await store.admin.createWorkspace('bench');
  await store.admin.createProject('bench', 'bench');
  for (const size of sizes) {
    await store.admin.createCanvas('bench', `c${size}`, false);
    for (let index = 0; index < size; index += 1) {
      await store.writes.createNode({ projectId: 'bench', canvasId: `c${size}`, baseRevision: index, clientSaveId: null, authorization: SYSTEM_WRITE }, node(index));
    }
  }
  const { tokenId, secret } = await store.admin.createToken({ name: 'bench', kind: 'agent', role: 'editor', projects: ['bench'], workspaces: [], actor: null, expiresAt: null });
  const chatRuns: string[] = [];
  for (let index = 0; index < WRITE_CANVASES; index += 1) {
    await store.admin.createCanvas('bench', writeCanvas(index), false);
    // A chat run grants edits to one canvas, and only to the token (or person) it is bound to.
    chatRuns.push(await store.admin.createChatRun({ projectId: 'bench', canvasId: writeCanvas(index), actor: null, tokenId, canEdit: true, expiresAt: null }));
  }
  await store.close();
  return { token: secret, chatRuns };
}

const mcpHeaders = (token?: string, era: Era = 'legacy') => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-06-18',
  ...(era === 'modern' ? { 'mcp-method': 'tools/call', 'mcp-name': 'get_canvas' } : {}),
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

/** A 2026-07-28 request names its version and capabilities in `_meta`, with no initialize before it. */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const getCanvasBody = (canvasId: string, era: Era = 'legacy') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_canvas', arguments: { project_id: 'bench', canvas_id: canvasId }, ...(era === 'modern' ? { _meta: MODERN_META } : {}) },
  });

/** One call, checked: the answer must hold the snapshot with the expected number of nodes. */
async function fetchSnapshot(url: string, canvasId: string, token: string | undefined, expectedNodes: number, era: Era = 'legacy'): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/mcp`, { method: 'POST', headers: mcpHeaders(token, era), body: getCanvasBody(canvasId, era) });
  const text = await response.text();
  const json = text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6).trim() : text;
  const structured = (JSON.parse(json) as { result: { structuredContent: { layout: { nodes: unknown[] } } } }).result.structuredContent;
  if (structured.layout.nodes.length !== expectedNodes) throw new Error(`${url} served ${structured.layout.nodes.length} nodes, expected ${expectedNodes}`);
  return structured as unknown as Record<string, unknown>;
}

async function measure(
  target: string,
  scenario: string,
  pid: number,
  options: autocannon.Options,
): Promise<Measurement> {
  await autocannon({ ...options, duration: WARMUP });
  const rssBefore = rssMegabytes(pid);
  const cpuBefore = cpuMillis(pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const cpu = cpuMillis(pid) - cpuBefore;
  const calls = result.requests.total;
  return {
    target,
    scenario,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuPerCallMs: calls > 0 ? cpu / calls : Number.NaN,
    rssBeforeMb: rssBefore,
    rssAfterMb: rssMegabytes(pid),
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

function format(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-'));
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  const children: ChildProcess[] = [];
  const results: Measurement[] = [];
  try {
    process.stdout.write(`seeding canvases of ${SIZES.join(', ')} nodes…\n`);
    const { token, chatRuns } = await seed(dataDir, SIZES);
    const ours = await startProcess(
      ['dist/cli/main.js', 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '1000000', '--no-seed-demo'],
      join(work, 'server.log'),
    );
    children.push(ours.child);

    for (const size of SIZES) {
      const canvasId = `c${size}`;
      const snapshot = await fetchSnapshot(ours.url, canvasId, token, size);
      const snapshotFile = join(work, `${canvasId}.json`);
      writeFileSync(snapshotFile, JSON.stringify(snapshot));
      const baselines = [
        { name: 'bare node:http', script: 'bench/baselines/bare-http.ts' },
        { name: 'SDK stateless example', script: 'bench/baselines/sdk-stateless.ts' },
        { name: SDK_V2, script: 'bench/baselines/sdk-v2-handler.ts' },
      ];
      const targets = [{ name: 'canvas-mcp', url: ours.url, pid: ours.child.pid!, token }];
      for (const baseline of baselines) {
        const started = await startProcess(['--import', 'tsx', baseline.script, snapshotFile], join(work, `${baseline.name}-${size}.log`));
        children.push(started.child);
        await fetchSnapshot(started.url, canvasId, undefined, size);
        targets.push({ name: baseline.name, url: started.url, pid: started.child.pid!, token: '' });
      }
      const eraRuns: Array<{ era: Era; scenario: string; targets: typeof targets }> = [{ era: 'legacy', scenario: `get_canvas ${size} nodes`, targets }];
      if (size === SIZES[0]) {
        const modernTargets = targets.filter((target) => target.name === 'canvas-mcp' || target.name === SDK_V2);
        for (const target of modernTargets) await fetchSnapshot(target.url, canvasId, target.token || undefined, size, 'modern');
        eraRuns.push({ era: 'modern', scenario: `get_canvas ${size} nodes, 2026-07-28`, targets: modernTargets });
      }
      for (const { era, scenario, targets: measured } of eraRuns) {
        for (const target of measured) {
          process.stdout.write(`${scenario}: ${target.name}…\n`);
          results.push(
            await measure(target.name, scenario, target.pid, {
              url: `${target.url}/mcp`,
              method: 'POST',
              connections: CONNECTIONS,
              headers: mcpHeaders(target.token || undefined, era),
              body: getCanvasBody(canvasId, era),
            }),
          );
        }
      }
      for (const target of targets.slice(1)) process.kill(target.pid);
    }

    const writers = [
      { label: 'canvas-mcp', url: ours.url, pid: ours.child.pid!, token, chatRuns },
      await (async () => {
        // The same server with --sqlite-synchronous normal: no fsync per commit (not the default).
        const normalDir = join(work, 'data-normal');
        mkdirSync(normalDir);
        const seeded = await seed(normalDir, []);
        const started = await startProcess(
          ['dist/cli/main.js', 'serve', '--data', normalDir, '--port', '0', '--rate-limit', '1000000', '--no-seed-demo', '--sqlite-synchronous', 'normal'],
          join(work, 'server-normal.log'),
        );
        children.push(started.child);
        return { label: 'canvas-mcp (sqlite-synchronous normal)', url: started.url, pid: started.child.pid!, ...seeded };
      })(),
      await (async () => {
        const started = await startProcess(['--import', 'tsx', 'bench/baselines/bare-write.ts', work], join(work, 'bare-write.log'));
        children.push(started.child);
        return { label: BARE_WRITE, url: started.url, pid: started.child.pid!, token: '', chatRuns: [] };
      })(),
    ];
    // Every create must have landed: each canvas's revision equals the number of creates sent to it.
    const landedRevision = async (writer: (typeof writers)[number], canvasId: string, expected: number): Promise<number> => {
      if (writer.label !== BARE_WRITE) {
        const written = await fetchSnapshot(writer.url, canvasId, writer.token, expected);
        return (written.layout as { revision: number }).revision;
      }
      return ((await (await fetch(`${writer.url}/revision`)).json()) as { revision: number }).revision;
    };
    for (const writer of writers) {
      process.stdout.write(`create_canvas_node, sequential: ${writer.label}…\n`);
      // The bare baseline has one canvas and no node limit; ours move to the next canvas when one is filled.
      const rotates = writer.label !== BARE_WRITE;
      const sent: number[] = [0];
      const createRequest = (request: autocannon.Request) => {
        if (rotates && sent.at(-1)! >= WRITE_CANVAS_FILL) {
          if (sent.length === WRITE_CANVASES) throw new Error(`${writer.label}: more than ${WRITE_CANVASES * WRITE_CANVAS_FILL} creates; raise WRITE_CANVASES`);
          sent.push(0);
        }
        const canvas = sent.length - 1;
        const revision = sent[canvas]!;
        sent[canvas] = revision + 1;
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: revision,
          method: 'tools/call',
          params: {
            name: 'create_canvas_node',
            arguments: { project_id: 'bench', canvas_id: writeCanvas(canvas), base_revision: revision, node: { ...node(revision), id: `w${revision}` } },
          },
        });
        return { ...request, body, headers: { ...request.headers, 'x-agent-run-id': writer.chatRuns[canvas] ?? '' } };
      };
      results.push(
        await measure(writer.label, 'create_canvas_node sequential', writer.pid, {
          url: `${writer.url}/mcp`,
          method: 'POST',
          connections: 1,
          pipelining: 1,
          headers: mcpHeaders(writer.token || undefined),
          requests: [{ setupRequest: createRequest }],
        }),
      );
      for (const [canvas, count] of sent.entries()) {
        const writtenRevision = await landedRevision(writer, writeCanvas(canvas), count);
        if (writtenRevision !== count) throw new Error(`${writer.label}: ${writeCanvas(canvas)} at revision ${writtenRevision}, expected ${count}`);
      }
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  }

  const table = [
    '| scenario | server | req/s | p50 ms | p99 ms | server CPU ms/call | RSS MB before → after | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (row) =>
        `| ${row.scenario} | ${row.target} | ${format(row.requestsPerSecond, 0)} | ${row.p50} | ${row.p99} | ${format(row.cpuPerCallMs, 3)} | ${format(row.rssBeforeMb, 0)} → ${format(row.rssAfterMb, 0)} | ${row.errors} |`,
    ),
  ];
  const ratios = SIZES.map((size) => {
    const scenario = `get_canvas ${size} nodes`;
    const of = (target: string) => results.find((row) => row.scenario === scenario && row.target === target)!;
    const ours = of('canvas-mcp');
    const sdk = of('SDK stateless example');
    const bare = of('bare node:http');
    const v2 = of(SDK_V2);
    return `| ${scenario} | ${format(ours.requestsPerSecond / sdk.requestsPerSecond)}× | ${format(ours.requestsPerSecond / bare.requestsPerSecond)}× | ${format(sdk.cpuPerCallMs / ours.cpuPerCallMs)}× | ${format(bare.cpuPerCallMs / ours.cpuPerCallMs)}× | ${format(v2.cpuPerCallMs / ours.cpuPerCallMs)}× |`;
  });
  // The decision of issue 12: adopt the SDK v2 handler if, at 50 nodes, it costs at most 1.5× our CPU per call.
  const decision = [`get_canvas ${SIZES[0]} nodes`, `get_canvas ${SIZES[0]} nodes, 2026-07-28`].map((scenario) => {
    const ours = results.find((row) => row.scenario === scenario && row.target === 'canvas-mcp')!;
    const v2 = results.find((row) => row.scenario === scenario && row.target === SDK_V2)!;
    const ratio = v2.cpuPerCallMs / ours.cpuPerCallMs;
    return `| ${scenario} | ${format(ours.cpuPerCallMs, 3)} | ${format(v2.cpuPerCallMs, 3)} | ${format(ratio)}× | ${ratio <= ADOPTION_FACTOR ? 'adopt the SDK' : 'keep ours'} |`;
  });
  const writeRows = results.filter((row) => row.scenario === 'create_canvas_node sequential');
  const bareWrite = writeRows.find((row) => row.target === BARE_WRITE)!;
  const writeRatios = writeRows
    .filter((row) => row !== bareWrite)
    .map((row) => `| ${row.target} | ${format(row.requestsPerSecond / bareWrite.requestsPerSecond)}× | ${format(bareWrite.cpuPerCallMs / row.cpuPerCallMs)}× |`);
  const output = [
    `duration ${DURATION}s per measurement after ${WARMUP}s warm-up, ${CONNECTIONS} connections for get_canvas, node ${process.version}`,
    '',
    ...table,
    '',
    '| scenario | req/s vs SDK example | req/s vs bare handler | CPU/call: SDK ÷ ours | CPU/call: bare ÷ ours | CPU/call: SDK v2 ÷ ours |',
    '|---|---:|---:|---:|---:|---:|',
    ...ratios,
    '',
    `| SDK v2 createMcpHandler vs ours | ours CPU ms/call | SDK v2 CPU ms/call | SDK v2 ÷ ours | verdict (adopt within ${ADOPTION_FACTOR}×) |`,
    '|---|---:|---:|---:|---|',
    ...decision,
    '',
    '| create_canvas_node sequential | req/s vs bare write | CPU/call: bare write ÷ ours |',
    '|---|---:|---:|',
    ...writeRatios,
  ].join('\n');
  process.stdout.write(`\n${output}\n`);
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(join(ROOT, '.bench', 'results.md'), `${output}\n`);
  writeFileSync(join(ROOT, '.bench', 'results.json'), JSON.stringify(results, null, 2));
  rmSync(work, { recursive: true, force: true });
}

await main();
