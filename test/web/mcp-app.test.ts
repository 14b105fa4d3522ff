import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.js';
import { structured } from '../support/mcp.js';
import type { TestServer } from '../support/servers.js';
import { startDemoStage, type DemoStage } from '../support/demo-stage.js';
import { waitFor } from '../support/wait.js';

/**
 * The canvas as an MCP App: get_canvas names a ui:// resource, the server serves it as text/html;profile=mcp-app with a
 * content-security policy, and the page, loaded in Chromium inside a minimal host that speaks the Apps bridge
 * (@modelcontextprotocol/ext-apps's AppBridge), draws the get_canvas result it is handed.
 */

const APP_URI = 'ui://canvas-mcp/canvas.html';
const CANVAS = { project_id: 'demo', canvas_id: 'main' };

/** The host page's script: test/web/fixtures/mcp-app-host.js bundled for the browser. */
async function hostScript(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: 'test/web/fixtures/mcp-app-host.js', formats: ['iife'], name: 'canvasHost', fileName: 'host' } },
  });
  const bundle = (Array.isArray(output) ? output[0] : output) as Rollup.RollupOutput;
  return bundle.output[0].code;
}

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
    expect(resources).toEqual([expect.objectContaining({ uri: APP_URI, mimeType: 'text/html;profile=mcp-app' })]);
    const { contents } = await agent.readResource({ uri: APP_URI });
    expect(contents).toHaveLength(1);
    const [app] = contents as Array<{ uri: string; mimeType: string; text: string; _meta?: { ui?: { csp?: Record<string, string[]> } } }>;
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
    const names = structured<{ layout: { nodes: Array<{ data: { displayName?: string; label?: string } }> } }>(toolResult).layout.nodes.map(
      (node) => node.data.displayName ?? node.data.label,
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.setContent(`<!doctype html><html><body><script>${await hostScript()}</script></body></html>`);
      await page.evaluate(
        ({ html: appHtml, toolResult: result }) =>
          (globalThis as unknown as { canvasHost: { showApp(options: unknown): Promise<void> } }).canvasHost.showApp({
            html: appHtml,
            toolArguments: { project_id: 'demo', canvas_id: 'main' },
            toolResult: result,
          }),
        { html, toolResult },
      );
      const app = page.frameLocator('iframe');
      for (const name of names) await app.getByText(name!, { exact: true }).first().waitFor();
      await expect(app.locator('.react-flow__node').count()).resolves.toBe(names.length);
      await expect(app.getByText(`revision ${structured<{ layout: { revision: number } }>(toolResult).layout.revision}`).count()).resolves.toBe(1);
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
});
