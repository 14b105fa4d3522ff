import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { readLayout } from '../support/canvas-reads.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * Checkpoints in Chromium: a person names the current revision in History, the canvas changes, and Restore brings the
 * named layout back as a new revision; axe finds nothing serious in the panel.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const write = { projectId: 'demo', canvasId: 'marks', clientSaveId: null, authorization: SYSTEM_WRITE };

describe('the web canvas: checkpoints', () => {
  let server: TestServer;
  let browser: Browser;
  let reader: string;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'marks', false);
    await server.store.writes.createNode(
      { ...write, baseRevision: 0 },
      CanvasNode.parse({ id: 'n', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'first' } }),
    );
    reader = await projectToken(server.store, 'demo', 'viewer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const read = () => readLayout(server, 'demo', 'marks', reader);

  it('names a revision in History and restores it after a change', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'marks',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByLabel('Checkpoint name').fill('Before the client call');
      await page.getByRole('button', { name: 'Save checkpoint' }).click();
      await page.locator('[data-checkpoint="Before the client call"]').waitFor();
      expect(await seriousFindings(page)).toEqual([]);

      await server.store.writes.applyBatch({ ...write, baseRevision: 1 }, [
        { op: 'update_node', node_id: 'n', set: { data: { content: 'second' } } },
      ]);
      const checkpoint = page.locator('[data-checkpoint="Before the client call"]');
      await checkpoint.getByRole('button', { name: 'Restore' }).click();
      const after = await waitFor(read, (layout) => layout.revision === 3);
      expect(after.nodes[0]!.data).toEqual({ content: 'first' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
