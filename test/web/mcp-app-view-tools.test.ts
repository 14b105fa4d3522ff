import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { screenshot } from '../support/browser.js';
import { startDemoStage, type DemoStage } from '../support/demo-stage.js';
import { showInHost } from '../support/mcp-app-host.js';
import { connectThroughOAuth } from '../support/oauth-client.js';
import { signInWithLink } from '../support/servers.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';

/**
 * The tools the MCP App's view offers its host's model (App.registerTool): the official host side (ext-apps's
 * AppBridge, in test/web/fixtures/mcp-app-host.js) lists and calls them while the view shows a get_canvas result in
 * Chromium. The person clicks shot 3 on a board and the host's get_selection answers shot 3; focus brings a card into
 * view and selects it.
 */

const APP_URI = 'ui://canvas-mcp/canvas.html';
const CANVAS = { project_id: 'demo', canvas_id: 'main' };

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
}

interface Selection {
  nodes: Array<{ node_id: string; type: string; title: string }>;
  shots: Array<{ node_id: string; shot_id: string; number: string; caption: string | null }>;
}

interface View {
  zoom: number;
  region: { x: number; y: number; width: number; height: number };
  board: { node_id: string; title: string } | null;
  visible_node_ids: string[];
  visible_count: number;
}

/** The host's model calling a tool of the view, over the bridge. */
function callViewTool(page: Page, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return page.evaluate(
    ({ name, args }) =>
      (
        globalThis as unknown as { viewTools: { call(name: string, args: unknown): Promise<ToolResult> } }
      ).viewTools.call(name, args),
    { name, args },
  );
}

describe("the MCP App view's own tools", () => {
  let stage: DemoStage;

  beforeAll(async () => {
    stage = await startDemoStage();
    const { store } = stage.server;
    // A board far below the demo's cards: the first view shows it with them, focus brings one of them close.
    const board = CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 700 },
      data: {
        title: 'Opening',
        aspectRatio: '16:9',
        frames: [
          { id: 'shot-a', imageUrl: null, number: '1', caption: 'The bay' },
          { id: 'shot-b', imageUrl: null, number: '2', caption: 'Mara turns' },
          { id: 'shot-c', imageUrl: null, number: '3', caption: 'The lamp' },
          { id: 'shot-d', imageUrl: null, number: '4', action: 'She leaves' },
        ],
      },
    });
    const revision = (await store.layout.readCanvas('demo', 'main'))!.revision;
    await store.writes.createNode(
      { projectId: 'demo', canvasId: 'main', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
      board,
    );
  });
  afterAll(async () => stage?.close());

  it('lists get_selection, get_view and focus; answers shot 3 once the person clicks it; focus brings a card into view', async () => {
    const { agent, browser } = stage;
    const html = ((await agent.readResource({ uri: APP_URI })).contents[0] as { text: string }).text;
    const toolResult = await agent.callTool({ name: 'get_canvas', arguments: CANVAS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await showInHost(page, { html, toolResult, relay: false });
      const app = page.frameLocator('iframe');
      const shot3 = app.locator('.react-flow__node[data-id="board"] figure[data-shot-id="shot-c"]');
      await shot3.waitFor();

      const listed = await page.evaluate(() =>
        (globalThis as unknown as { viewTools: { list(): Promise<{ tools: Array<{ name: string }> }> } }).viewTools
          .list()
          .then((result) => result.tools.map((tool) => tool.name)),
      );
      expect(listed.sort()).toEqual(['focus', 'get_selection', 'get_view']);

      // Nothing selected yet.
      const before = await callViewTool(page, 'get_selection');
      expect(before.isError).toBeFalsy();
      expect(before.structuredContent).toEqual({ nodes: [], shots: [] });

      // The person clicks shot 3: the model asking what "this" is gets shot 3 of the board.
      await shot3.click();
      await expect(shot3.getAttribute('aria-current')).resolves.toBe('true');
      await screenshot(page, 'mcp-app-shot-selected');
      const selected = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(selected.shots).toEqual([{ node_id: 'board', shot_id: 'shot-c', number: '3', caption: 'The lamp' }]);
      expect(selected.nodes).toEqual([{ node_id: 'board', type: 'storyboardNode', title: 'Opening' }]);
      // Ctrl+click adds shot 4, named by its action where it has no caption.
      await app.locator('figure[data-shot-id="shot-d"]').click({ modifiers: ['Control'] });
      const both = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(both.shots.map((shot) => [shot.number, shot.caption])).toEqual([
        ['3', 'The lamp'],
        ['4', 'She leaves'],
      ]);

      // A shot brought into view: the board fills the view, and shot 1 is what is selected now.
      const onShot = await callViewTool(page, 'focus', { node_id: 'board', shot_id: 'shot-a' });
      expect(onShot.isError).toBeFalsy();
      const boardView = onShot.structuredContent as unknown as View;
      expect(boardView.board).toEqual({ node_id: 'board', title: 'Opening' });
      expect(boardView.visible_node_ids).not.toContain('voice-1');
      const afterShot = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(afterShot.shots.map((shot) => shot.shot_id)).toEqual(['shot-a']);

      // A card brought into view: on screen inside the view, selected, and the view says so.
      const focused = await callViewTool(page, 'focus', { node_id: 'voice-1' });
      expect(focused.isError).toBeFalsy();
      const view = (await callViewTool(page, 'get_view')).structuredContent as unknown as View;
      expect(view.visible_node_ids).toContain('voice-1');
      expect(view.board).toBeNull();
      const card = app.locator('.react-flow__node[data-id="voice-1"]');
      await card.waitFor();
      const box = (await card.boundingBox())!;
      const frame = (await page.locator('iframe').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(frame.x);
      expect(box.y).toBeGreaterThanOrEqual(frame.y);
      expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
      expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height);
      const now = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(now).toEqual({ nodes: [expect.objectContaining({ node_id: 'voice-1' })], shots: [] });
      await screenshot(page, 'mcp-app-view-tools');

      // What does not exist is refused, naming the field.
      const missing = await callViewTool(page, 'focus', { node_id: 'nowhere' });
      expect(missing.isError).toBe(true);
      expect(missing.content[0]!.text).toMatch(/^node_id: there is no node "nowhere"/);
      const noShot = await callViewTool(page, 'focus', { node_id: 'board', shot_id: 'shot-z' });
      expect(noShot.isError).toBe(true);
      expect(noShot.content[0]!.text).toMatch(/^shot_id: /);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers from the two-way view too, where the person edits through an OAuth connection', async () => {
    const { server, browser } = stage;
    const link = await server.store.sessions.createLoginLink(DEMO_OWNER, { expiresInMs: 60_000 });
    const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
    const { client: connector } = await connectThroughOAuth({
      mcpUrl: server.server.mcpUrl,
      serverUrl: server.url,
      cookie,
      answer: { decision: 'allow', canvas: 'demo/main', access: 'edit' },
    });
    const toolResult = await connector!.callTool({ name: 'get_canvas', arguments: CANVAS });
    const html = ((await connector!.readResource({ uri: APP_URI })).contents[0] as { text: string }).text;
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.exposeFunction('callServerTool', (params: { name: string; arguments?: Record<string, unknown> }) =>
      connector!.callTool(params),
    );
    try {
      await showInHost(page, { html, toolResult, relay: true });
      const app = page.frameLocator('iframe');
      await app.locator('.editable.can-edit').first().waitFor();
      const shot2 = app.locator('.react-flow__node[data-id="board"] figure[data-shot-id="shot-b"]');
      await shot2.click();
      const selected = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(selected.shots).toEqual([{ node_id: 'board', shot_id: 'shot-b', number: '2', caption: 'Mara turns' }]);

      // A card clicked instead: the card is the selection, and the shot no longer is.
      await app.locator('.react-flow__node[data-id="voice-1"] .card-head').click();
      const card = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(card).toEqual({ nodes: [expect.objectContaining({ node_id: 'voice-1' })], shots: [] });

      // focus selects what it shows here too.
      expect((await callViewTool(page, 'focus', { node_id: 'board', shot_id: 'shot-c' })).isError).toBeFalsy();
      const focused = (await callViewTool(page, 'get_selection')).structuredContent as unknown as Selection;
      expect(focused.nodes.map((node) => node.node_id)).toEqual(['board']);
      expect(focused.shots.map((shot) => shot.shot_id)).toEqual(['shot-c']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await connector!.close();
    }
  });
});
