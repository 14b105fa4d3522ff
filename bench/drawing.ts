import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CanvasNode, emptyDrawing, type Drawing, type Stroke } from '../src/contract/index.js';
import { rasterise } from '../src/render/rasterise.js';
import { drawingSvg } from '../src/shared/drawing-svg.js';
import { SYSTEM_WRITE } from '../src/store/edit-authorization.js';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { ROOT, startProcess } from './processes.js';

/**
 * `npm run bench` (part): drawing on a frame (docs/performance.md, "Drawing on a frame"), against the built server in
 * Debian's headless Chromium, each figure beside a baseline measured in the same run:
 *
 * - pen input to ink: main-thread time of one pointer batch (a pointermove carrying 8 coalesced points) while a stroke
 *   grows to 2,000 points; baseline: the same points drawn as a plain canvas polyline, the least a page can do;
 * - a stroke's end to the other page's board showing the new frame (p50/p99); baseline: a shot's caption edited
 *   through the same layout write and feed;
 * - a frame of 2,000 strokes opening in the editor; baseline: a blank frame;
 * - the shot picture rendered from a drawing, CPU per render, 100 and 2,000 strokes; baseline: a blank frame.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const CHROMIUM = process.env.CANVAS_MCP_CHROMIUM ?? '/usr/bin/chromium';
const PERSON = { issuer: 'bench', subject: 'bench-artist' };
const STROKES_TO_WATCH = Number(process.env.BENCH_DRAWING_STROKES ?? 30);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** A wavy stroke of `points` input points across the frame, pressure rising and falling. */
function stroke(id: string, row: number, points = 30): Stroke {
  const y = 0.05 + (row % 90) / 100;
  return {
    id,
    tool: row % 3 === 0 ? 'pencil' : 'pen',
    colour: '#111111',
    size: 4 + (row % 4) * 2,
    points: Array.from({ length: points }, (_, index) => {
      const share = index / (points - 1);
      return [
        Math.round((0.05 + share * 0.9) * 1e4) / 1e4,
        Math.round((y + Math.sin(share * 9 + row) * 0.02) * 1e4) / 1e4,
        Math.round((0.3 + 0.6 * Math.sin(share * Math.PI)) * 1e3) / 1e3,
      ] as [number, number, number];
    }),
  };
}

function drawingOf(strokes: number): Drawing {
  const drawing = emptyDrawing(null);
  drawing.version = 1;
  drawing.layers.find((layer) => layer.name === 'ink')!.strokes = Array.from({ length: strokes }, (_, row) =>
    stroke(`s${row}`, row),
  );
  return drawing;
}

/** CPU milliseconds per render of the shot picture (drawingSvg, then resvg to PNG), as the server does on a save. */
async function renderCpuMs(drawing: Drawing, renders: number): Promise<number> {
  await rasterise(drawingSvg(drawing, { width: 1280, height: 720 }), { format: 'png', width: 1280 });
  const before = process.cpuUsage();
  for (let index = 0; index < renders; index += 1)
    await rasterise(drawingSvg(drawing, { width: 1280, height: 720 }), { format: 'png', width: 1280, maxBytes: 4e6 });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / renders;
}

async function seed(dataDir: string): Promise<string[]> {
  const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
  await store.projects.createWorkspace('bench');
  await store.projects.createProject('bench', 'bench');
  await store.projects.addMember('bench', PERSON, 'editor');
  await store.projects.createCanvas('bench', 'draw', false);
  await store.writes.createNode(
    { projectId: 'bench', canvasId: 'draw', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
    CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: {
        title: 'Bench',
        aspectRatio: '16:9',
        frames: ['s1', 's2', 's3', 's4'].map((id) => ({ id, imageUrl: null, caption: `Shot ${id}` })),
      },
    }),
  );
  const secrets: string[] = [];
  for (let index = 0; index < 3; index += 1)
    secrets.push(await store.sessions.createLoginLink(PERSON, { expiresInMs: 3_600_000 }));
  await store.close();
  return secrets;
}

async function signIn(browser: Browser, url: string, secret: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${url}/auth/login?token=${secret}`);
  await Promise.all([
    page.waitForURL((next) => next.pathname !== '/auth/login'),
    page.getByRole('button', { name: /^Sign in as / }).click(),
  ]);
  await page.goto(`${url}/p/bench/c/draw`);
  await page.locator('.feed-live').waitFor({ timeout: 30_000 });
  return page;
}

async function openEditor(page: Page, shotId: string): Promise<number> {
  const started = Date.now();
  await page.locator(`.react-flow__node[data-id="board"] [data-shot-id="${shotId}"]`).dblclick();
  await page.waitForFunction(
    `(() => { const img = document.querySelector('.frame-editor-drawing'); return img && img.complete && img.naturalWidth > 0; })()`,
    undefined,
    { timeout: 30_000 },
  );
  return Date.now() - started;
}

async function closeEditor(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Done' }).click();
  await page.locator('.frame-editor').waitFor({ state: 'detached' });
}

/**
 * Source text run in the page (Playwright evaluates text; the bench's contexts bypass the page's CSP for it). Draws a
 * stroke of `batches` pointermoves each carrying 8 coalesced points, timing the page's handling of each; then draws
 * the same batches as a canvas polyline (the baseline). Answers both lists of milliseconds.
 */
const PEN_BATCHES = `(async () => {
  const surface = document.querySelector('.frame-editor-live');
  const box = surface.getBoundingClientRect();
  const batches = 250, perBatch = 8, total = batches * perBatch;
  const at = (index) => ({
    clientX: box.left + box.width * (0.05 + 0.9 * index / total),
    clientY: box.top + box.height * (0.5 + 0.3 * Math.sin(index / 40)),
    pressure: 0.3 + 0.5 * Math.abs(Math.sin(index / 90)),
    pointerType: 'pen', pointerId: 41, isPrimary: true, bubbles: true, cancelable: true, button: 0, buttons: 1,
  });
  const ours = [];
  surface.dispatchEvent(new PointerEvent('pointerdown', at(0)));
  for (let batch = 0; batch < batches; batch++) {
    const points = Array.from({ length: perBatch }, (_, k) => new PointerEvent('pointermove', at(batch * perBatch + k + 1)));
    const event = points[perBatch - 1];
    Object.defineProperty(event, 'getCoalescedEvents', { value: () => points });
    const started = performance.now();
    surface.dispatchEvent(event);
    ours.push(performance.now() - started);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  surface.dispatchEvent(new PointerEvent('pointerup', { ...at(total), buttons: 0 }));
  const canvas = document.createElement('canvas');
  canvas.width = 1280; canvas.height = 720;
  const context = canvas.getContext('2d');
  const baseline = [];
  const seen = [];
  for (let batch = 0; batch < batches; batch++) {
    for (let k = 0; k < perBatch; k++) seen.push(at(batch * perBatch + k + 1));
    const started = performance.now();
    context.clearRect(0, 0, 1280, 720);
    context.beginPath();
    seen.forEach((point, index) => index === 0 ? context.moveTo(point.clientX, point.clientY) : context.lineTo(point.clientX, point.clientY));
    context.stroke();
    baseline.push(performance.now() - started);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return { ours, baseline };
})()`;

/** In the watching page: the time each change of a shot's picture (or caption) is drawn on its board card. */
const WATCH = `(() => {
  window.frameChanges = { s2: [], s3: [] };
  const last = {};
  new MutationObserver(() => {
    for (const shot of ['s2', 's3']) {
      const frame = document.querySelector('.react-flow__node[data-id="board"] [data-shot-id="' + shot + '"]');
      const now = frame ? (frame.querySelector('img')?.getAttribute('src') ?? '') + '|' + frame.textContent : null;
      if (now !== last[shot]) { last[shot] = now; window.frameChanges[shot].push(performance.timeOrigin + performance.now()); }
    }
  }).observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
})()`;

/** A pen stroke on the editor's surface; answers the wall-clock time of its end (pointerup). */
const ONE_STROKE = (row: number) => `(() => {
  const surface = document.querySelector('.frame-editor-live');
  const box = surface.getBoundingClientRect();
  const at = (share) => ({ clientX: box.left + box.width * (0.1 + 0.8 * share), clientY: box.top + box.height * ${0.1 + (row % 8) * 0.1},
    pressure: 0.6, pointerType: 'pen', pointerId: 42, isPrimary: true, bubbles: true, cancelable: true, button: 0, buttons: 1 });
  surface.dispatchEvent(new PointerEvent('pointerdown', at(0)));
  for (let step = 1; step <= 20; step++) surface.dispatchEvent(new PointerEvent('pointermove', at(step / 20)));
  const ended = performance.timeOrigin + performance.now();
  surface.dispatchEvent(new PointerEvent('pointerup', { ...at(1), buttons: 0 }));
  return ended;
})()`;

/** A caption edit of shot s2 through the layout write (the baseline of a stroke's save); answers when it was sent. */
const CAPTION_EDIT = (row: number) => `(async () => {
  const base = '/api/v2/projects/bench/canvases/draw';
  const snapshot = await (await fetch(base + '/snapshot', { headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } })).json();
  const board = snapshot.layout.nodes.find((node) => node.id === 'board');
  const frames = board.data.frames.map((frame) => frame.id === 's2' ? { ...frame, caption: 'Caption ${row}' } : frame);
  const sent = performance.timeOrigin + performance.now();
  await fetch(base + '/changes', { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-by': 'canvas-mcp' },
    body: JSON.stringify({ base_revision: snapshot.layout.revision, operations: [{ op: 'update_node', node_id: 'board', set: { data: { ...board.data, frames } } }] }) });
  return sent;
})()`;

/** Seeds shot s3 with `count` strokes through the drawing route, 500 a save. */
const SEED_STROKES = (strokes: Stroke[]) => `(async () => {
  const strokes = ${JSON.stringify(strokes)};
  let version = null;
  for (let start = 0; start < strokes.length; start += 500) {
    const response = await fetch('/api/v2/projects/bench/canvases/draw/nodes/board/shots/s3/drawing', {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-by': 'canvas-mcp' },
      body: JSON.stringify({ base_version: version, changes: strokes.slice(start, start + 500).map((stroke) => ({ op: 'add_stroke', layer: 'ink', stroke })) }),
    });
    if (!response.ok) throw new Error('seeding strokes: HTTP ' + response.status + ' ' + await response.text());
    version = (await response.json()).drawing.version;
  }
  return version;
})()`;

const changesOf = (shot: string) => `window.frameChanges.${shot}.length`;

async function waitForChange(page: Page, count: number, shot = 's2'): Promise<number> {
  const handle = await page.waitForFunction(
    `window.frameChanges.${shot}.length > ${count} ? window.frameChanges.${shot}[${count}] : false`,
    undefined,
    { timeout: 30_000 },
  );
  return (await handle.jsonValue()) as number;
}

export async function measureDrawing() {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-draw-'));
  const secrets = await seed(dataDir);
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0', '--log-level', 'warn'],
    join(dataDir, 'serve.log'),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const artist = await signIn(browser, url, secrets[0]!);
    const watcher = await signIn(browser, url, secrets[1]!);

    // Pen batches, in the editor of shot s1.
    await openEditor(artist, 's1');
    const pen = await artist.evaluate<{ ours: number[]; baseline: number[] }>(PEN_BATCHES);
    await closeEditor(artist);

    // A stroke's end to the watcher's board; then the baseline, a caption edit.
    await watcher.evaluate(WATCH);
    await openEditor(artist, 's2');
    let seen = await watcher.evaluate<number>(changesOf('s2'));
    const strokeDelays: number[] = [];
    for (let row = 0; row < STROKES_TO_WATCH; row += 1) {
      const ended = await artist.evaluate<number>(ONE_STROKE(row));
      strokeDelays.push((await waitForChange(watcher, seen)) - ended);
      seen = await watcher.evaluate<number>(changesOf('s2'));
      await artist.waitForFunction(`document.querySelector('.frame-editor')?.dataset.saving === 'false'`);
    }
    await closeEditor(artist);
    seen = await watcher.evaluate<number>(changesOf('s2'));
    const captionDelays: number[] = [];
    for (let row = 0; row < STROKES_TO_WATCH; row += 1) {
      const sent = await artist.evaluate<number>(CAPTION_EDIT(row));
      captionDelays.push((await waitForChange(watcher, seen)) - sent);
      seen = await watcher.evaluate<number>(changesOf('s2'));
    }

    // Opening a frame of 2,000 strokes, and a blank one.
    await artist.evaluate(SEED_STROKES(drawingOf(2000).layers.find((layer) => layer.name === 'ink')!.strokes));
    // A stroke's end to the other page on that 2,000-stroke frame (each save renders every stroke).
    await openEditor(artist, 's3');
    // On the ink layer, where its 2,000 strokes are: each new stroke lands on top of all of them.
    await artist.getByRole('radio', { name: /Ink/ }).check();
    seen = await watcher.evaluate<number>(changesOf('s3'));
    const heavyStrokeDelays: number[] = [];
    for (let row = 0; row < 10; row += 1) {
      const ended = await artist.evaluate<number>(ONE_STROKE(row));
      heavyStrokeDelays.push((await waitForChange(watcher, seen, 's3')) - ended);
      seen = await watcher.evaluate<number>(changesOf('s3'));
      await artist.waitForFunction(`document.querySelector('.frame-editor')?.dataset.saving === 'false'`);
    }
    await closeEditor(artist);
    const heavy: number[] = [];
    const blank: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      heavy.push(await openEditor(artist, 's3'));
      await closeEditor(artist);
      blank.push(await openEditor(artist, 's4'));
      await closeEditor(artist);
    }

    // The render of a shot picture, in this process (what a save costs the server).
    const render = {
      blank: await renderCpuMs(emptyDrawing(null), 10),
      strokes100: await renderCpuMs(drawingOf(100), 10),
      strokes2000: await renderCpuMs(drawingOf(2000), 3),
    };
    return { pen, strokeDelays, heavyStrokeDelays, captionDelays, heavy, blank, render };
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureDrawing();
  const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
  const pair = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;
  const ratio = (ours: number, baseline: number) => `${(ours / baseline).toFixed(1)}×`;
  const lines = [
    '| measure (p50 / p99) | ours | baseline | ratio (p99) | target |',
    '|---|---:|---:|---:|---:|',
    `| pen batch (8 coalesced points) to ink, main thread, stroke growing to 2,000 points | ${pair(figures.pen.ours)} | ${pair(figures.pen.baseline)} (canvas polyline) | ${ratio(percentile(figures.pen.ours, 99), percentile(figures.pen.baseline, 99))} | p99 < 16.7 ms |`,
    `| stroke end → other page's board shows the frame (${figures.strokeDelays.length} strokes) | ${pair(figures.strokeDelays)} | ${pair(figures.captionDelays)} (caption edit) | ${ratio(percentile(figures.strokeDelays, 99), percentile(figures.captionDelays, 99))} | p99 < 150 ms |`,
    `| the same, on a frame of 2,000 strokes, a stroke on top (${figures.heavyStrokeDelays.length} strokes) | ${pair(figures.heavyStrokeDelays)} | ${pair(figures.captionDelays)} (caption edit) | ${ratio(percentile(figures.heavyStrokeDelays, 99), percentile(figures.captionDelays, 99))} | |`,
    `| frame of 2,000 strokes opening in the editor (5 opens) | ${pair(figures.heavy)} | ${pair(figures.blank)} (blank frame) | ${ratio(percentile(figures.heavy, 99), percentile(figures.blank, 99))} | |`,
    `| shot picture rendered, CPU per render, 100 strokes | ${ms(figures.render.strokes100)} | ${ms(figures.render.blank)} (blank frame) | ${ratio(figures.render.strokes100, figures.render.blank)} | |`,
    `| shot picture rendered, CPU per render, 2,000 strokes | ${ms(figures.render.strokes2000)} | ${ms(figures.render.blank)} (blank frame) | ${ratio(figures.render.strokes2000, figures.render.blank)} | |`,
  ];
  process.stdout.write(`\nDrawing on a frame (${new Date().toISOString().slice(0, 10)})\n\n${lines.join('\n')}\n`);
}
