import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousFindings } from '../support/axe.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { card, openLink, screenshot, signIn } from '../support/browser.js';
import { structured } from '../support/mcp.js';
import { api, signInWithLink, type TestServer } from '../support/servers.js';
import { startDemoStage, type DemoStage } from '../support/demo-stage.js';
import { waitFor } from '../support/wait.js';

/**
 * The web canvas in real Chromium against the real server (SQLite, the demo seeded as on a first start): a person
 * signs in with a login link and edits while an agent (the official MCP SDK client) edits the same canvas.
 */

const CANVAS = { project_id: 'demo', canvas_id: 'main' };

interface Layout {
  revision: number;
  nodes: Array<{
    id: string;
    type: string;
    position: { x: number; y: number };
    data: Record<string, unknown>;
    parentId?: string;
    width?: number;
    height?: number;
  }>;
}

describe('the web canvas: people and agents editing together', () => {
  let server: TestServer;
  let browser: Browser;
  let agent: Client;

  const read = async (): Promise<Layout> =>
    structured<{ layout: Layout }>(await agent.callTool({ name: 'get_canvas', arguments: CANVAS })).layout;
  const nodeOf = (layout: Layout, id: string) => layout.nodes.find((node) => node.id === id);

  let stage: DemoStage | undefined;

  beforeAll(async () => {
    stage = await startDemoStage();
    ({ server, agent, browser } = stage);
  });
  afterAll(async () => stage?.close());

  const openCanvas = async (): Promise<{
    context: BrowserContext;
    page: Page;
    errors: string[];
    close(): Promise<void>;
  }> => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    await page.locator('.feed-live').waitFor();
    return { context, page, errors, close: () => context.close() };
  };

  it('signs in through the first start link and shows the demo canvas by its display names', async () => {
    const { context, page, errors } = await openLink(
      browser,
      `${server.url}/auth/login?token=${server.server.demo!.loginSecret}`,
    );
    try {
      await page.waitForURL(/\/p\/demo\/c\/main$/);
      for (const name of [
        'Act I: the storm',
        'Beat 1',
        'Director note',
        'Frame 1',
        'Narration',
        'Sketch from context',
      ]) {
        await page.getByText(name, { exact: true }).first().waitFor();
      }
      await expect(page.locator('.react-flow__edge').count()).resolves.toBe(3);
      const shot = await screenshot(page, 'canvas-demo');
      expect(shot.inkRatio).toBeGreaterThan(0.05);
      expect(shot.colours).toBeGreaterThan(50);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists the canvases a signed-in person can open, and opens one', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null);
    try {
      await page.getByRole('heading', { name: 'Your canvases' }).waitFor();
      await expect(page.locator('.project .role').first().textContent()).resolves.toBe('owner');
      const shot = await screenshot(page, 'home');
      expect(shot.inkRatio).toBeGreaterThan(0.01);
      await page.getByRole('link', { name: 'main' }).click();
      await page.waitForURL(/\/p\/demo\/c\/main$/);
      await page.locator('.feed-live').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a node an agent creates within 2 s without a reload, named after the agent, and removes it when the agent deletes it', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      const before = await read();
      const node = {
        id: 'agent-note',
        type: 'textAnnotationNode',
        position: { x: 420, y: 580 },
        data: { displayName: 'From the agent', content: 'Added live' },
      };
      const started = Date.now();
      const created = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...CANVAS, base_revision: before.revision, node },
      });
      expect(created.isError).toBeFalsy();
      await card(page, 'agent-note').waitFor({ timeout: 2000 });
      expect(Date.now() - started).toBeLessThan(2000);
      await expect(card(page, 'agent-note').locator('.card-author').textContent()).resolves.toContain('demo-agent');
      await screenshot(page, 'canvas-agent-edit');

      const deleted = await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...CANVAS, base_revision: before.revision + 1, node_id: 'agent-note' },
      });
      expect(deleted.isError).toBeFalsy();
      await card(page, 'agent-note').waitFor({ state: 'detached', timeout: 2000 });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps two tabs of one person live at once (no request of one waits on the other)', async () => {
    const { context, page, close } = await openCanvas();
    try {
      const second = await context.newPage();
      await second.goto(`${server.url}/p/demo/c/main`);
      await second.locator('.feed-live').waitFor({ timeout: 3000 });
      const before = await read();
      const node = {
        id: 'both-tabs',
        type: 'textAnnotationNode',
        position: { x: 420, y: 700 },
        data: { content: 'seen twice' },
      };
      expect(
        (
          await agent.callTool({
            name: 'create_canvas_node',
            arguments: { ...CANVAS, base_revision: before.revision, node },
          })
        ).isError,
      ).toBeFalsy();
      await card(page, 'both-tabs').waitFor({ timeout: 2000 });
      await card(second, 'both-tabs').waitFor({ timeout: 2000 });
    } finally {
      await close();
    }
  });

  it('tells the person when an agent adds a node outside the view, and shows it on request', async () => {
    const { page, close } = await openCanvas();
    try {
      const before = await read();
      const node = {
        id: 'far-away',
        type: 'textAnnotationNode',
        position: { x: 9000, y: 7000 },
        data: { displayName: 'Far away', content: 'out of view' },
      };
      expect(
        (
          await agent.callTool({
            name: 'create_canvas_node',
            arguments: { ...CANVAS, base_revision: before.revision, node },
          })
        ).isError,
      ).toBeFalsy();
      const notice = page.locator('.notice', { hasText: 'demo-agent (agent) added "Far away"' });
      await notice.waitFor();
      // Outside the view, its card is not drawn (React Flow draws a new node once, to measure it, then drops it).
      await waitFor(
        () => card(page, 'far-away').count(),
        (count) => count === 0,
      );
      await notice.getByRole('button', { name: 'Show' }).click();
      await card(page, 'far-away').getByText('out of view').waitFor();
    } finally {
      await close();
      // The canvas is shared by the tests of this file: a node this far out would zoom every later page out.
      const now = await read();
      await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...CANVAS, base_revision: now.revision, node_id: 'far-away' },
      });
    }
  });

  it("moves a node by drag: the agent's next read has the new position at revision + 1 and the history names the person", async () => {
    const { page, close } = await openCanvas();
    try {
      const before = await read();
      const box = (await card(page, 'voice-1').locator('.card-head').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 120, { steps: 8 });
      await page.mouse.up();

      const after = await waitFor(read, (layout) => layout.revision > before.revision);
      expect(after.revision).toBe(before.revision + 1);
      const moved = nodeOf(after, 'voice-1')!.position;
      expect(moved.y).toBeGreaterThan(nodeOf(before, 'voice-1')!.position.y + 40);
      expect(moved.x).toBeGreaterThan(nodeOf(before, 'voice-1')!.position.x + 20);

      const history = (await page.evaluate(async () =>
        (await fetch('/api/v2/projects/demo/canvases/main/history?limit=1')).json(),
      )) as { revisions: unknown[] };
      expect(history.revisions[0]).toMatchObject({
        revision: after.revision,
        author: { kind: 'person', subject: DEMO_OWNER.subject },
      });
      await page.getByRole('tab', { name: 'History' }).click();
      await expect(
        page.locator(`.history-entry[data-revision="${after.revision}"] .history-author`).textContent(),
      ).resolves.toBe(DEMO_OWNER.subject);
    } finally {
      await close();
    }
  });

  it('edits a text note in place, and adds a node from the palette', async () => {
    const { page, close } = await openCanvas();
    try {
      await card(page, 'note-1').locator('.editable').click();
      const field = card(page, 'note-1').locator('textarea');
      await field.fill('Keep the lamp warm; everything else cold blue.');
      await field.press('Control+Enter');
      await waitFor(
        read,
        (layout) => nodeOf(layout, 'note-1')?.data.content === 'Keep the lamp warm; everything else cold blue.',
      );

      const before = await read();
      await page.locator('.palette').getByRole('button', { name: 'Image generator' }).click();
      const after = await waitFor(read, (layout) => layout.nodes.length === before.nodes.length + 1);
      const added = after.nodes.find((node) => !nodeOf(before, node.id))!;
      expect(added).toMatchObject({ type: 'imageGenNode', data: { displayName: 'Frame', size: '1K', imageUrl: null } });
      await card(page, added.id).waitFor();
    } finally {
      await close();
    }
  });

  it("re-applies the person's drag when an agent wrote between the page's read and the drag: both changes land", async () => {
    const { page, errors, close } = await openCanvas();
    try {
      const before = await read();
      let agentWrote = false;
      // The agent writes after the page built its request on the revision it showed, before the request arrives.
      await page.route('**/changes', async (route) => {
        if (!agentWrote) {
          agentWrote = true;
          const node = {
            id: 'meanwhile',
            type: 'textAnnotationNode',
            position: { x: 1200, y: 0 },
            data: { content: 'written meanwhile' },
          };
          const created = await agent.callTool({
            name: 'create_canvas_node',
            arguments: { ...CANVAS, base_revision: before.revision, node },
          });
          expect(created.isError).toBeFalsy();
        }
        await route.continue();
      });
      const conflicts: number[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/changes') && response.status() === 409) conflicts.push(409);
      });
      const box = (await card(page, 'sketch-1').locator('.card-head').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 200, { steps: 8 });
      await page.mouse.up();

      const after = await waitFor(read, (layout) => layout.revision >= before.revision + 2);
      expect(after.revision).toBe(before.revision + 2);
      expect(conflicts).toEqual([409]);
      expect(nodeOf(after, 'meanwhile')).toBeDefined();
      expect(nodeOf(after, 'sketch-1')!.position.y).toBeGreaterThan(nodeOf(before, 'sketch-1')!.position.y + 100);
      await card(page, 'meanwhile').waitFor();
      await expect(page.locator('.notice-error').count()).resolves.toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps what the person was typing when an agent deletes the note meanwhile, and says who deleted it', async () => {
    const { page, close } = await openCanvas();
    try {
      const before = await read();
      const node = {
        id: 'doomed',
        type: 'textAnnotationNode',
        position: { x: 420, y: 760 },
        data: { content: 'draft me' },
      };
      expect(
        (
          await agent.callTool({
            name: 'create_canvas_node',
            arguments: { ...CANVAS, base_revision: before.revision, node },
          })
        ).isError,
      ).toBeFalsy();
      await card(page, 'doomed').locator('.editable').click();
      await card(page, 'doomed').locator('textarea').fill('A line I do not want to lose');
      expect(
        (
          await agent.callTool({
            name: 'delete_canvas_node',
            arguments: { ...CANVAS, base_revision: before.revision + 1, node_id: 'doomed' },
          })
        ).isError,
      ).toBeFalsy();

      const notice = page.locator('.notice', { hasText: 'was deleted by demo-agent (agent)' });
      await notice.waitFor();
      await expect(notice.locator('textarea').inputValue()).resolves.toBe('A line I do not want to lose');
      expect((await read()).revision).toBe(before.revision + 2);
    } finally {
      await close();
    }
  });

  it('resizes a node with its handle and pastes a copy of the selection as one revision', async () => {
    const { page, close } = await openCanvas();
    try {
      const before = await read();
      await card(page, 'voice-1').locator('.card-head').click();
      const handle = card(page, 'voice-1').locator('.react-flow__resize-control.bottom.right');
      const box = (await handle.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 80, box.y + 60, { steps: 6 });
      await page.mouse.up();
      const resized = await waitFor(read, (layout) => nodeOf(layout, 'voice-1')?.width !== undefined);
      expect(resized.revision).toBe(before.revision + 1);
      expect(nodeOf(resized, 'voice-1')!.width).toBeGreaterThan(280);

      await page.keyboard.press('Control+c');
      await page.keyboard.press('Control+v');
      const pasted = await waitFor(read, (layout) => layout.revision > resized.revision);
      expect(pasted.revision).toBe(resized.revision + 1);
      const copy = pasted.nodes.find((node) => !nodeOf(resized, node.id))!;
      expect(copy).toMatchObject({ type: 'audioNode', data: nodeOf(resized, 'voice-1')!.data });
      // The copy lands beside its original, not over it (a paste covers nothing: docs/ui.md, "Where new cards go").
      const original = nodeOf(resized, 'voice-1')!;
      const apart =
        copy.position.x >= original.position.x + original.width! ||
        copy.position.y >= original.position.y + (original.height ?? 200) ||
        copy.position.x + original.width! <= original.position.x ||
        copy.position.y + (original.height ?? 200) <= original.position.y;
      expect(apart, JSON.stringify({ copy: copy.position, original: original.position })).toBe(true);
      // The tests after this one see the demo canvas as it was.
      const removed = await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...CANVAS, base_revision: pasted.revision, node_id: copy.id },
      });
      expect(removed.isError, JSON.stringify(removed.content)).toBeFalsy();
    } finally {
      await close();
    }
  });

  it('reverts the canvas to an earlier revision from the history panel', async () => {
    const { page, close } = await openCanvas();
    try {
      const start = await read();
      const node = {
        id: 'to-revert',
        type: 'textAnnotationNode',
        position: { x: 420, y: 820 },
        data: { content: 'an agent mistake' },
      };
      expect(
        (
          await agent.callTool({
            name: 'create_canvas_node',
            arguments: { ...CANVAS, base_revision: start.revision, node },
          })
        ).isError,
      ).toBeFalsy();
      await card(page, 'to-revert').waitFor();
      await page.getByRole('tab', { name: 'History' }).click();
      await page
        .locator(`.history-entry[data-revision="${start.revision}"]`)
        .getByRole('button', { name: `Revert to r${start.revision}` })
        .click();
      const after = await waitFor(read, (layout) => layout.revision === start.revision + 2);
      expect(after.nodes).toEqual(start.nodes);
      await card(page, 'to-revert').waitFor({ state: 'detached' });
    } finally {
      await close();
    }
  });

  it('deletes the selected node with the Delete key once confirmed, and brings it back with Ctrl+Z', async () => {
    const { page, close } = await openCanvas();
    try {
      const before = await read();
      await card(page, 'beat-1').locator('.card-head').click();
      // The Delete key asks first; Escape keeps the node.
      await page.keyboard.press('Delete');
      await page.getByRole('alertdialog').getByText('Delete 1 node and 2 connections?').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      expect(nodeOf(await read(), 'beat-1')).toBeDefined();
      // Enter answers the focused Delete button.
      await card(page, 'beat-1').locator('.card-head').click();
      await page.keyboard.press('Delete');
      await page.getByRole('alertdialog').waitFor();
      await page.keyboard.press('Enter');
      await waitFor(read, (layout) => !nodeOf(layout, 'beat-1'));
      await card(page, 'beat-1').waitFor({ state: 'detached' });

      await page.keyboard.press('Control+z');
      const restored = await waitFor(read, (layout) => nodeOf(layout, 'beat-1') !== undefined);
      expect(nodeOf(restored, 'beat-1')).toEqual(nodeOf(before, 'beat-1'));
      // Its edges came back with it.
      const edges = structured<{ layout: { edges: Array<{ id: string }> } }>(
        await agent.callTool({ name: 'get_canvas', arguments: CANVAS }),
      ).layout.edges;
      expect(edges.map((edge) => edge.id)).toEqual(expect.arrayContaining(['e-beat-frame', 'e-beat-sketch']));
      await card(page, 'beat-1').waitFor();
      // The page said what it undid, and that plain confirmation went by itself (a warning or an error waits).
      const undone = page.locator('.notice', { hasText: 'Undone: delete' });
      await undone.waitFor();
      await undone.waitFor({ state: 'detached', timeout: 15_000 });
    } finally {
      await close();
    }
  });

  it('connects two nodes by dragging between their handles, and deletes the edge with the Delete key', async () => {
    const { page, close } = await openCanvas();
    try {
      const edgesOf = async () =>
        structured<{ layout: { revision: number; edges: Array<{ id: string; source: string; target: string }> } }>(
          await agent.callTool({ name: 'get_canvas', arguments: CANVAS }),
        ).layout;
      const before = await edgesOf();
      const from = (await card(page, 'note-1').locator('.react-flow__handle-right').boundingBox())!;
      const to = (await card(page, 'voice-1').locator('.react-flow__handle-left').boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
      await page.mouse.up();
      const connected = await waitFor(edgesOf, (layout) => layout.edges.length === before.edges.length + 1);
      expect(connected.revision).toBe(before.revision + 1);
      const edge = connected.edges.find((candidate) => !before.edges.some((old) => old.id === candidate.id))!;
      expect(edge).toMatchObject({ source: 'note-1', target: 'voice-1' });

      const path = page.locator(`.react-flow__edge[data-id="${edge.id}"] .react-flow__edge-interaction`);
      await path.waitFor({ state: 'attached' });
      const box = (await path.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.keyboard.press('Delete');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      const after = await waitFor(edgesOf, (layout) => !layout.edges.some((candidate) => candidate.id === edge.id));
      expect(after.revision).toBe(connected.revision + 1);
      expect(after.edges).toEqual(before.edges);
    } finally {
      await close();
    }
  });

  it('resumes after its change feed drops and misses nothing written meanwhile', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      const before = await read();
      const rereads: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/snapshot')) rereads.push(request.url());
      });
      server.server.feed!.closeAll('test: the stream drops');
      for (const [index, id] of ['while-away-1', 'while-away-2'].entries()) {
        const node = {
          id,
          type: 'textAnnotationNode',
          position: { x: 420 + index * 300, y: 560 },
          data: { content: id },
        };
        expect(
          (
            await agent.callTool({
              name: 'create_canvas_node',
              arguments: { ...CANVAS, base_revision: before.revision + index, node },
            })
          ).isError,
        ).toBeFalsy();
      }
      await card(page, 'while-away-1').waitFor({ timeout: 8000 });
      await card(page, 'while-away-2').waitFor({ timeout: 8000 });
      await page.locator('.feed-live').waitFor();
      await expect(page.locator('.topbar .chip').first().textContent()).resolves.toBe(
        `revision ${before.revision + 2}`,
      );
      // Resumed from the change log with Last-Event-ID, not by reading the canvas again.
      expect(rereads).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('lets a viewer see the canvas with every edit control disabled, and refuses a forced write', async () => {
    const viewer = { issuer: 'https://idp.example', subject: 'vera' };
    await server.store.projects.addMember('demo', viewer, 'viewer');
    const { context, page, errors } = await signIn(browser, server, viewer, { projectId: 'demo', canvasId: 'main' });
    try {
      await card(page, 'frame-1').waitFor();
      await page.getByText('View only').waitFor();
      const paletteButtons = page.locator('.palette-item');
      expect(await paletteButtons.count()).toBe(19);
      expect(
        await paletteButtons.evaluateAll((buttons) =>
          buttons.every((button) => (button as unknown as { disabled: boolean }).disabled),
        ),
      ).toBe(true);
      expect(
        await page
          .locator('.run-bar button')
          .evaluateAll((buttons) => buttons.every((button) => (button as unknown as { disabled: boolean }).disabled)),
      ).toBe(true);
      await expect(page.locator('.editable.can-edit').count()).resolves.toBe(0);

      const revision = (await read()).revision;
      const forced = await page.evaluate(async (base) => {
        const response = await fetch('/api/v2/projects/demo/canvases/main/changes', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-by': 'canvas-mcp' },
          body: JSON.stringify({ base_revision: base, operations: [{ op: 'delete_node', node_id: 'frame-1' }] }),
        });
        return { status: response.status, body: await response.json() };
      }, revision);
      expect(forced).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
      expect((await read()).revision).toBe(revision);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers a signed-out visit to a canvas with the sign-in page, not a blank one', async () => {
    const response = await api(server.url, '/p/demo/c/main');
    expect(response.status).toBe(200);
    const { context, page } = await openLink(browser, `${server.url}/p/demo/c/main`);
    try {
      await page.getByText('Open the sign-in link you were given').waitFor();
      // Worded for someone who never signed in, and clean for a screen reader.
      expect(await page.locator('main').innerText()).not.toContain('has ended');
      await page.getByText('sign in to open it').waitFor();
      expect(await seriousFindings(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** Notes an agent adds before the page opens, so the first fit of the page has them in view. */
  const addNotes = async (notes: Array<{ id: string; x: number; y: number }>) => {
    for (const { id, x, y } of notes) {
      const node = { id, type: 'textAnnotationNode', position: { x, y }, data: { displayName: id, content: id } };
      const created = await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...CANVAS, base_revision: (await read()).revision, node },
      });
      expect(created.isError).toBeFalsy();
    }
  };
  const removeNotes = async (ids: string[]) => {
    for (const id of ids)
      await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...CANVAS, base_revision: (await read()).revision, node_id: id },
      });
  };
  const viewportOf = async (page: Page) => {
    const transform = await page
      .locator('.react-flow__viewport')
      .evaluate((element) => (element as unknown as { style: { transform: string } }).style.transform);
    const [x, y, zoom] = /translate\(([-\d.e]+)px, ?([-\d.e]+)px\) scale\(([-\d.e]+)\)/
      .exec(transform)!
      .slice(1)
      .map(Number) as [number, number, number];
    return { x, y, zoom };
  };

  it('drags two cards selected with Ctrl+click together: one revision moves both by the same distance', async () => {
    await addNotes([
      { id: 'pair-left', x: 0, y: 1100 },
      { id: 'pair-right', x: 420, y: 1100 },
    ]);
    const { page, errors, close } = await openCanvas();
    try {
      const before = await read();
      await card(page, 'pair-left').locator('.card-head').click();
      await card(page, 'pair-right')
        .locator('.card-head')
        .click({ modifiers: ['Control'] });
      await card(page, 'pair-left').locator('.card-selected').waitFor();
      await card(page, 'pair-right').locator('.card-selected').waitFor();

      const box = (await card(page, 'pair-left').locator('.card-head').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 50, box.y + box.height / 2 + 90, { steps: 8 });
      await page.mouse.up();

      const after = await waitFor(read, (layout) => layout.revision > before.revision);
      expect(after.revision).toBe(before.revision + 1);
      const moved = (id: string) => ({
        x: nodeOf(after, id)!.position.x - nodeOf(before, id)!.position.x,
        y: nodeOf(after, id)!.position.y - nodeOf(before, id)!.position.y,
      });
      expect(moved('pair-left').y).toBeGreaterThan(30);
      expect(moved('pair-left').x).toBeGreaterThan(15);
      expect(Math.abs(moved('pair-right').x - moved('pair-left').x)).toBeLessThanOrEqual(1);
      expect(Math.abs(moved('pair-right').y - moved('pair-left').y)).toBeLessThanOrEqual(1);
      // The one revision holds the moves of both nodes.
      const history = (await page.evaluate(async () =>
        (await fetch('/api/v2/projects/demo/canvases/main/history?limit=1')).json(),
      )) as {
        revisions: Array<{ revision: number; changes: Array<{ kind: string; id: string }> }>;
      };
      expect(history.revisions[0]!.revision).toBe(after.revision);
      expect(
        history.revisions[0]!.changes.filter((change) => change.kind === 'node')
          .map((change) => change.id)
          .sort(),
      ).toEqual(['pair-left', 'pair-right']);
      expect(errors).toEqual([]);
    } finally {
      await close();
      await removeNotes(['pair-left', 'pair-right']);
    }
  });

  it('selects every card with Ctrl+A, and brings the whole canvas back into view with the F key', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      const layout = await read();
      // The first fit of the page shows every node.
      await waitFor(
        () => page.locator('.react-flow__node').count(),
        (count) => count === layout.nodes.length,
      );
      const fitted = await waitFor(
        () => viewportOf(page),
        (viewport) => viewport.zoom !== 1 || viewport.x !== 0 || viewport.y !== 0,
      );
      await expect(page.locator('.card-selected').count()).resolves.toBe(0);

      await page.keyboard.press('Control+a');
      await waitFor(
        () => page.locator('.card-selected').count(),
        (count) => count === layout.nodes.length,
      );
      await expect(page.locator('.react-flow__node.selected').count()).resolves.toBe(layout.nodes.length);

      const zoomIn = page.locator('.react-flow__controls-zoomin');
      for (let click = 0; click < 3; click += 1) await zoomIn.click();
      const zoomed = await waitFor(
        () => viewportOf(page),
        (viewport) => viewport.zoom > fitted.zoom * 1.5,
      );
      await page.keyboard.press('f');
      // Back to the view of the whole canvas the page opened with (the key animates there, so wait for the end).
      const refitted = await waitFor(
        () => viewportOf(page),
        (viewport) =>
          Math.abs(viewport.zoom - fitted.zoom) < 0.001 &&
          Math.abs(viewport.x - fitted.x) < 0.5 &&
          Math.abs(viewport.y - fitted.y) < 0.5,
      );
      expect(refitted.zoom).toBeLessThan(zoomed.zoom);
      await waitFor(
        () => page.locator('.react-flow__node').count(),
        (count) => count === layout.nodes.length,
      );
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('moves a card on the open page when another editor moves its node through the HTTP API, marked with their name, without re-reading the canvas', async () => {
    // Agents' MCP tools create and delete nodes but do not move them: the second actor is another editor, through the
    // backend's PATCH with their own session.
    const rosa = { issuer: 'https://idp.example', subject: 'rosa' };
    await server.store.projects.addMember('demo', rosa, 'editor');
    const secret = await server.store.sessions.createLoginLink(rosa, { expiresInMs: 60_000 });
    const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${secret}`);
    const { page, errors, close } = await openCanvas();
    try {
      const before = await read();
      const from = nodeOf(before, 'voice-1')!.position;
      const to = { x: from.x + 30, y: from.y + 40 };
      const rereads: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/snapshot')) rereads.push(request.url());
      });
      const patched = await api(server.url, '/api/v2/projects/demo/canvases/main/nodes/voice-1', {
        method: 'PATCH',
        headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
        body: { base_revision: before.revision, set: { position: to } },
      });
      expect(patched.status).toBe(200);
      await card(page, 'voice-1').locator('.card-highlight').waitFor({ timeout: 2000 });
      await expect(card(page, 'voice-1').locator('.card-author').textContent()).resolves.toBe('rosa');
      const shown = await card(page, 'voice-1').evaluate(
        (element) => (element as unknown as { style: { transform: string } }).style.transform,
      );
      expect(shown).toMatch(new RegExp(`^translate\\(${to.x}px, ?${to.y}px\\)$`));
      await expect(page.locator('.topbar .chip').first().textContent()).resolves.toBe(
        `revision ${before.revision + 1}`,
      );
      expect(rereads).toEqual([]);
      // The mark goes away by itself.
      await card(page, 'voice-1').locator('.card-highlight').waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
