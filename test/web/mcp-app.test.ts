import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousFindings } from '../support/axe.js';
import { screenshot } from '../support/browser.js';
import { structured } from '../support/mcp.js';
import type { TestServer } from '../support/servers.js';
import { startDemoStage, type DemoStage } from '../support/demo-stage.js';
import { waitFor } from '../support/wait.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { connectThroughOAuth } from '../support/oauth-client.js';
import { signInWithLink } from '../support/servers.js';
import { showInHost } from '../support/mcp-app-host.js';

/**
 * The canvas as an MCP App: get_canvas names a ui:// resource, the server serves it as text/html;profile=mcp-app with a
 * content-security policy, and the page, loaded in Chromium inside a minimal host that speaks the Apps bridge
 * (@modelcontextprotocol/ext-apps's AppBridge), draws the get_canvas result it is handed.
 */

const APP_URI = 'ui://canvas-mcp/canvas.html';
const CANVAS = { project_id: 'demo', canvas_id: 'main' };

describe('the canvas as an MCP App', () => {
  let server: TestServer;
  let agent: Client;
  let browser: Browser;

  let stage: DemoStage | undefined;

  beforeAll(async () => {
    stage = await startDemoStage();
    ({ server, agent, browser } = stage);
  });
  afterAll(async () => stage?.close());

  it('names the app on get_canvas, and still lists exactly the six tools', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toHaveLength(6);
    const getCanvas = tools.find((tool) => tool.name === 'get_canvas')!;
    expect(getCanvas._meta).toMatchObject({ ui: { resourceUri: APP_URI }, 'ui/resourceUri': APP_URI });
    for (const tool of tools.filter((other) => other.name !== 'get_canvas')) expect(tool._meta?.ui).toBeUndefined();
  });

  it('lists and reads the app as text/html;profile=mcp-app with a content-security policy', async () => {
    const { resources } = await agent.listResources();
    expect(resources).toEqual([
      expect.objectContaining({ uri: APP_URI, mimeType: 'text/html;profile=mcp-app' }),
      // The storyboarding skill's manifest (docs/contract.md, "Skills").
      expect.objectContaining({ uri: 'skill://canvas-mcp/storyboarding/SKILL.md', mimeType: 'text/markdown' }),
    ]);
    const { contents } = await agent.readResource({ uri: APP_URI });
    expect(contents).toHaveLength(1);
    const [app] = contents as Array<{
      uri: string;
      mimeType: string;
      text: string;
      _meta?: { ui?: { csp?: Record<string, string[]> } };
    }>;
    expect(app).toMatchObject({ uri: APP_URI, mimeType: 'text/html;profile=mcp-app' });
    expect(app!.text).toMatch(/^<!doctype html>/i);
    expect(app!.text).not.toMatch(/<script[^>]+src=/);
    expect(app!._meta?.ui?.csp).toEqual({ connectDomains: [], resourceDomains: [new URL(server.url).origin] });
  });

  it('refuses to read a resource that does not exist', async () => {
    await expect(agent.readResource({ uri: 'ui://canvas-mcp/nothing.html' })).rejects.toThrow(/-32002|not found/i);
  });

  it('gives hosts without the extension the same get_canvas content, and the app a link to the full canvas', async () => {
    const result = await agent.callTool({ name: 'get_canvas', arguments: CANVAS });
    const text = (result.content as Array<{ type: string; text: string }>)[0]!;
    expect(text.type).toBe('text');
    expect(JSON.parse(text.text)).toEqual(result.structuredContent);
    expect(result._meta).toEqual({ 'canvas-mcp/canvasUrl': `${server.url}/p/demo/c/main` });
  });

  it("draws the get_canvas result's nodes in Chromium inside a host speaking the Apps bridge, with run states and a link", async () => {
    const html = ((await agent.readResource({ uri: APP_URI })).contents[0] as { text: string }).text;
    const toolResult = await agent.callTool({ name: 'get_canvas', arguments: CANVAS });
    const names = structured<{ layout: { nodes: Array<{ data: { displayName?: string; label?: string } }> } }>(
      toolResult,
    ).layout.nodes.map((node) => node.data.displayName ?? node.data.label);
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await showInHost(page, { html, toolResult, relay: false });
      const app = page.frameLocator('iframe');
      for (const name of names) await app.getByText(name!, { exact: true }).first().waitFor();
      await expect(app.locator('.react-flow__node').count()).resolves.toBe(names.length);
      await expect(
        app.getByText(`revision ${structured<{ layout: { revision: number } }>(toolResult).layout.revision}`).count(),
      ).resolves.toBe(1);
      // Read-only: run states, and no control that would change anything.
      await expect(app.locator('.run-bar [data-run-status]').count()).resolves.toBeGreaterThan(0);
      await expect(app.locator('.card button, .palette, .react-flow__resize-control').count()).resolves.toBe(0);
      await expect(app.locator('.editable.can-edit').count()).resolves.toBe(0);
      const shot = await screenshot(page, 'mcp-app');
      expect(shot.inkRatio).toBeGreaterThan(0.05);

      await app.getByRole('button', { name: 'Open the full canvas' }).click();
      const opened = await waitFor(
        () => page.evaluate(() => (globalThis as unknown as { host: { openedLinks: string[] } }).host.openedLinks),
        (links) => links.length > 0,
      );
      expect(opened).toEqual([`${server.url}/p/demo/c/main`]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('two-way through an OAuth connection: the person moves, edits and deletes in the app through the host, sees the agent write, and the model is told', async () => {
    const link = await server.store.sessions.createLoginLink(DEMO_OWNER, { expiresInMs: 60_000 });
    const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
    const { client: connector } = await connectThroughOAuth({
      mcpUrl: server.server.mcpUrl,
      serverUrl: server.url,
      cookie,
      answer: { decision: 'allow', canvas: 'demo/main', access: 'runs' },
    });
    const read = async () =>
      structured<{
        layout: {
          revision: number;
          nodes: Array<{ id: string; position: { x: number; y: number }; data: Record<string, unknown> }>;
        };
      }>(await agent.callTool({ name: 'get_canvas', arguments: CANVAS })).layout;
    const toolResult = await connector!.callTool({ name: 'get_canvas', arguments: CANVAS });
    // What the grant allows travels with the result, for the app alone; an admin token's result has no such key.
    expect(toolResult._meta).toMatchObject({ 'canvas-mcp/appAccess': { edit: true, run: true } });
    const html = ((await connector!.readResource({ uri: APP_URI })).contents[0] as { text: string }).text;

    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The host relays the app's tool calls to the server through its MCP client: the connector's, as claude.ai would.
    await page.exposeFunction('callServerTool', (params: { name: string; arguments?: Record<string, unknown> }) =>
      connector!.callTool(params),
    );
    const host = () =>
      page.evaluate(
        () =>
          (
            globalThis as unknown as {
              host: { toolCalls: string[]; modelContext: { content: Array<{ text: string }> } | null };
            }
          ).host,
      );
    try {
      await showInHost(page, { html, toolResult, relay: true });
      const app = page.frameLocator('iframe');
      const voice = app.locator('.react-flow__node[data-id="voice-1"]');
      await voice.waitFor();
      await app.locator('.editable.can-edit').first().waitFor();

      // A drag is one write through the app-only apply_canvas_changes, authored by the connection.
      const before = await read();
      const box = (await voice.locator('.card-head').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 100, { steps: 8 });
      await page.mouse.up();
      const moved = await waitFor(read, (layout) => layout.revision > before.revision);
      expect(moved.revision).toBe(before.revision + 1);
      expect(moved.nodes.find((node) => node.id === 'voice-1')!.position.y).toBeGreaterThan(
        before.nodes.find((node) => node.id === 'voice-1')!.position.y + 40,
      );
      const [entry] = await server.store.history.history('demo', 'main', 1e9, 1);
      expect(entry).toMatchObject({
        revision: moved.revision,
        author: { kind: 'agent', token_name: 'Test connector (connector)' },
      });
      expect((await host()).toolCalls).toContain('apply_canvas_changes');

      // The model hears of it on its next turn.
      const told = await waitFor(host, (state) => state.modelContext !== null);
      expect(told.modelContext!.content[0]!.text).toMatch(/moved .*\(voice-1\) to \(/);

      // Text edited in place.
      await app.locator('.react-flow__node[data-id="note-1"] .editable').click();
      const field = app.locator('.react-flow__node[data-id="note-1"] textarea');
      await field.fill('Edited inside the chat.');
      await field.press('Control+Enter');
      await waitFor(
        read,
        (layout) => layout.nodes.find((node) => node.id === 'note-1')?.data.content === 'Edited inside the chat.',
      );

      // The agent's write appears in the app with no reload.
      const now = await read();
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: {
          ...CANVAS,
          base_revision: now.revision,
          node: {
            id: 'from-agent',
            type: 'textAnnotationNode',
            position: { x: 1000, y: 40 },
            data: { content: 'Hello from the agent' },
          },
        },
      });
      const added = app.locator('.react-flow__node[data-id="from-agent"]');
      await added.waitFor();

      // Delete asks first, then one write; the node is gone for the agent too.
      await added.locator('.card-head').click();
      await page.keyboard.press('Delete');
      await app.getByRole('alertdialog').waitFor();
      await page.keyboard.press('Enter');
      await waitFor(read, (layout) => !layout.nodes.some((node) => node.id === 'from-agent'));
      await added.waitFor({ state: 'detached' });
      expect((await host()).modelContext!.content[0]!.text).toMatch(/deleted .*from-agent/);

      // A run starts after the person has seen its cost (app-only estimate and submit), and its state shows up here
      // (this stage runs no workers: it stays queued).
      const frame = app.locator('.react-flow__node[data-id="frame-1"]');
      await frame.getByRole('button', { name: 'Run' }).click();
      await app
        .getByRole('dialog', { name: 'Start a run' })
        .getByText(/This run costs about/)
        .waitFor();
      await app.getByRole('button', { name: 'Start run' }).click();
      await frame.locator('.run-bar [data-run-status="queued"]').waitFor();
      expect((await host()).toolCalls).toEqual(
        expect.arrayContaining(['estimate_canvas_node_run', 'submit_canvas_node_run']),
      );

      // axe reads the app inside its frame too.
      expect(await seriousFindings(page)).toEqual([]);
      await screenshot(page, 'mcp-app-editing');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await connector!.close();
    }
  });
});
