import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { seriousFindings } from '../support/axe.js';
import { launchBrowser, screenshot, signIn } from '../support/browser.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * The webhooks panel in Chromium: an owner adds an endpoint on the Team page (its secret shown once), a change on the
 * canvas reaches the receiver signed with that secret, the deliveries list shows it delivered, and "Send again"
 * delivers it once more under the same webhook-id. axe finds nothing serious on the panel.
 */

describe('webhooks in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let receiver: Server;
  let receiverUrl = '';
  const received: Array<{ id: string; body: string; timestamp: string; signature: string }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({
          id: String(req.headers['webhook-id']),
          body,
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    server = await startTestServer(STORE_TARGETS[0]!, {
      seedDemo: true,
      webhookRetryMs: 50,
      webhooksPrivateNetwork: true,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it('an owner adds an endpoint, sees its deliveries, and sends one again', async () => {
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, null);
    try {
      await page.goto(`${server.url}/p/demo/team`);
      const panel = page.locator('section[aria-labelledby="webhooks-title"]');
      await panel.getByText('No webhook yet.').waitFor();
      await panel.getByLabel('Endpoint URL').fill(receiverUrl);
      for (const type of ['run.queued', 'run.running', 'run.succeeded', 'run.failed', 'run.cancelled'])
        await panel.getByLabel(type, { exact: true }).uncheck();
      await panel.getByLabel('Allow http and private network addresses').check();
      await panel.getByRole('button', { name: 'Add webhook' }).click();
      const secret = await panel.getByLabel(/Signing secret for/).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await panel.locator('li[data-webhook]').getByText('layout.revision').waitFor();

      // A change on the canvas (by the API, like every client) reaches the receiver, signed with the secret shown.
      const cookie = await cookieOf(context);
      const snapshot = (
        await api(server.url, '/api/v2/projects/demo/canvases/main/snapshot', {
          headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2', cookie },
        })
      ).body as { layout: { revision: number } };
      const note = {
        id: 'hook-frame',
        type: 'imageGenNode',
        position: { x: 0, y: 900 },
        data: { prompt: 'a harbour', size: '1K', imageUrl: null, aspectRatio: '1:1' },
      };
      const created = await api(server.url, '/api/v2/projects/demo/canvases/main/nodes', {
        method: 'POST',
        headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
        body: { node: note, base_revision: snapshot.layout.revision },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      await waitFor(
        async () => received.length,
        (count) => count >= 1,
      );
      const first = received[0]!;
      const event = new Webhook(secret).verify(first.body, {
        'webhook-id': first.id,
        'webhook-timestamp': first.timestamp,
        'webhook-signature': first.signature,
      });
      expect(event).toMatchObject({
        type: 'layout.revision',
        data: { canvas_id: 'main', revision: snapshot.layout.revision + 1 },
      });

      await panel.getByRole('button', { name: 'Deliveries' }).click();
      const row = panel.locator('table tbody tr').first();
      await row.getByText('delivered').waitFor();
      await row.getByText(/^204 in [\d.]+ ms$/).waitFor();
      await row.getByRole('button', { name: /^Send again: layout\.revision msg_/ }).click();
      await waitFor(
        async () => received.length,
        (count) => count >= 2,
      );
      expect(received[1]!.id).toBe(first.id);
      await screenshot(page, 'webhooks');
      expect(await seriousFindings(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

async function cookieOf(context: BrowserContext): Promise<string> {
  const cookies = await context.cookies();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}
