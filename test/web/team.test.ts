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
import { chooseOption } from '../support/controls.js';

/**
 * A team run from the browser, in Chromium on SQLite and PostgreSQL: the owner creates a canvas and invites a teammate
 * from the Team page; the teammate opens the link in another browser, gives a name, joins and edits; the owner removes
 * them and their open canvas stops; the audit log says all of it; the owner sees the project's storage against its
 * quota; axe finds nothing serious.
 */

describe.each(STORE_TARGETS)('the team in the browser: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let agent: Client;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      const demo = server.server.demo!;
      agent = await connectClient(server.server.mcpUrl, {
        Authorization: `Bearer ${demo.token}`,
        'X-Agent-Run-Id': demo.agentRunId,
      });
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await agent?.close();
      await browser?.close();
      await server?.close();
    });

    it('owner creates a canvas and invites; the teammate joins in another browser and edits; removed, their page stops', async () => {
      const owner = await signIn(browser, server, DEMO_OWNER, null);
      const mate = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      try {
        const page = owner.page;
        page.setDefaultTimeout(10_000);
        mate.setDefaultTimeout(10_000);
        // A new canvas from the home page.
        await page.getByRole('heading', { name: 'Your canvases' }).waitFor();
        await page.locator('[data-session]', { hasText: 'this browser' }).waitFor();
        await page.getByLabel('New canvas').fill('storyboard-2');
        await page.getByRole('button', { name: 'Create', exact: true }).click();
        await page.getByRole('link', { name: 'storyboard-2' }).waitFor();
        expect(await server.store.layout.readCanvas('demo', 'storyboard-2')).toBeTruthy();
        // Renamed (its id stays), then a new project, then the canvas deleted with its id typed again.
        await page.getByRole('button', { name: 'Rename storyboard-2' }).click();
        await page.getByLabel('New name of storyboard-2').fill('Storyboard two');
        await page.getByRole('button', { name: 'Rename', exact: true }).click();
        await page.getByRole('link', { name: 'Storyboard two' }).waitFor();
        // Duplicated with its run results (the copy's id suggested, the option ticked).
        await page.getByRole('button', { name: 'Duplicate storyboard-2' }).click();
        await page.getByLabel('Copy run results').check();
        await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
        await page.getByRole('link', { name: 'storyboard-2-copy' }).waitFor();
        expect(await server.store.layout.readCanvas('demo', 'storyboard-2-copy')).toBeTruthy();
        // A canvas from a template, then saved as one of the project's own templates.
        const demo = page.locator('section[data-project="demo"]');
        await demo.getByLabel('New canvas').fill('Spring spot');
        await chooseOption(demo, 'from', 'Commercial, 60 s');
        await demo.getByRole('button', { name: 'Create', exact: true }).click();
        await page.getByRole('link', { name: 'Spring spot' }).waitFor();
        expect((await server.store.layout.readCanvas('demo', 'spring-spot'))?.revision).toBe(1);
        await page.getByRole('button', { name: 'Save as template: spring-spot' }).click();
        await page.getByLabel('Template name for spring-spot').fill('Our spot');
        await page.getByRole('button', { name: 'Save template', exact: true }).click();
        // Saved once its form has closed; the list is read again when it is opened.
        await page.getByLabel('Template name for spring-spot').waitFor({ state: 'detached' });
        await demo.getByRole('combobox', { name: 'from', exact: true }).click();
        await page.getByRole('option', { name: 'Our spot (this project)' }).waitFor();
        await page.keyboard.press('Escape');
        // A project named as people name things: its id is derived, its title is what the page shows.
        await page.getByLabel('New project').fill('Spring Commercial');
        await page.getByRole('button', { name: 'Create project' }).click();
        await page.locator('section[data-project="spring-commercial"]', { hasText: 'Spring Commercial' }).waitFor();
        await page.getByRole('button', { name: 'Delete storyboard-2', exact: true }).click();
        const confirm = page.getByRole('alertdialog', { name: 'Delete canvas storyboard-2' });
        await expect(confirm.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(true);
        await confirm.getByLabel('Type storyboard-2').fill('storyboard-2');
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await page.getByRole('link', { name: 'Storyboard two' }).waitFor({ state: 'detached' });
        expect(await server.store.layout.readCanvas('demo', 'storyboard-2')).toBeUndefined();
        await screenshot(page, `team-home-${target.name}`);
        expect(await seriousFindings(page)).toEqual([]);

        // An invitation link for an editor, from the Team page.
        await page.locator('section[data-project="demo"]').getByRole('link', { name: 'Team' }).click();
        await page.getByRole('heading', { name: 'Team of demo' }).waitFor();
        // Owners see what the project's files take against its storage quota.
        await page.getByText(/^The project's files take .+ of its 10 GiB quota \(\d+%\)/).waitFor();
        await chooseOption(page, 'Role for the invitation', 'editor');
        await page.getByRole('button', { name: 'Create invitation link' }).click();
        const link = await page.getByLabel(/Invitation link for a editor/).inputValue();
        expect(link).toMatch(new RegExp(`^${server.url}/invite\\?token=`));
        // While pending it stays listed with its link, to copy again.
        expect(
          await page
            .getByLabel(/Link of the editor invitation/)
            .first()
            .inputValue(),
        ).toBe(link);

        // The teammate, in a browser of their own with no session, joins with a name and edits the canvas.
        const matePage = await mate.newPage();
        const mateErrors: string[] = [];
        matePage.on('pageerror', (error) => mateErrors.push(error.message));
        await matePage.goto(link);
        await matePage.getByText(/invited you to project/).waitFor();
        expect(await seriousFindings(matePage), 'the invitation page').toEqual([]);
        await matePage.getByLabel(/Your name/).fill('Ana Lima');
        await matePage.getByRole('button', { name: 'Join' }).click();
        await matePage.getByText('You joined project demo.').waitFor();
        await matePage.getByRole('link', { name: 'main', exact: true }).click();
        await card(matePage, 'note-1').locator('.editable').click();
        const field = card(matePage, 'note-1').locator('textarea');
        await field.fill('Ana was here.');
        await field.press('Control+Enter');
        const read = async () =>
          structured<{ layout: { nodes: Array<{ id: string; data: { content?: string } }> } }>(
            await agent.callTool({ name: 'get_canvas', arguments: { project_id: 'demo', canvas_id: 'main' } }),
          ).layout;
        await waitFor(
          read,
          (layout) => layout.nodes.find((node) => node.id === 'note-1')?.data.content === 'Ana was here.',
        );
        const [entry] = await server.store.history.history('demo', 'main', 1e9, 1);
        expect(entry?.author).toMatchObject({ kind: 'person', subject: 'Ana Lima' });

        // The owner sees Ana, and removes her: her open canvas says she is no longer a member.
        await page.reload();
        await page.locator('tr[data-member="Ana Lima"]').waitFor();
        // Her session could end: the owner makes her a sign-in link to send, without the operator.
        await page.getByRole('button', { name: 'Sign-in link for Ana Lima' }).click();
        const comeBack = await page.getByLabel(/Sign-in link for Ana Lima/).inputValue();
        expect(comeBack).toMatch(new RegExp(`^${server.url}/auth/login\\?token=login_`));
        expect(await seriousFindings(page)).toEqual([]);
        // Owners see the agents working on the project's canvases (the demo's chat run), with End.
        await page
          .locator('li', { hasText: /chat run chat_/ })
          .first()
          .getByRole('button', { name: 'End' })
          .waitFor();
        await screenshot(page, `team-members-${target.name}`);
        // Removing asks once more; Keep leaves her in.
        await page.getByRole('button', { name: 'Remove Ana Lima' }).click();
        const question = page.getByRole('group', { name: 'Remove Ana Lima' });
        await question.getByText('Remove Ana Lima? They lose access at once.').waitFor();
        await question.getByRole('button', { name: 'Keep' }).click();
        await page.getByRole('button', { name: 'Remove Ana Lima' }).click();
        await question.getByRole('button', { name: 'Remove now' }).click();
        await page.locator('tr[data-member="Ana Lima"]').waitFor({ state: 'detached' });
        await matePage.getByText('You are not a member of this project.').waitFor({ timeout: 15_000 });

        // The audit log says who did what.
        const audit = page.locator('.team-audit');
        await audit.getByText('removed Ana Lima').waitFor();
        for (const line of [
          'joined as editor',
          'invited someone as editor',
          'created canvas storyboard-2',
          'made canvas storyboard-2-copy as a copy of storyboard-2, with 0 run results',
          'deleted canvas storyboard-2',
        ])
          await audit.getByText(line).first().waitFor();

        // The last owner cannot leave: the server's reason is shown.
        await page.getByRole('button', { name: 'Leave' }).click();
        await page.getByRole('group', { name: 'Leave the project' }).getByRole('button', { name: 'Leave now' }).click();
        await page
          .getByRole('alert')
          .getByText(/last owner/)
          .waitFor();
        expect(owner.errors).toEqual([]);
        expect(mateErrors).toEqual([]);
      } finally {
        await mate.close();
        await owner.context.close();
      }
    });
  });
});
