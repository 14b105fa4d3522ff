import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { launchBrowser, card, signIn } from '../support/browser.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { waitFor } from '../support/wait.js';

/**
 * "Content credentials" on a result in Chromium: a generated picture's details say who made it, that a generative model
 * did, and that its signature is intact under this deployment's certificate.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the web canvas: content credentials of a result', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true, workers: 1, runDurationMs: 0 });
    await server.store.projects.createCanvas('demo', 'signed', false);
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'signed', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse({
        id: 'frame',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { displayName: 'Frame 1', prompt: 'a lighthouse', size: '1K', imageUrl: null, aspectRatio: '16:9' },
      }),
    );
    const editor = await projectToken(server.store, 'demo', 'viewer');
    const asOwner = await signedInPerson(server, DEMO_OWNER);
    const submitted = await api(
      server.url,
      '/api/v2/projects/demo/canvases/signed/nodes/frame/runs',
      asOwner({ method: 'POST', headers: { 'idempotency-key': 'credentials-web-0001' } }),
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const runId = (submitted.body as NodeRun).run_id;
    await waitFor(
      async () =>
        (await api(server.url, `/api/v2/projects/demo/canvases/signed/runs/${runId}`, { token: editor }))
          .body as NodeRun,
      (run) => run.status === 'succeeded',
      30_000,
      100,
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows what the picture’s credentials say in its details', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'signed',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await card(page, 'frame').click();
      await page.getByRole('tab', { name: 'Details' }).click();
      const credentials = page.locator('details.content-credentials');
      await credentials.locator('summary').click();
      const said = credentials.locator('dl[data-credentials-state="Trusted"]');
      await said.waitFor();
      const text = await said.textContent();
      expect(text).toContain('made by a generative model');
      expect(text).toContain('Intact, signed by this deployment');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
