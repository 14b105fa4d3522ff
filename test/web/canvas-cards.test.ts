import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/canvas/edit-authorization.js';
import { CanvasNode, NODE_TYPES } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { WALL, card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { FRAME_META, MINIMAL_DATA, MINIMAL_DIRECTOR_BUNDLE } from '../support/node-fixtures.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/** Every node type has a readable card; data a card does not expect never takes the page down (real Chromium). */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

/** What each card must show of its data: a piece of text from it. */
const RICH_DATA: Partial<Record<string, { data: Record<string, unknown>; shows: string }>> = {
  imageGenNode: {
    data: { ...MINIMAL_DATA.imageGenNode, displayName: 'Wide shot', model: 'flux-pro', count: 4, director_control_bundle: { ...MINIMAL_DIRECTOR_BUNDLE, frame_meta: FRAME_META } },
    shows: 'flux-pro',
  },
  audioNode: { data: { audioUrl: null, text: 'The sea had been waiting.', audioKind: 'speech', durationMs: 4200 }, shows: '4.2 s' },
  storyboardNode: { data: { frames: [{ id: 'f1', imageUrl: null, caption: 'Mara at the door' }] }, shows: 'Mara at the door' },
  videoStoryNode: { data: { shots: [{ id: 's1', prompt: 'waves at night', durationMs: 2000 }] }, shows: 'waves at night' },
  skillNode: { data: { skill_id: 'zone.frame_from_context', parameters: { quality: 'high' } }, shows: 'Frame from context' },
  scriptNode: { data: { scriptTitle: 'The lighthouse', scriptResult: { scenes: ['INT. LIGHTHOUSE - NIGHT'] } }, shows: 'INT. LIGHTHOUSE - NIGHT' },
  beatContextNode: { data: { episode: 2, beat: 7, content: 'The lamp fails.' }, shows: 'Episode 2' },
  pano360ViewerNode: { data: { ...MINIMAL_DATA.pano360ViewerNode, fovDeg: 75 }, shows: 'FOV 75°' },
  threeDWorldNode: { data: { sources: [{ source_type: 'mesh' }, { source_type: 'pano360' }] }, shows: '2 sources' },
};

describe('the web canvas: node cards', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    let revision = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
    for (const [index, type] of NODE_TYPES.entries()) {
      const data = RICH_DATA[type]?.data ?? MINIMAL_DATA[type];
      const node = CanvasNode.parse({ id: `all-${type}`, type, position: { x: 1200 + (index % 6) * 380, y: (Math.floor(index / 6)) * 420 }, data });
      await server.store.writes.createNode({ projectId: 'demo', canvasId: 'main', baseRevision: revision++, clientSaveId: null, authorization: SYSTEM_WRITE }, node);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders a card for each of the 18 node types, showing what matters for it', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' }, WALL);
    try {
      await page.locator('.feed-live').waitFor();
      for (const type of NODE_TYPES) {
        await card(page, `all-${type}`).locator(`[data-node-type="${type}"]`).waitFor({ timeout: 3000 });
        const shows = RICH_DATA[type]?.shows;
        if (shows) await card(page, `all-${type}`).getByText(shows).first().waitFor({ state: 'attached', timeout: 3000 });
      }
      await expect(card(page, 'all-imageGenNode').locator('.director').textContent()).resolves.toContain('0 actors');
      await expect(page.locator('.card-broken').count()).resolves.toBe(0);
      await expect(page.locator('.card-overview').count()).resolves.toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws cards as titles when zoomed far out, and in full when zoomed in again', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' });
    try {
      await page.locator('.feed-live').waitFor();
      await page.locator('.card-overview').first().waitFor();
      await expect(card(page, 'frame-1').locator('.card-overview .card-title').textContent()).resolves.toBe('Frame 1');
      for (let step = 0; step < 6; step += 1) await page.locator('.react-flow__controls-zoomin').click();
      await waitFor(() => page.locator('.card-overview').count(), (count) => count === 0);
      expect(await page.locator('.card .card-body').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows data it does not expect and a node type it does not know without crashing the page', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null, WALL);
    try {
      // Every node's data replaced by values of the wrong kinds, as an older or newer server might send.
      await page.route('**/snapshot', async (route) => {
        const response = await route.fetch();
        const snapshot = (await response.json()) as { layout: { nodes: Array<Record<string, unknown>> } };
        const garbage = [null, 'text', 42, [1, 2], { prompt: { nested: true }, frames: 'none', shots: 7, clips: null, sources: {}, parameters: [], count: 'many' }];
        snapshot.layout.nodes = snapshot.layout.nodes.map((node, index) => ({ ...node, data: garbage[index % garbage.length] }));
        snapshot.layout.nodes.push({ id: 'from-the-future', type: 'hologramNode', position: { x: 0, y: 700 }, data: { displayName: 'Hologram' } });
        await route.fulfill({ response, json: snapshot });
      });
      await page.goto(`${server.url}/p/demo/c/main`);
      await card(page, 'from-the-future').getByText('does not know the node type').waitFor();
      await expect(page.locator('.react-flow__node').count()).resolves.toBeGreaterThanOrEqual(NODE_TYPES.length + 7);
      const shot = await screenshot(page, 'canvas-unexpected-data');
      expect(shot.inkRatio).toBeGreaterThan(0.05);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
