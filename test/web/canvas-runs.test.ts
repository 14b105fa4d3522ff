import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { connectClient, structured } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { credits } from '../../web/src/model/values.js';

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
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'main',
    });
    await page.locator('.feed-live').waitFor();
    return { page, errors, close: () => context.close() };
  };

  const startRun = async (page: Page, nodeId: string) => {
    await card(page, nodeId).getByRole('button', { name: 'Run' }).click();
    const dialog = card(page, nodeId).getByRole('dialog', { name: 'Start a run' });
    await dialog
      .getByText(/\bcredits?\b/)
      .first()
      .waitFor();
    const text = await dialog.textContent();
    await dialog.getByRole('button', { name: 'Start run' }).click();
    return text ?? '';
  };

  it("runs an image node after showing its cost and the budget, then shows the local provider's image on the card", async () => {
    const { page, errors, close } = await openCanvas();
    try {
      const confirmation = await startRun(page, 'frame-1');
      expect(confirmation).toContain('costs about 1 credit.');
      expect(confirmation).toContain('No budget limit');
      await card(page, 'frame-1').locator('[data-run-status="running"], [data-run-status="queued"]').waitFor();
      const image = card(page, 'frame-1').locator('img.thumb');
      await image.waitFor({ timeout: 15_000 });
      await card(page, 'frame-1').locator('[data-run-status="succeeded"]').waitFor();
      const size = await image.evaluate(async (element) => {
        const img = element as unknown as {
          decode(): Promise<void>;
          naturalWidth: number;
          naturalHeight: number;
          getAttribute(name: string): string | null;
        };
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
      const latest = (await server.store.runs.latestRunsByNode('demo', 'main')).find(
        (run) => run.node_id === 'sketch-1',
      );
      expect(latest?.status).toBe('cancelled');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the elapsed seconds of a running run on its card, counting up while it runs', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      await startRun(page, 'frame-1');
      await card(page, 'frame-1').locator('[data-run-status="running"]').waitFor({ timeout: 10_000 });
      // The badge is always there (it reads "Done" once the run ends): -1 when it does not show running seconds.
      const badge = card(page, 'frame-1').locator('.run-status');
      const secondsShown = async () => Number(/^Running (\d+) s/.exec((await badge.textContent()) ?? '')?.[1] ?? -1);
      const first = await waitFor(secondsShown, (seconds) => seconds >= 0);
      await waitFor(secondsShown, (seconds) => seconds > first, 5000);
      await card(page, 'frame-1').locator('[data-run-status="succeeded"]').waitFor({ timeout: 15_000 });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the error of a run that fails on its card', async () => {
    // A composition whose clip points at an asset this server does not have: the run fails, naming the clip.
    const revision = (await server.store.layout.readCanvas('demo', 'main'))!.revision;
    const node = CanvasNode.parse({
      id: 'broken-compose',
      type: 'videoComposeNode',
      position: { x: 960, y: 560 },
      data: {
        displayName: 'Broken compose',
        clips: [{ id: 'c1', videoUrl: '/assets/asset_missingmissing00', startMs: 0 }],
      },
    });
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'main', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
      node,
    );
    const { page, errors, close } = await openCanvas();
    try {
      await startRun(page, 'broken-compose');
      await card(page, 'broken-compose').locator('[data-run-status="failed"]').waitFor({ timeout: 15_000 });
      const latest = (await server.store.runs.latestRunsByNode('demo', 'main')).find(
        (run) => run.node_id === 'broken-compose',
      );
      expect(latest?.status).toBe('failed');
      const shown = await card(page, 'broken-compose').locator('.run-error').textContent();
      expect(shown).toBe(latest!.error_message);
      expect(shown).toContain('clip 1 refers to the asset asset_missingmissing00');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('connects an agent from the browser: the shown configuration lets the SDK client write, and End cuts it off', async () => {
    const { page, errors, close } = await openCanvas();
    try {
      await page.getByRole('tab', { name: 'Agents' }).click();
      await page.getByRole('button', { name: 'Connect an agent' }).click();
      const cursor = page.locator('.client-config', { hasText: 'Cursor' }).locator('pre');
      await cursor.waitFor({ state: 'attached' });
      const config = JSON.parse((await cursor.textContent())!) as {
        mcpServers: { 'canvas-mcp': { url: string; headers: Record<string, string> } };
      };
      const { url, headers } = config.mcpServers['canvas-mcp'];
      expect(url).toBe(`${server.url}/mcp/`);
      expect(headers.Authorization).toMatch(/^Bearer cmcp_/);
      await screenshot(page, 'canvas-connect-agent');

      const agent = await connectClient(url, headers);
      try {
        const canvas = { project_id: 'demo', canvas_id: 'main' };
        const revision = structured<{ layout: { revision: number } }>(
          await agent.callTool({ name: 'get_canvas', arguments: canvas }),
        ).layout.revision;
        const node = {
          id: 'connected-agent-note',
          type: 'textAnnotationNode',
          position: { x: 420, y: 580 },
          data: { content: 'hello from the browser-made connection' },
        };
        const created = await agent.callTool({
          name: 'create_canvas_node',
          arguments: { ...canvas, base_revision: revision, node },
        });
        expect(created.isError).toBeFalsy();
        await card(page, 'connected-agent-note').waitFor();

        await page
          .locator('.chat-runs li', { hasText: headers['X-Agent-Run-Id']! })
          .getByRole('button', { name: 'End' })
          .click();
        await waitFor(
          () => page.locator('.chat-runs li', { hasText: headers['X-Agent-Run-Id']! }).count(),
          (count) => count === 0,
        );
        const refused = await agent.callTool({ name: 'get_canvas', arguments: canvas }).then(
          () => 'answered',
          (error: Error) => error.message,
        );
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

  it("shows the cost and the project's budget before a run, and disables Start when the run costs more than the budget has left", async () => {
    // No run holds credits in reserve, so what is left is the budget less what was spent.
    const { spent } = await waitFor(
      () => server.store.runs.budget('demo'),
      (budget) => budget.reserved === 0,
    );
    const { page, errors, close } = await openCanvas();
    try {
      await server.store.projects.setProjectBudget('demo', spent + 10);
      const enough = await server.store.runs.budget('demo');
      await card(page, 'frame-1').getByRole('button', { name: 'Run' }).click();
      const dialog = card(page, 'frame-1').getByRole('dialog', { name: 'Start a run' });
      await dialog.getByText(`Budget: ${enough.left} of ${credits(enough.budget!)} left.`).waitFor();
      await expect(dialog.locator('strong').textContent()).resolves.toBe('1 credit');
      await expect(dialog.getByRole('button', { name: 'Start run' }).isEnabled()).resolves.toBe(true);
      await expect(dialog.getByText('more than the budget has left').count()).resolves.toBe(0);
      await dialog.getByRole('button', { name: 'Not now' }).click();
      await dialog.waitFor({ state: 'detached' });

      await server.store.projects.setProjectBudget('demo', spent + 0.5);
      const short = await server.store.runs.budget('demo');
      await card(page, 'frame-1').getByRole('button', { name: 'Run' }).click();
      await dialog.getByText(`Budget: ${short.left} of ${credits(short.budget!)} left.`).waitFor();
      await dialog.getByText('That is more than the budget has left: the run would be refused.').waitFor();
      await expect(dialog.getByRole('button', { name: 'Start run' }).isDisabled()).resolves.toBe(true);
      // The server refuses it as well, and nothing was queued.
      const forced = await page.evaluate(async () => {
        const response = await fetch('/api/v2/projects/demo/canvases/main/nodes/frame-1/runs', {
          method: 'POST',
          headers: { 'x-requested-by': 'canvas-mcp', 'idempotency-key': crypto.randomUUID() },
        });
        return { status: response.status, body: (await response.json()) as unknown };
      });
      expect(forced).toMatchObject({ status: 402, body: { error: { code: 'budget_exceeded' } } });
      await expect(server.store.runs.budget('demo')).resolves.toMatchObject({ reserved: 0, spent });
      expect(errors).toEqual([]);
    } finally {
      await close();
      await server.store.projects.setProjectBudget('demo', null);
    }
  });
});
