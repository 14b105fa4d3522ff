import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMillis } from './process-stats.js';
import { ROOT, startProcess } from './processes.js';
import { arrivalWaiter, readEvents } from './sse-reader.js';
import { reviewPeople } from './workload.js';

/**
 * `npm run bench` (part): the review room (docs/review.md, "The review room"). 50 followers hold the demo canvas's
 * change feed open (members' pages, as SSE clients over real HTTP against the built server); the presenter (a person,
 * with their session) moves the room 200 times, one move after the last reached everyone. Reported: the lag from
 * sending each move to its `room` event at every follower, p50 and p99 (goal: p99 under 150 ms), and the server's CPU
 * per move; and, in the same run on the same 50 feeds, the baseline: a node edit by the same person (POST …/changes)
 * to its `layout` event at every follower, measured the same way (bench/feed-latency.ts's method), with the ratio.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const MOVES = Number(process.env.BENCH_ROOM_MOVES ?? 200);
const FOLLOWERS = 50;
const FEEDS_PER_TOKEN = 16;
const SHOTS = 8;

const arrival = arrivalWaiter();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A follower's page: when each room move (by its seq) and each layout revision reached it. */
async function follower(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`feed: ${response.status} ${await response.text()}`);
  const moves = new Map<number, number>();
  const revisions = new Map<number, number>();
  void readEvents(response, (block, now) => {
    if (block.startsWith('event: room')) {
      const seq = /"seq":(\d+)/.exec(block)?.[1];
      if (seq) moves.set(Number(seq), now);
    } else if (block.startsWith('event: layout')) {
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      if (id) revisions.set(Number(id), now);
    } else return;
    arrival.wake();
  });
  return { moves, revisions, close: () => controller.abort() };
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
  cpuMs: number;
}

function figures(samples: number[], cpuMs: number, count: number): Latency {
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: Math.max(...samples),
    cpuMs: cpuMs / count,
  };
}

export async function measureReviewRoom(): Promise<{ followers: number; moves: number; room: Latency; edit: Latency }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-room-'));
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0'],
    join(dataDir, 'serve.log'),
  );
  try {
    const { readers, headers } = await reviewPeople(dataDir, url, {
      pages: FOLLOWERS,
      perToken: FEEDS_PER_TOKEN,
      name: 'follower',
    });
    const canvas = `${url}/api/v2/projects/demo/canvases/main`;
    const send = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${canvas}${path}`, { method, headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>);
    };
    const snapshot = await fetch(`${canvas}/snapshot`, {
      headers: { ...headers, 'x-canvas-snapshot-version': 'canvas-snapshot.v2' },
    });
    let revision = ((await snapshot.json()) as { layout: { revision: number } }).layout.revision;
    const board = {
      id: 'room-board',
      type: 'storyboardNode',
      position: { x: 0, y: 2000 },
      data: {
        title: 'Review room',
        frames: Array.from({ length: SHOTS }, (_, index) => ({
          id: `shot-${index + 1}`,
          imageUrl: null,
          number: String(index + 1),
          durationMs: 2000,
        })),
      },
    };
    revision = (
      (await send('POST', '/changes', {
        base_revision: revision,
        client_save_id: null,
        operations: [
          { op: 'create_node', node: board },
          {
            op: 'create_node',
            node: { id: 'room-note', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'x' } },
          },
        ],
      })) as { revision: number }
    ).revision;

    const followers = await Promise.all(
      Array.from({ length: FOLLOWERS }, (_, index) =>
        follower(`${canvas}/events?after=${revision}`, readers[Math.floor(index / FEEDS_PER_TOKEN)]!),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    // The baseline: a node edit by the same person, to its layout event at every follower.
    const editSamples: number[] = [];
    let cpuBefore = cpuMillis(child.pid!);
    for (let index = 0; index < MOVES; index += 1) {
      const sent = performance.now();
      revision = (
        (await send('POST', '/changes', {
          base_revision: revision,
          client_save_id: null,
          operations: [{ op: 'update_node', node_id: 'room-note', set: { position: { x: index, y: 0 } } }],
        })) as { revision: number }
      ).revision;
      const landed = revision;
      await arrival.until(() => followers.every((each) => each.revisions.has(landed)), 5_000);
      for (const each of followers) editSamples.push((each.revisions.get(landed) ?? Infinity) - sent);
    }
    const edit = figures(editSamples, cpuMillis(child.pid!) - cpuBefore, MOVES);

    // The room: the presenter steps through the shots, playing and pausing, 200 moves.
    const roomSamples: number[] = [];
    cpuBefore = cpuMillis(child.pid!);
    for (let index = 0; index < MOVES; index += 1) {
      const shot = index % SHOTS;
      const sent = performance.now();
      const room = (await send('PUT', '/nodes/room-board/room', {
        shot_id: `shot-${shot + 1}`,
        shot_index: shot,
        playing: index % 3 === 0,
        position_ms: shot * 2000,
      })) as { seq: number };
      await arrival.until(() => followers.every((each) => each.moves.has(room.seq)), 5_000);
      for (const each of followers) roomSamples.push((each.moves.get(room.seq) ?? Infinity) - sent);
    }
    const room = figures(roomSamples, cpuMillis(child.pid!) - cpuBefore, MOVES);
    await send('DELETE', '/nodes/room-board/room', undefined);
    for (const each of followers) each.close();
    return { followers: FOLLOWERS, moves: MOVES, room, edit };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { followers, moves, room, edit } = await measureReviewRoom();
  const row = (name: string, figure: Latency) =>
    `| ${name} | ${figure.p50.toFixed(1)} | ${figure.p99.toFixed(1)} | ${figure.max.toFixed(1)} | ${figure.cpuMs.toFixed(2)} |`;
  process.stdout.write(
    [
      '',
      `review room (${moves} moves, ${followers} followers; ${new Date().toISOString().slice(0, 10)}, node ${process.version}):`,
      '| write → event at every follower | p50 ms | p99 ms | max ms | server CPU ms per write |',
      '|---|---:|---:|---:|---:|',
      row('room move (PUT …/room → `room`)', room),
      row('baseline: node edit (POST …/changes → `layout`)', edit),
      '',
      `Ratio room / baseline: p50 ${(room.p50 / edit.p50).toFixed(2)}, p99 ${(room.p99 / edit.p99).toFixed(2)}; goal p99 < 150 ms: ${room.p99 < 150 ? 'met' : 'NOT met'}.`,
      '',
    ].join('\n'),
  );
}
