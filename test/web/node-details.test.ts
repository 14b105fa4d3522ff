import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { WALL, card, launchBrowser, signIn } from '../support/browser.js';
import { chooseOption } from '../support/controls.js';
import { addCardOfEveryType } from '../support/demo-stage.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * The Details panel edits the selected node's data as a form made from its type's data schema in the contract: each
 * field saves to the node as one revision, a value the contract refuses is not saved and the field says why by
 * name, and the raw JSON waits under Advanced, read-only, in a region the keyboard scrolls.
 */

const sqlite = STORE_TARGETS[0]!;
const NOTE = 'form-textAnnotationNode';

describe('the Details panel: a form of the node data', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await addCardOfEveryType(server.store, 'form');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const read = async () => {
    const found = (await server.store.layout.readNode('demo', 'main', NOTE))!;
    const { revision } = (await server.store.layout.readCanvas('demo', 'main'))!;
    return { revision, data: found.node.data as Record<string, unknown> };
  };

  /** The note's details, opened from the keyboard as a person without a mouse opens them. */
  async function openDetails(page: Page) {
    await page.locator('.feed-live').waitFor();
    await card(page, NOTE).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Details', selected: true }).waitFor();
    return page.getByRole('form', { name: `Data of ${NOTE}` });
  }

  it('saves a text field, a choice and a number to the node, one revision each', async () => {
    const { context, page, errors } = await signIn(
      browser,
      server,
      DEMO_OWNER,
      { projectId: 'demo', canvasId: 'main' },
      WALL,
    );
    try {
      const form = await openDetails(page);
      const start = await read();

      const content = form.getByRole('textbox', { name: 'Content', exact: true });
      await content.fill('Written in the details');
      await content.press('Enter');
      const written = await waitFor(read, (now) => now.data.content === 'Written in the details');
      expect(written.revision).toBe(start.revision + 1);

      await chooseOption(form, 'Text align', 'center');
      const aligned = await waitFor(read, (now) => now.data.textAlign === 'center');
      expect(aligned.revision).toBe(written.revision + 1);

      const size = form.getByRole('textbox', { name: 'Font size', exact: true });
      await size.fill('18');
      await size.press('Tab');
      const sized = await waitFor(read, (now) => now.data.fontSize === 18);
      expect(sized.revision).toBe(aligned.revision + 1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses a value the contract refuses, naming the field, and saves nothing', async () => {
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' }, WALL);
    try {
      const form = await openDetails(page);
      const before = await read();
      const size = form.getByRole('textbox', { name: 'Font size', exact: true });

      await size.fill('-3');
      await size.press('Enter');
      await form
        .getByRole('alert')
        .filter({ hasText: /^Font size: / })
        .waitFor();
      expect(await size.getAttribute('aria-invalid')).toBe('true');

      await size.fill('large');
      await size.press('Enter');
      await form.getByRole('alert').filter({ hasText: 'Font size: "large" is not a number' }).waitFor();

      // Escape puts back what was there; nothing was written.
      await size.press('Escape');
      await form.getByRole('alert').waitFor({ state: 'detached' });
      const after = await read();
      expect(after.revision).toBe(before.revision);
      expect(after.data.fontSize).toBe(before.data.fontSize);
    } finally {
      await context.close();
    }
  });

  it('keeps the JSON under Advanced, read-only, in a region the keyboard focuses and scrolls', async () => {
    // Data longer than the region is tall.
    const long = Array.from({ length: 80 }, (_, line) => `line ${line + 1} of a long note`).join('\n');
    const found = (await server.store.layout.readNode('demo', 'main', NOTE))!;
    const { revision } = (await server.store.layout.readCanvas('demo', 'main'))!;
    await server.store.writes.applyBatch(
      {
        projectId: 'demo',
        canvasId: 'main',
        baseRevision: revision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      },
      [{ op: 'update_node', node_id: NOTE, set: { data: { ...found.node.data, content: long } } }],
    );
    const { context, page } = await signIn(browser, server, DEMO_OWNER, { projectId: 'demo', canvasId: 'main' }, WALL);
    try {
      await openDetails(page);
      const json = page.getByRole('region', { name: `Data of ${NOTE} as JSON` });
      expect(await json.isVisible()).toBe(false);
      const advanced = page.locator('.side').getByText('Advanced', { exact: true });
      await advanced.focus();
      await page.keyboard.press('Enter');
      await json.waitFor();
      await page.keyboard.press('Tab');
      expect(await json.evaluate((element) => element.ownerDocument.activeElement === element)).toBe(true);
      expect(await json.evaluate((element) => element.scrollTop)).toBe(0);
      await page.keyboard.press('PageDown');
      await expect.poll(() => json.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
      // Read-only: typing there changes nothing.
      await page.keyboard.type('x');
      expect(await json.textContent()).toContain('"content": "line 1 of a long note');
      expect(await json.textContent()).not.toContain('x"');
    } finally {
      await context.close();
    }
  });
});
