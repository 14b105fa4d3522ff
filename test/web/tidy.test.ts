import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { card, launchBrowser, signIn } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { readLayout } from '../support/canvas-reads.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * Tidy in Chromium: three connected cards piled on each other are laid out along their connections when a person
 * presses Tidy, as one revision, and the page shows them where the server put them.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the web canvas: tidy', () => {
  let server: TestServer;
  let browser: Browser;
  let reader: string;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'pile', false);
    const note = (id: string, x: number, y: number) =>
      CanvasNode.parse({ id, type: 'textAnnotationNode', position: { x, y }, data: { content: id } });
    await server.store.writes.applyBatch(
      { projectId: 'demo', canvasId: 'pile', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
      [
        { op: 'create_node', node: note('first', 20, 10) },
        { op: 'create_node', node: note('second', 0, 0) },
        { op: 'create_node', node: note('third', 10, 30) },
        { op: 'create_edge', edge: { id: 'e1', source: 'first', target: 'second' } },
        { op: 'create_edge', edge: { id: 'e2', source: 'second', target: 'third' } },
      ],
    );
    reader = await projectToken(server.store, 'demo', 'viewer');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const read = () => readLayout(server, 'demo', 'pile', reader);

  it('lays piled, connected cards out in the order of their connections when Tidy is pressed', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'pile',
    });
    try {
      await page.locator('.feed-live').waitFor();
      const before = (await read()).revision;
      await page.getByRole('button', { name: 'Tidy' }).click();
      const after = await waitFor(read, (layout) => layout.revision > before);
      expect(after.revision).toBe(before + 1);
      const x = (id: string) => after.nodes.find((node) => node.id === id)!.position.x;
      expect(x('first')).toBeLessThan(x('second'));
      expect(x('second')).toBeLessThan(x('third'));
      // The page draws them where the server put them (the first two are in view: the view was fitted to the pile).
      await waitFor(
        async () => [(await card(page, 'first').boundingBox())?.x, (await card(page, 'second').boundingBox())?.x],
        ([first, second]) => first !== undefined && second !== undefined && second - first > 200,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
