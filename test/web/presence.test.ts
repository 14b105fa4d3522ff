import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { seriousFindings } from '../support/axe.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { connectClient, structured } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Presence, in Chromium: two people on one canvas see each other's cursor and selection, and the agent's marker on the
 * node it touched; the agent sees in get_canvas who is there and what they selected; a person who leaves is gone from
 * the others' screens. On PostgreSQL the two people are on two server processes of one database.
 */

const ANA = { issuer: 'https://idp.example', subject: 'ana' };
const CANVAS = { projectId: 'demo', canvasId: 'main' };

interface Presence {
  key: string;
  kind: string;
  name: string;
  selection: string[];
  node_id: string | null;
}

describe.each(STORE_TARGETS)('presence of people and agents: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let first: TestServer;
    let second: TestServer;
    let browser: Browser;
    let agent: Client;

    beforeAll(async () => {
      first = await startTestServer(target, { seedDemo: true });
      // On PostgreSQL, Ana is on another server process of the same database; on SQLite, on the same one.
      second = target.name === 'postgres' ? await startTestServer(target, {}, { database: first.database }) : first;
      await first.store.projects.addMember('demo', ANA, 'editor');
      const demo = first.server.demo!;
      agent = await connectClient(first.server.mcpUrl, {
        Authorization: `Bearer ${demo.token}`,
        'X-Agent-Run-Id': demo.agentRunId,
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await agent?.close();
      await browser?.close();
      if (second !== first) await second?.close();
      await first?.close();
    });

    it("each sees the other's cursor and selection and the agent's marker; the agent sees who selected what; leaving clears it", async () => {
      const owner = await signIn(browser, first, DEMO_OWNER, CANVAS);
      const ana = await signIn(browser, second, ANA, CANVAS);
      try {
        await card(owner.page, 'note-1').waitFor();
        await card(ana.page, 'note-1').waitFor();

        // Ana selects a card and moves her pointer over the canvas.
        await card(ana.page, 'note-1').locator('.card-head').click();
        const pane = (await ana.page.locator('.react-flow__pane').boundingBox())!;
        await ana.page.mouse.move(pane.x + pane.width * 0.6, pane.y + pane.height * 0.7, { steps: 4 });

        await owner.page.locator('.who-is-here').getByText('ana').waitFor();
        await owner.page.locator('[data-presence="ana"] .presence-cursor').waitFor();
        await owner.page.locator('[data-presence="ana"] .presence-selection').waitFor();
        await ana.page.locator('.who-is-here').getByText(DEMO_OWNER.subject).waitFor();

        // The agent reads who is there, and what Ana selected.
        const read = async () =>
          structured<{ layout: { revision: number }; presence?: Presence[] }>(
            await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'demo', canvas_id: 'main' } }),
          );
        const seen = await waitFor(
          read,
          (snapshot) => snapshot.presence?.find((entry) => entry.name === 'ana')?.selection.includes('note-1') === true,
        );
        expect(seen.presence!.map((entry) => entry.name).sort()).toEqual(['ana', DEMO_OWNER.subject].sort());

        // The agent writes: both people see its marker on the node it touched.
        await agent.callTool({
          name: 'create_canvas_node',
          arguments: {
            project_id: 'demo',
            canvas_id: 'main',
            base_revision: seen.layout.revision,
            node: {
              id: 'agent-note',
              type: 'textAnnotationNode',
              position: { x: 1000, y: 600 },
              data: { content: 'From the agent' },
            },
          },
        });
        for (const page of [owner.page, ana.page]) {
          await page.locator('.presence-agent').waitFor();
          await page.locator('.who-is-here .presence-chip[data-kind="agent"]').waitFor();
        }
        await screenshot(owner.page, `presence-${target.name}`);

        // Ana leaves: she is gone from the owner's screen at once (not after the 30 s expiry).
        await ana.page.close({ runBeforeUnload: true });
        await owner.page
          .locator('.who-is-here')
          .getByText('ana', { exact: true })
          .waitFor({ state: 'detached', timeout: 10_000 });
        await owner.page.locator('[data-presence="ana"]').waitFor({ state: 'detached' });
        expect(owner.errors).toEqual([]);
        expect(ana.errors).toEqual([]);
      } finally {
        await ana.context.close();
        await owner.context.close();
      }
    });

    it('an agent at work out of view is pointed at from the pane’s edge, and the pointer brings its card into view', async () => {
      const owner = await signIn(browser, first, DEMO_OWNER, CANVAS);
      try {
        await card(owner.page, 'note-1').waitFor();
        await owner.page.keyboard.press('f');
        const { layout } = structured<{ layout: { revision: number } }>(
          await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'demo', canvas_id: 'main' } }),
        );
        // Far up and to the right of everything Fit showed.
        await agent.callTool({
          name: 'create_canvas_node',
          arguments: {
            project_id: 'demo',
            canvas_id: 'main',
            base_revision: layout.revision,
            node: {
              id: 'far-note',
              type: 'textAnnotationNode',
              position: { x: 9000, y: -4000 },
              data: { content: 'Far from the others' },
            },
          },
        });
        // The notice names the note by its words, as its card does, not by its id.
        await owner.page.locator('.notice', { hasText: 'demo-agent (agent) added "Far from the others"' }).waitFor();
        const pointer = owner.page.getByRole('button', {
          name: /^.+ · Far from the others: show where .+ is working$/,
        });
        await pointer.waitFor();
        // Its name starts with the words it shows, so a person who speaks what they see reaches it (axe's
        // label-content-name-mismatch: the pointer once said one thing and was named another).
        expect(await seriousFindings(owner.page)).toEqual([]);
        const pane = (await owner.page.locator('.react-flow').boundingBox())!;
        const box = (await pointer.boundingBox())!;
        // On the pane's top right edge, whole.
        expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width);
        expect(box.x + box.width).toBeGreaterThan(pane.x + pane.width - 40);
        expect(box.y).toBeGreaterThanOrEqual(pane.y);
        expect(box.y).toBeLessThan(pane.y + 40);
        await screenshot(owner.page, `agent-out-of-view-${target.name}`);

        await pointer.click();
        await pointer.waitFor({ state: 'detached' });
        const far = card(owner.page, 'far-note');
        await far.waitFor();
        const farBox = (await far.boundingBox())!;
        expect(farBox.x).toBeGreaterThanOrEqual(pane.x);
        expect(farBox.x + farBox.width).toBeLessThanOrEqual(pane.x + pane.width);
        expect(farBox.y).toBeGreaterThanOrEqual(pane.y);
        expect(farBox.y + farBox.height).toBeLessThanOrEqual(pane.y + pane.height);
        expect(owner.errors).toEqual([]);
      } finally {
        await owner.context.close();
      }
    });
  });
});
