import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_WRITE } from '../src/store/edit-authorization.js';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { ROOT } from './processes.js';
import { node } from './workload.js';

/**
 * `npx tsx bench/scale-plan.ts`: projects what 10,000 canvases and 100,000 open pages cost, from per-unit costs
 * measured by `npm run bench` (docs/scaling.md). It measures the bytes a node costs itself (a canvas of 1,000 nodes in
 * a fresh store); CPU costs come from the last bench run in .bench/ when present, else from the figures recorded in
 * docs/performance.md (2026-11-24). Every assumption about load is a named constant below, printed with the result.
 */

interface UnitCosts {
  source: string;
  /** Server CPU per get_canvas / snapshot read of a 50-node canvas, and of a 1,000-node one (ms). */
  readMs50: number;
  readMs1000: number;
  /** Server CPU per create: one writer alone, and with 16 writers sharing commits (SQLite), and on PostgreSQL (ms). */
  writeMsSequential: number;
  writeMsGrouped: number;
  writeMsPostgres: number;
  /** Server CPU to send one feed event to one more subscriber (ms), and RSS per idle subscriber (KB). */
  fanOutMsPerSubscriber: number;
  kbPerSubscriber: number;
}

const RECORDED: UnitCosts = {
  source: 'docs/performance.md, 2026-11-24',
  readMs50: 0.085,
  readMs1000: 0.124,
  writeMsSequential: 0.67,
  writeMsGrouped: 0.32,
  writeMsPostgres: 1.44,
  fanOutMsPerSubscriber: 0.0151,
  kbPerSubscriber: 19.2,
};

/** The last `npm run bench` figures, where the bench left them. */
function measuredCosts(): UnitCosts {
  const costs = { ...RECORDED };
  const reads = join(ROOT, '.bench', 'results.json');
  if (existsSync(reads)) {
    const rows = JSON.parse(readFileSync(reads, 'utf8')) as Array<{
      target: string;
      scenario: string;
      cpuPerCallMs: number;
    }>;
    const ours = (scenario: string) =>
      rows.find((row) => row.target === 'canvas-mcp' && row.scenario === scenario)?.cpuPerCallMs;
    costs.readMs50 = ours('get_canvas 50 nodes') ?? costs.readMs50;
    costs.readMs1000 = ours('get_canvas 1000 nodes') ?? costs.readMs1000;
    costs.source = `.bench/results.json (${statSync(reads).mtime.toISOString().slice(0, 10)}) and ${RECORDED.source}`;
  }
  return costs;
}

/** The load being planned for. */
const LOAD = {
  canvases: 10_000,
  openPages: 100_000,
  nodesPerCanvas: 200,
  /** How unevenly pages spread over canvases: Zipf exponent (0 = even). A review session puts hundreds on one. */
  zipf: Number(process.env.SCALE_ZIPF ?? 0.6),
  /** Each open page reads its snapshot when opened and after a reconnect: this many times an hour. */
  snapshotReadsPerPageHour: 6,
  /** Share of open pages whose person is editing, and their writes a minute. */
  editingShare: 0.25,
  editsPerMinute: 3,
  /** Agents at work (MCP or the canvas chat), their tool calls a minute, and the share of calls that write. */
  agents: 2_000,
  agentCallsPerMinute: 6,
  agentWriteShare: 1 / 3,
  /** A server process is planned at this share of one core, and this many open feeds. */
  coreUtilisation: 0.5,
  feedsPerProcess: 20_000,
};

/** Bytes per node: in the store (SQLite file, a canvas of 1,000 nodes with its change log) and in a snapshot. */
async function bytesPerNode(): Promise<{ stored: number; snapshot: number; changeLogPerWrite: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-scale-'));
  try {
    const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dir) });
    await store.projects.createWorkspace('w');
    await store.projects.createProject('p', 'w');
    await store.projects.createCanvas('p', 'c', false);
    const { driver } = store;
    const pages = async () =>
      Number((await driver.get('PRAGMA page_count'))!.page_count) *
      Number((await driver.get('PRAGMA page_size'))!.page_size);
    await driver.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const before = await pages();
    const count = 1000;
    for (let index = 0; index < count; index += 1) {
      await store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: index, clientSaveId: null, authorization: SYSTEM_WRITE },
        node(index),
      );
    }
    await driver.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const stored = ((await pages()) - before) / count;
    const changeLog =
      Number(
        (await driver.get("SELECT SUM(LENGTH(body)) AS bytes FROM canvas_changes WHERE project_id = 'p'"))?.bytes ?? 0,
      ) / count;
    const snapshot =
      Number(
        (await driver.get("SELECT SUM(LENGTH(body)) AS bytes FROM canvas_nodes WHERE project_id = 'p'"))?.bytes ?? 0,
      ) / count;
    await store.close();
    return { stored, snapshot, changeLogPerWrite: changeLog };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pages per canvas under a Zipf spread, scaled to the open pages. */
function pagesPerCanvas(): number[] {
  const weights = Array.from({ length: LOAD.canvases }, (_, rank) => 1 / (rank + 1) ** LOAD.zipf);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (weight / total) * LOAD.openPages);
}

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const costs = measuredCosts();
  const bytes = await bytesPerNode().catch(() => ({
    stored: Number.NaN,
    snapshot: Number.NaN,
    changeLogPerWrite: Number.NaN,
  }));
  const pages = pagesPerCanvas();
  // Writes come from a canvas's own pages, so a write's event reaches, on average, Σp²/Σp subscribers.
  const fanOut = pages.reduce((sum, p) => sum + p * p, 0) / LOAD.openPages;
  const hottest = pages[0]!;

  const readMs = costs.readMs50 + ((costs.readMs1000 - costs.readMs50) * (LOAD.nodesPerCanvas - 50)) / 950;
  const readsPerSecond =
    (LOAD.openPages * LOAD.snapshotReadsPerPageHour) / 3600 +
    (LOAD.agents * LOAD.agentCallsPerMinute * (1 - LOAD.agentWriteShare)) / 60;
  const writesPerSecond =
    (LOAD.openPages * LOAD.editingShare * LOAD.editsPerMinute) / 60 +
    (LOAD.agents * LOAD.agentCallsPerMinute * LOAD.agentWriteShare) / 60;
  const eventsPerSecond = writesPerSecond * fanOut;

  const cores = {
    reads: (readsPerSecond * readMs) / 1000,
    writesGrouped: (writesPerSecond * costs.writeMsGrouped) / 1000,
    writesPostgres: (writesPerSecond * costs.writeMsPostgres) / 1000,
    fanOut: (eventsPerSecond * costs.fanOutMsPerSubscriber) / 1000,
  };
  const appCores = cores.reads + cores.writesPostgres + cores.fanOut;
  const processesByCpu = Math.ceil(appCores / LOAD.coreUtilisation);
  const processesByFeeds = Math.ceil(LOAD.openPages / LOAD.feedsPerProcess);
  const processes = Math.max(processesByCpu, processesByFeeds);
  const feedMemoryGb = (LOAD.openPages * costs.kbPerSubscriber) / 1024 / 1024;
  const nodes = LOAD.canvases * LOAD.nodesPerCanvas;
  const hotWriteFanOutMs = hottest * costs.fanOutMsPerSubscriber;

  const lines = [
    `Unit costs (${costs.source}):`,
    `  read (get_canvas / snapshot): ${costs.readMs50} ms CPU at 50 nodes, ${costs.readMs1000} ms at 1,000; ${readMs.toFixed(3)} ms at ${LOAD.nodesPerCanvas}`,
    `  write (create): ${costs.writeMsSequential} ms alone, ${costs.writeMsGrouped} ms with commits shared (SQLite), ${costs.writeMsPostgres} ms on PostgreSQL (server side only)`,
    `  feed: ${(costs.fanOutMsPerSubscriber * 1000).toFixed(1)} µs CPU per event per subscriber, ${costs.kbPerSubscriber} KB RSS per open feed`,
    `  bytes per node: ${fmt(bytes.stored)} stored (with its change-log entry and indexes), ${fmt(bytes.snapshot)} of JSON in a snapshot; ${fmt(bytes.changeLogPerWrite)} of change log per create`,
    '',
    `Load: ${fmt(LOAD.canvases)} canvases of ${LOAD.nodesPerCanvas} nodes, ${fmt(LOAD.openPages)} open pages (Zipf ${LOAD.zipf}: the busiest canvas has ${fmt(hottest)} pages open),`,
    `  ${LOAD.snapshotReadsPerPageHour} snapshot reads per page an hour, ${LOAD.editingShare * 100}% of pages editing at ${LOAD.editsPerMinute} writes a minute, ${fmt(LOAD.agents)} agents at ${LOAD.agentCallsPerMinute} calls a minute (${fmt(LOAD.agentWriteShare * 100)}% writes)`,
    '',
    `  reads            ${fmt(readsPerSecond)} /s  → ${cores.reads.toFixed(2)} cores`,
    `  writes           ${fmt(writesPerSecond)} /s  → ${cores.writesPostgres.toFixed(2)} cores of servers on PostgreSQL (${cores.writesGrouped.toFixed(2)} at the SQLite grouped cost)`,
    `  feed events      ${fmt(eventsPerSecond)} deliveries/s (${fanOut.toFixed(0)} subscribers per write on average) → ${cores.fanOut.toFixed(2)} cores`,
    `  one write on the busiest canvas: ${hotWriteFanOutMs.toFixed(1)} ms of fan-out CPU, spread over the processes holding its ${fmt(hottest)} feeds`,
    `  server processes: ${processes} (${processesByCpu} for CPU at ${LOAD.coreUtilisation * 100}% of a core each, ${processesByFeeds} for ${fmt(LOAD.feedsPerProcess)} feeds each); ${feedMemoryGb.toFixed(1)} GB of RSS for open feeds in all`,
    `  PostgreSQL: ${fmt(writesPerSecond)} write transactions/s and ${fmt(writesPerSecond)} NOTIFYs/s, each heard by all ${processes} processes (${fmt(writesPerSecond * processes)} deliveries/s)`,
    `  storage: ${fmt(nodes)} nodes ≈ ${((nodes * bytes.stored) / 1e9).toFixed(2)} GB; change log grows ${((writesPerSecond * bytes.changeLogPerWrite * 86_400) / 1e9).toFixed(1)} GB a day at this write rate`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
