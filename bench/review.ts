import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNAPSHOT_CONTRACT_VERSION, SNAPSHOT_VERSION_HEADER } from '../src/contract/index.js';
import { cpuMillis } from './process-stats.js';
import { ROOT, startProcess } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';
import { reviewPeople } from './workload.js';

/**
 * `npm run bench` (part): review. A person posts comments on the demo canvas (each a new thread, through the REST API
 * with their session) while 50 pages hold the canvas's change feed open; the latency from sending the comment to its
 * `comment` event arriving at every page, p50 and p99, and the server CPU per comment; then the same for drawn notes
 * (docs/review.md, "Drawn notes": each comment carries a circle, an arrow, a word and a 200-point freehand line on a
 * card), against the comments of words alone in the same run.
 */

/** A drawn note as a reviewer makes one: a circle, an arrow, a word and a long freehand line. */
const NOTE = [
  { tool: 'ellipse', colour: '#e53935', points: [0.4, 0.3, 0.6, 0.7] },
  { tool: 'arrow', colour: '#ffeb3b', points: [0.1, 0.9, 0.38, 0.55] },
  { tool: 'text', colour: '#ffffff', points: [0.42, 0.22], text: 'smaller' },
  {
    tool: 'pen',
    colour: '#e53935',
    points: Array.from({ length: 200 }, (_, index) => [0.1 + index / 250, 0.5 + Math.sin(index / 9) / 10]).flat(),
  },
];

const CLI = join(ROOT, 'dist/cli/main.js');
const COMMENTS = Number(process.env.BENCH_REVIEW_COMMENTS ?? 100);
const PAGES = 50;
const FEEDS_PER_TOKEN = 16;

const arrival = arrivalWaiter();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A page: the arrival time of each thread's first `comment` event. */
async function page(url: string, token: string): Promise<{ seen: Map<string, number>; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const seen = new Map<string, number>();
  void readEvents(response, (block, now) => {
    if (!block.startsWith('event: comment')) return;
    const threadId = /"thread_id":"([^"]+)"/.exec(block)?.[1];
    if (threadId && !seen.has(threadId)) {
      seen.set(threadId, now);
      arrival.wake();
    }
  });
  return { seen, close: () => controller.abort() };
}

export async function measureReview(drawn = false): Promise<{
  pages: number;
  p50: number;
  p99: number;
  max: number;
  cpuPerCommentMs: number;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-review-'));
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0'],
    join(dataDir, 'serve.log'),
  );
  try {
    const { readers, headers } = await reviewPeople(dataDir, url, {
      pages: PAGES,
      perToken: FEEDS_PER_TOKEN,
      name: 'page',
    });
    const canvas = `${url}/api/v2/projects/demo/canvases/main`;
    // A drawn note is drawn on a card's frame: the first card of the demo canvas.
    const snapshot = (await (
      await fetch(`${canvas}/snapshot`, {
        headers: { ...headers, [SNAPSHOT_VERSION_HEADER]: SNAPSHOT_CONTRACT_VERSION },
      })
    ).json()) as {
      layout: { nodes: Array<{ id: string }> };
    };
    const nodeId = snapshot.layout.nodes[0]!.id;
    const pages = await Promise.all(
      Array.from({ length: PAGES }, (_, index) =>
        page(`${canvas}/events`, readers[Math.floor(index / FEEDS_PER_TOKEN)]!),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const samples: number[] = [];
    const cpuBefore = cpuMillis(child.pid!);
    for (let index = 0; index < COMMENTS; index += 1) {
      const sent = performance.now();
      const response = await fetch(`${canvas}/threads`, {
        method: 'POST',
        headers,
        body: JSON.stringify(
          drawn
            ? { node_id: nodeId, body: `Note ${index}: this, smaller.`, markup: NOTE }
            : { node_id: null, body: `Comment ${index}: the horizon is tilted.` },
        ),
      });
      if (response.status !== 201) throw new Error(`comment: ${response.status} ${await response.text()}`);
      const { thread_id: threadId } = (await response.json()) as { thread_id: string };
      await arrival.until(() => pages.every((each) => each.seen.has(threadId)), 5_000);
      for (const each of pages) samples.push((each.seen.get(threadId) ?? Infinity) - sent);
    }
    const cpuPerCommentMs = (cpuMillis(child.pid!) - cpuBefore) / COMMENTS;
    for (const each of pages) each.close();
    return {
      pages: PAGES,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      max: Math.max(...samples),
      cpuPerCommentMs,
    };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureReview();
  process.stdout.write(
    `\nreview (${COMMENTS} comments, ${figures.pages} open pages): comment → visible on every page p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms; server CPU ${figures.cpuPerCommentMs.toFixed(2)} ms per comment\n`,
  );
  const drawn = await measureReview(true);
  process.stdout.write(
    `review, drawn notes (${COMMENTS}, ${drawn.pages} open pages): note → visible on every page p50 ${drawn.p50.toFixed(1)} ms, p99 ${drawn.p99.toFixed(1)} ms, max ${drawn.max.toFixed(1)} ms; server CPU ${drawn.cpuPerCommentMs.toFixed(2)} ms per note; p99 ${(drawn.p99 / figures.p99).toFixed(2)}× the words-alone comment\n`,
  );
}
