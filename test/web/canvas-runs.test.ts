import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { connectClient, structured } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/** Runs started and cancelled from the web canvas, and an agent connected from the browser alone (real Chromium). */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the web canvas: runs and agent connections', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // One worker and runs of a few seconds: long enough to cancel one while it runs.
    server = await startTestServer(sqlite, { seedDemo: true, workers: 1, runDurationMs: 3000 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const openCanvas = async (): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' });
    await page.locator('.feed-live').waitFor();
    return { page, errors, close: () => context.close() };
  };

  const startRun = async (page: Page, nodeId: string) => {
    await card(page, nodeId).getByRole('button', { name: 'Run' }).click();
    const dialog = card(page, nodeId).getByRole('dialog', { name: 'Start a run' });
    await dialog.getByText('credits').first().waitFor();
    const text = await dialog.textContent();
    await dialog.getByRole('button', { name: 'Start run' }).click();
    return text ?? '';
  };

  it("runs an image node after showing its cost and the budget, then shows the local provider's image on the card", async () => {
    const { page, errors, close } = await openCanvas();
    try {
      const confirmation = await startRun(page, 'frame-1');
      expect(confirmation).toContain('1 credits');
      expect(confirmation).toContain('No budget limit');
      await card(page, 'frame-1').locator('[data-run-status="running"], [data-run-status="queued"]').waitFor();
      const image = card(page, 'frame-1').locator('img.thumb');
      await image.waitFor({ timeout: 15_000 });
      await card(page, 'frame-1').locator('[data-run-status="succeeded"]').waitFor();
      const size = await image.evaluate(async (element) => {
        const img = element as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number; getAttribute(name: string): string | null };
        await img.decode();
        return { width: img.naturalWidth, height: img.naturalHeight, src: img.getAttribute('src') };
      });
      expect(size.width).toBeGreaterThan(0);
      expect(size.src).toMatch(/\/assets\/asset_/);
      const shot = await screenshot(page, 'canvas-run-output');
      expect(shot.inkRatio).toBeGreaterThan(0.05);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('cancels a running node from its card and shows it cancelled', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      await startRun(page, 'sketch-1');
      await card(page, 'sketch-1').locator('[data-run-status="running"]').waitFor({ timeout: 10_000 });
      await card(page, 'sketch-1').getByRole('button', { name: 'Cancel' }).click();
      await card(page, 'sketch-1').locator('[data-run-status="cancelled"]').waitFor({ timeout: 10_000 });
      const latest = (await server.store.runs.latestRunsByNode('demo', 'main')).find((run) => run.node_id === 'sketch-1');
      expect(latest?.status).toBe('cancelled');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('connects an agent from the browser: the shown configuration lets the SDK client write, and End cuts it off', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      await page.getByRole('tab', { name: 'Connect an agent' }).click();
      await page.getByRole('button', { name: 'Connect an agent' }).click();
      const cursor = page.locator('.client-config', { hasText: 'Cursor' }).locator('pre');
      await cursor.waitFor({ state: 'attached' });
      const config = JSON.parse((await cursor.textContent())!) as { mcpServers: { 'canvas-mcp': { url: string; headers: Record<string, string> } } };
      const { url, headers } = config.mcpServers['canvas-mcp'];
      expect(url).toBe(`${server.url}/mcp/`);
      expect(headers.Authorization).toMatch(/^Bearer cmcp_/);
      await screenshot(page, 'canvas-connect-agent');

      const agent = await connectClient(url, headers);
      try {
        const canvas = { project_id: 'demo', canvas_id: 'main' };
        const revision = structured<{ layout: { revision: number } }>(await agent.callTool({ name: 'get_canvas', arguments: canvas })).layout.revision;
        const node = { id: 'connected-agent-note', type: 'textAnnotationNode', position: { x: 420, y: 580 }, data: { content: 'hello from the browser-made connection' } };
        const created = await agent.callTool({ name: 'create_canvas_node', arguments: { ...canvas, base_revision: revision, node } });
        expect(created.isError).toBeFalsy();
        await card(page, 'connected-agent-note').waitFor();

        await page.locator('.chat-runs li', { hasText: headers['X-Agent-Run-Id']! }).getByRole('button', { name: 'End' }).click();
        await waitFor(
          () => page.locator('.chat-runs li', { hasText: headers['X-Agent-Run-Id']! }).count(),
          (count) => count === 0,
        );
        const refused = await agent
          .callTool({ name: 'get_canvas', arguments: canvas })
          .then(() => 'answered', (error: Error) => error.message);
        // The token issued with the connection is revoked with it: the next call is refused at the door.
        expect(refused).toMatch(/401|Unauthorized|unauthenticated/i);
      } finally {
        await agent.close();
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
