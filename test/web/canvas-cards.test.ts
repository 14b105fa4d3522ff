import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCardOfEveryType } from '../support/demo-stage.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, NODE_TYPES } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { WALL, card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { FRAME_META, MINIMAL_DATA, MINIMAL_DIRECTOR_BUNDLE } from '../support/node-fixtures.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { chooseOption, chosenValue } from '../support/controls.js';

/** Every node type has a readable card; data a card does not expect never takes the page down (real Chromium). */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

/** What each card must show of its data: a piece of text from it. */
const RICH_DATA: Partial<Record<string, { data: Record<string, unknown>; shows: string }>> = {
  imageGenNode: {
    data: {
      ...MINIMAL_DATA.imageGenNode,
      displayName: 'Wide shot',
      model: 'flux-pro',
      count: 4,
      director_control_bundle: { ...MINIMAL_DIRECTOR_BUNDLE, frame_meta: FRAME_META },
    },
    shows: 'flux-pro',
  },
  audioNode: {
    data: { audioUrl: null, text: 'The sea had been waiting.', audioKind: 'speech', durationMs: 4200 },
    shows: '4.2 s',
  },
  storyboardNode: {
    data: { frames: [{ id: 'f1', imageUrl: null, caption: 'Mara at the door' }] },
    shows: 'Mara at the door',
  },
  videoStoryNode: {
    data: { shots: [{ id: 's1', prompt: 'waves at night', durationMs: 2000 }] },
    shows: 'waves at night',
  },
  skillNode: {
    data: { skill_id: 'zone.frame_from_context', parameters: { quality: 'high' } },
    shows: 'Frame from context',
  },
  scriptNode: {
    data: { scriptTitle: 'The lighthouse', scriptResult: { scenes: ['INT. LIGHTHOUSE - NIGHT'] } },
    shows: 'INT. LIGHTHOUSE - NIGHT',
  },
  beatContextNode: { data: { episode: 2, beat: 7, content: 'The lamp fails.' }, shows: 'Episode 2' },
  pano360ViewerNode: { data: { ...MINIMAL_DATA.pano360ViewerNode, fovDeg: 75 }, shows: 'FOV 75°' },
  threeDWorldNode: { data: { sources: [{ source_type: 'mesh' }, { source_type: 'pano360' }] }, shows: '2 sources' },
};

describe('the web canvas: node cards', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await addCardOfEveryType(server.store, 'all', (type) => RICH_DATA[type]?.data ?? MINIMAL_DATA[type]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders a card for each of the 18 node types, showing what matters for it', async () => {
    const { context, page, errors } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
    );
    try {
      await page.locator('.feed-live').waitFor();
      for (const type of NODE_TYPES) {
        await card(page, `all-${type}`).locator(`[data-node-type="${type}"]`).waitFor({ timeout: 3000 });
        const shows = RICH_DATA[type]?.shows;
        if (shows)
          await card(page, `all-${type}`).getByText(shows).first().waitFor({ state: 'attached', timeout: 3000 });
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
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    try {
      await page.locator('.feed-live').waitFor();
      // Fit may open a large board on its busiest part, as titles (readable down to 30 %); zoomed out past the
      // overview level, every card is its title, and zoomed in again they are drawn in full.
      await page.locator('.react-flow__node').first().waitFor();
      for (let step = 0; step < 6; step += 1) await page.locator('.react-flow__controls-zoomout').click();
      await page.locator('.card-overview').first().waitFor();
      await expect(card(page, 'frame-1').locator('.card-overview .card-title').textContent()).resolves.toBe('Frame 1');
      for (let step = 0; step < 10; step += 1) await page.locator('.react-flow__controls-zoomin').click();
      await waitFor(
        () => page.locator('.card-overview').count(),
        (count) => count === 0,
      );
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
        const garbage = [
          null,
          'text',
          42,
          [1, 2],
          {
            prompt: { nested: true },
            frames: 'none',
            shots: 7,
            clips: null,
            sources: {},
            parameters: [],
            count: 'many',
          },
        ];
        snapshot.layout.nodes = snapshot.layout.nodes.map((node, index) => ({
          ...node,
          data: garbage[index % garbage.length],
        }));
        snapshot.layout.nodes.push({
          id: 'from-the-future',
          type: 'hologramNode',
          position: { x: 0, y: 700 },
          data: { displayName: 'Hologram' },
        });
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

  it('never fetches a sign-in link, an API route or another site that an agent wrote as an image URL, and says so on the card', async () => {
    const victim = { issuer: 'https://idp.example', subject: 'victim' };
    await server.store.projects.addMember('demo', victim, 'editor');
    const linkSecret = await server.store.sessions.createLoginLink(DEMO_OWNER, { expiresInMs: 60_000 });
    const urls = {
      'lure-login': `/auth/login?token=${linkSecret}`,
      'lure-api': '/api/v2/projects/demo/canvases/main/revert',
      'lure-remote': 'https://evil.example/pixel.png',
    };
    let revision = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
    for (const [index, [id, imageUrl]] of Object.entries(urls).entries()) {
      const node = CanvasNode.parse({
        id,
        type: 'imageNode',
        position: { x: 200 + index * 320, y: 1800 },
        data: { ...MINIMAL_DATA.imageNode, imageUrl },
      });
      await server.store.writes.createNode(
        {
          projectId: 'demo',
          canvasId: 'main',
          baseRevision: revision++,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        node,
      );
    }
    const { context, page, errors } = await signIn(
      browser,
      server,
      victim,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
    );
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname + new URL(request.url()).search));
    try {
      await page.locator('.feed-live').waitFor();
      for (const id of Object.keys(urls)) {
        await card(page, id).scrollIntoViewIfNeeded();
        await card(page, id).getByText('Image not shown: it is not on this server').waitFor({ timeout: 3000 });
      }
      expect(fetched.filter((path) => path.startsWith('/auth/login') || path.includes('/revert'))).toEqual([]);
      // The link is still unspent: its owner can use it, and the victim's browser is still the victim's.
      const me = (await page.evaluate(async () => (await fetch('/api/v1/me')).json())) as {
        person: { subject: string };
      };
      expect(me.person.subject).toBe('victim');
      expect((await server.store.sessions.peekLoginLink(linkSecret)).person).toEqual(DEMO_OWNER);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** A node as the server has it now, and the revision of the canvas (read after the node, so never older than it). */
  const readBack = async (nodeId: string) => {
    const node = (await server.store.layout.readNode('demo', 'main', nodeId))?.node;
    const revision = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
    return { node, revision };
  };
  /** A write as the system, on the canvas as it is now. */
  const write = async () => ({
    projectId: 'demo',
    canvasId: 'main',
    baseRevision: (await server.store.layout.readCanvas('demo', 'main'))!.revision,
    clientSaveId: null,
    authorization: SYSTEM_WRITE,
  });

  it("shows a skill's parameters as a form from the catalog's JSON Schema, and saves a changed choice at revision + 1", async () => {
    const { context, page, errors } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
    );
    try {
      await page.locator('.feed-live').waitFor();
      // zone.sketch_from_context takes one parameter, aspect_ratio, an enum of '2:3' and '16:9' (the demo sets 16:9).
      const form = card(page, 'sketch-1').locator('.skill-form');
      await form.waitFor();
      await expect(form.locator('.skill-field').count()).resolves.toBe(1);
      const select = form.getByRole('combobox', { name: 'aspect ratio', exact: true });
      await expect(chosenValue(select)).resolves.toBe('16:9');
      await select.click();
      await expect(page.getByRole('listbox').getByRole('option').allTextContents()).resolves.toEqual([
        'default',
        '2:3',
        '16:9',
      ]);
      await page.keyboard.press('Escape');

      const before = await readBack('sketch-1');
      expect(before.node?.data).toMatchObject({ parameters: { aspect_ratio: '16:9' } });
      await chooseOption(select, null, '2:3');
      const after = await waitFor(
        () => readBack('sketch-1'),
        (now) => now.revision > before.revision,
      );
      expect(after.revision).toBe(before.revision + 1);
      expect((after.node?.data as { parameters?: unknown }).parameters).toEqual({ aspect_ratio: '2:3' });
      // The card shows the choice once the page has the write back.
      await waitFor(
        () => chosenValue(select),
        (value) => value === '2:3',
      );

      // Back to "default": the parameter is removed, not set to an empty string.
      await chooseOption(select, null, 'default');
      const cleared = await waitFor(
        () => readBack('sketch-1'),
        (now) => now.revision > after.revision,
      );
      expect(cleared.revision).toBe(after.revision + 1);
      expect((cleared.node?.data as { parameters?: unknown }).parameters).toEqual({});
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("edits an image generator's prompt in place on its card: the server has the new prompt at revision + 1 and the card shows it", async () => {
    const { context, page, errors } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
    );
    try {
      await page.locator('.feed-live').waitFor();
      const before = await readBack('frame-1');
      const old = (before.node?.data as { prompt: string }).prompt;
      const prompt = 'The lamp gutters; Mara shields it with her coat, close-up, cold blue light';
      await card(page, 'frame-1')
        .getByRole('button', { name: /^Edit prompt: / })
        .click();
      const field = card(page, 'frame-1').getByRole('textbox', { name: 'prompt' });
      await expect(field.inputValue()).resolves.toBe(old);
      await field.fill(prompt);
      await field.press('Control+Enter');
      await field.waitFor({ state: 'detached' });

      const after = await waitFor(
        () => readBack('frame-1'),
        (now) => now.revision > before.revision,
      );
      expect(after.revision).toBe(before.revision + 1);
      expect(after.node?.data).toMatchObject({ prompt, displayName: 'Frame 1' });
      await waitFor(
        () => card(page, 'frame-1').locator('.editable.prompt').textContent(),
        (shown) => shown === prompt,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("draws a group's child inside the group's frame, placed relative to the group, and drags the child along with the group", async () => {
    // Relative to the group, the child sits at (40, 60); taken as a position on the canvas, that would be far outside
    // the group (inside the demo's act-1), so a child not placed in its parent fails the check.
    const group = CanvasNode.parse({
      id: 'holder',
      type: 'groupNode',
      position: { x: 0, y: 700 },
      width: 700,
      height: 420,
      data: { label: 'Holder' },
    });
    const child = CanvasNode.parse({
      id: 'held',
      type: 'textAnnotationNode',
      parentId: 'holder',
      extent: 'parent',
      position: { x: 40, y: 60 },
      data: { displayName: 'Held', content: 'inside the holder' },
    });
    await server.store.writes.createNode(await write(), group);
    await server.store.writes.createNode(await write(), child);
    const { context, page, errors } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
    );
    try {
      await page.locator('.feed-live').waitFor();
      await card(page, 'held').getByText('inside the holder').waitFor();
      await card(page, 'holder').locator('.group-frame').waitFor();
      const frame = (await card(page, 'holder').boundingBox())!;
      const held = (await card(page, 'held').boundingBox())!;
      const zoom = frame.width / 700;
      expect(held.x).toBeGreaterThan(frame.x);
      expect(held.y).toBeGreaterThan(frame.y);
      expect(held.x + held.width).toBeLessThan(frame.x + frame.width);
      expect(held.y + held.height).toBeLessThan(frame.y + frame.height);
      expect(Math.abs(held.x - frame.x - 40 * zoom)).toBeLessThanOrEqual(1);
      expect(Math.abs(held.y - frame.y - 60 * zoom)).toBeLessThanOrEqual(1);

      // Dragging the group by an empty part of its frame takes the child along: one revision moves the group, the
      // child keeps its place in it.
      const before = await readBack('holder');
      const grab = { x: frame.x + frame.width * 0.75, y: frame.y + frame.height * 0.75 };
      await page.mouse.move(grab.x, grab.y);
      await page.mouse.down();
      await page.mouse.move(grab.x + 60, grab.y + 80, { steps: 8 });
      await page.mouse.up();
      const after = await waitFor(
        () => readBack('holder'),
        (now) => now.revision > before.revision,
      );
      expect(after.revision).toBe(before.revision + 1);
      expect(after.node!.position.x).toBeGreaterThan(before.node!.position.x + 20);
      expect(after.node!.position.y).toBeGreaterThan(before.node!.position.y + 30);
      expect((await readBack('held')).node).toMatchObject({ parentId: 'holder', position: { x: 40, y: 60 } });
      const moved = (await card(page, 'holder').boundingBox())!;
      const carried = (await card(page, 'held').boundingBox())!;
      expect(moved.y).toBeGreaterThan(frame.y + 30);
      expect(Math.abs(carried.x - held.x - (moved.x - frame.x))).toBeLessThanOrEqual(1);
      expect(Math.abs(carried.y - held.y - (moved.y - frame.y))).toBeLessThanOrEqual(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await server.store.writes.deleteNode(await write(), 'held');
      await server.store.writes.deleteNode(await write(), 'holder');
    }
  });
});
