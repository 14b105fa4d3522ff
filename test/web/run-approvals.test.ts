import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Run approvals in Chromium: a paid run an agent asked to start shows above the canvas with who asked, which card and
 * its cost; the person approves it with one click, and the store records their yes.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the web canvas: runs waiting for approval', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'asks', false);
    await server.store.writes.createNode(
      { projectId: 'demo', canvasId: 'asks', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse({
        id: 'frame',
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { displayName: 'Frame 1', prompt: 'a lighthouse', size: '1K', imageUrl: null, aspectRatio: '16:9' },
      }),
    );
    await server.store.runApprovals.ask({
      id: 'approval_web_test',
      projectId: 'demo',
      canvasId: 'asks',
      nodeId: 'frame',
      tokenId: 'tok_agent',
      agentName: 'studio agent',
      idempotencyKey: 'key-web-0001',
      estimate: 4,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows who asks to spend what on which card, and records the person’s yes', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'asks',
    });
    try {
      const asking = page.locator('[data-approval="approval_web_test"]');
      await asking.waitFor();
      expect(await asking.textContent()).toMatch(/studio agent asks to start a run of Frame 1 for about 4 credits/);
      expect(await seriousFindings(page)).toEqual([]);
      await asking.getByRole('button', { name: 'Approve' }).click();
      await asking.waitFor({ state: 'detached' });
      const [approval] = await server.store.runApprovals.list('demo', 'asks', null);
      expect(approval).toMatchObject({ status: 'approved', decided_by: DEMO_OWNER.subject });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
