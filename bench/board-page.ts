import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CanvasNode } from '../src/contract/index.js';
import { SYSTEM_WRITE } from '../src/store/edit-authorization.js';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { ROOT, startProcess } from './processes.js';

/**
 * `npm run bench` (part): the board page (docs/ui.md, "The board page"; docs/performance.md, "The board page") in
 * Debian's headless Chromium against the built server on SQLite, each figure beside a baseline measured in the same
 * run:
 *
 * - a 300-shot board's first frames on screen, from the start of navigation to its URL to the grid's first rows drawn
 *   and the feed live (five fresh visits); baseline: the canvas page opening the same board (its card's frames drawn);
 * - scrolling the grid from its first shot to its last with the wheel, counting the frames dropped (the gaps between
 *   animation frames longer than one 60 Hz frame, in frames); baseline: the List view (the shot list, every row in the
 *   page) scrolled end to end the same way.
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const CHROMIUM = process.env.CANVAS_MCP_CHROMIUM ?? '/usr/bin/chromium';
const PERSON = { issuer: 'bench', subject: 'bench-boarder' };
const SHOTS = 300;
const VISITS = 5;
const FRAME_MS = 1000 / 60;

async function seed(dataDir: string): Promise<string[]> {
  const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
  await store.projects.createWorkspace('bench');
  await store.projects.createProject('bench', 'bench');
  await store.projects.addMember('bench', PERSON, 'editor');
  await store.projects.createCanvas('bench', 'film', false);
  await store.writes.createNode(
    { projectId: 'bench', canvasId: 'film', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
    CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: {
        title: 'Feature',
        aspectRatio: '16:9',
        frames: Array.from({ length: SHOTS }, (_, index) => ({
          id: `s${index + 1}`,
          imageUrl: null,
          number: String(index + 1),
          caption: `Shot ${index + 1}: the keeper climbs the stairs as the storm hits`,
          action: 'Mara turns to the sea; the lamp flickers.',
          dialogue: index % 3 === 0 ? 'MARA: It is still burning.' : undefined,
          durationMs: 3000,
          status: 'draft',
        })),
      },
    }),
  );
  const secrets: string[] = [];
  for (let index = 0; index < 2 * VISITS + 2; index += 1)
    secrets.push(await store.sessions.createLoginLink(PERSON, { expiresInMs: 3_600_000 }));
  await store.close();
  return secrets;
}

/**
 * What runs in the page, as source text (tsx would rename functions passed in); the bench's contexts bypass the
 * page's content-security policy for these probes only.
 */
const PAGE = {
  gridDrawn: `document.querySelectorAll('.board-frame').length >= 4 && document.querySelector('.feed-live') !== null`,
  cardDrawn: `document.querySelectorAll('.react-flow__node[data-id="board"] figure.frame').length >= 4 && document.querySelector('.feed-live') !== null`,
  nextFrameTime: `new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))`,
  recordFrameGaps: `(() => {
    const gaps = [];
    let last = performance.now();
    const tick = (now) => { gaps.push(now - last); last = now; if (!window.stopGaps) requestAnimationFrame(tick); };
    window.stopGaps = false;
    requestAnimationFrame(tick);
    window.frameGaps = gaps;
  })()`,
  stopFrameGaps: `(() => { window.stopGaps = true; return window.frameGaps; })()`,
  atEnd: (selector: string) =>
    `(() => { const e = document.querySelector(${JSON.stringify(selector)}); return e.scrollTop + e.clientHeight >= e.scrollHeight - 2; })()`,
  frames: `document.querySelectorAll('.board-frame').length`,
  lastShown: (selector: string) =>
    `(() => { const e = document.querySelector(${JSON.stringify(selector)}); return e && e.getBoundingClientRect().top < innerHeight; })()`,
};

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function signedIn(browser: Browser, url: string, secret: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${url}/auth/login?token=${secret}`);
  await Promise.all([
    page.waitForURL((next) => next.pathname !== '/auth/login'),
    page.getByRole('button', { name: /^Sign in as / }).click(),
  ]);
  return page;
}

/** From the start of navigation to `drawn` holding, then the next frame painted: ms on the page's own clock. */
async function firstFrames(browser: Browser, url: string, secret: string, path: string, drawn: string) {
  const page = await signedIn(browser, url, secret);
  try {
    await page.goto(`${url}${path}`);
    await page.waitForFunction(drawn, undefined, { timeout: 30_000 });
    return await page.evaluate<number>(PAGE.nextFrameTime);
  } finally {
    await page.context().close();
  }
}

interface Scroll {
  ms: number;
  frames: number;
  dropped: number;
  longestGapMs: number;
  maxFramesInPage?: number;
}

/** Scrolls `selector` from top to bottom with the wheel (one notch a frame), recording the frames of the page. */
async function scrollEndToEnd(page: Page, selector: string, last: string, counting: boolean): Promise<Scroll> {
  const box = (await page.locator(selector).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(PAGE.recordFrameGaps);
  const started = Date.now();
  let maxFramesInPage = 0;
  while (!(await page.evaluate<boolean>(PAGE.atEnd(selector)))) {
    await page.mouse.wheel(0, 240);
    await page.evaluate(PAGE.nextFrameTime);
    if (counting) maxFramesInPage = Math.max(maxFramesInPage, await page.evaluate<number>(PAGE.frames));
    if (Date.now() - started > 120_000) throw new Error(`${selector} did not reach its end in 2 minutes`);
  }
  await page.waitForFunction(PAGE.lastShown(last), undefined, { timeout: 10_000 });
  const ms = Date.now() - started;
  const gaps = (await page.evaluate<number[]>(PAGE.stopFrameGaps)).slice(1);
  const dropped = gaps.reduce((sum, gap) => sum + Math.max(0, Math.round(gap / FRAME_MS) - 1), 0);
  return {
    ms,
    frames: gaps.length,
    dropped,
    longestGapMs: Math.max(...gaps),
    ...(counting ? { maxFramesInPage } : {}),
  };
}

export async function measureBoardPage() {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-board-'));
  const secrets = await seed(dataDir);
  const { child, url } = await startProcess(
    [CLI, 'serve', '--data', dataDir, '--port', '0', '--rate-limit', '0', '--workers', '0', '--log-level', 'warn'],
    join(dataDir, 'serve.log'),
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  const board = '/p/bench/c/film/board/board';
  try {
    // Alternate the two pages, so neither has the warmer server or browser.
    const grid: number[] = [];
    const canvas: number[] = [];
    for (let visit = 0; visit < VISITS; visit += 1) {
      grid.push(await firstFrames(browser, url, secrets[2 * visit]!, board, PAGE.gridDrawn));
      canvas.push(await firstFrames(browser, url, secrets[2 * visit + 1]!, '/p/bench/c/film', PAGE.cardDrawn));
    }

    const page = await signedIn(browser, url, secrets[2 * VISITS]!);
    await page.goto(`${url}${board}`);
    await page.waitForFunction(PAGE.gridDrawn, undefined, { timeout: 30_000 });
    const gridScroll = await scrollEndToEnd(page, '.board-grid-scroll', `[data-frame-id="s${SHOTS}"]`, true);
    await page.goto(`${url}${board}?view=list`);
    await page
      .locator('.shot-table tbody tr')
      .nth(SHOTS - 1)
      .waitFor({ state: 'attached', timeout: 30_000 });
    const listScroll = await scrollEndToEnd(page, '.shot-table-wrap', `tr[data-shot-id="s${SHOTS}"]`, false);
    await page.context().close();
    return { grid, canvas, gridScroll, listScroll };
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { grid, canvas, gridScroll, listScroll } = await measureBoardPage();
  const visits = (values: number[]) => values.map((ms) => ms.toFixed(0)).join(', ');
  const scroll = (figures: Scroll) =>
    `${figures.dropped} of ${figures.frames + figures.dropped} (${figures.ms.toLocaleString('en')} ms, longest gap ${figures.longestGapMs.toFixed(0)} ms)`;
  const lines = [
    '| measure | board page | baseline | ratio |',
    '|---|---:|---:|---:|',
    `| ${SHOTS}-shot board, navigation → first frames on screen (median of ${VISITS}) | ${median(grid).toFixed(0)} ms (${visits(grid)}) | ${median(canvas).toFixed(0)} ms (${visits(canvas)}), canvas page | ${(median(grid) / median(canvas)).toFixed(2)}× |`,
    `| scrolled end to end: frames dropped | ${scroll(gridScroll)}, Grid | ${scroll(listScroll)}, List | |`,
    `| frame elements in the page while scrolling (most) | ${gridScroll.maxFramesInPage} of ${SHOTS} | ${SHOTS} rows, List | |`,
  ];
  process.stdout.write(`\nboard page (headless Chromium):\n${lines.join('\n')}\n`);
}
