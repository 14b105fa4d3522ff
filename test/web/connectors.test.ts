import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDP } from '../backend/world.js';
import { card, launchBrowser, screenshot, signIn } from '../support/browser.js';
import { TestOAuthProvider } from '../support/oauth-client.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { chooseOption } from '../support/controls.js';

/**
 * A person connects an OAuth client to their canvas in a real browser: the client's first call is 401, the person
 * approves "may edit" on one canvas on the consent page, the client writes with no custom header and the person sees
 * the card arrive live; they end the connection from the Agents tab and the client's next call is refused.
 */

describe.each(STORE_TARGETS)('connectors in the browser: $name', (target) => {
  describe.skipIf(!target.available)('consent, a live write, and the end', () => {
    let server: TestServer;
    let browser: Browser;
    let callbacks: Server;
    let callbackUrl: string;
    const received: URLSearchParams[] = [];

    beforeAll(async () => {
      server = await startTestServer(target);
      const { projects } = server.store;
      await projects.createWorkspace('studio');
      await projects.createProject('film', 'studio');
      await projects.createCanvas('film', 'board', false);
      await projects.addMember('film', { issuer: IDP, subject: 'ana' }, 'editor');
      // The client's redirect address: a loopback server, as desktop clients run one.
      callbacks = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        if (url.pathname === '/callback') received.push(url.searchParams);
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
      });
      await new Promise<void>((resolve) => callbacks.listen(0, '127.0.0.1', resolve));
      callbackUrl = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/callback`;
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      callbacks?.close();
      await server?.close();
    });

    it('approve "may edit" on the consent page, see the agent\'s card arrive live, end it from the panel', async () => {
      const provider = new TestOAuthProvider(callbackUrl, 'Claude (test)');
      const transport = new StreamableHTTPClientTransport(new URL(server.server.mcpUrl), { authProvider: provider });
      await expect(new Client({ name: 'claude-test', version: '1' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );

      const { context, page, errors } = await signIn(
        browser,
        server,
        { issuer: IDP, subject: 'ana' },
        { projectId: 'film', canvasId: 'board' },
      );
      try {
        await page.locator('.feed-live').waitFor();
        const consent = await context.newPage();
        await consent.goto(provider.authorizationUrl!.href);
        await consent.getByRole('heading', { name: 'Connect Claude (test) to a canvas' }).waitFor();
        await chooseOption(consent, 'Canvas', { value: 'film/board' });
        await consent.getByRole('radio', { name: /Read and edit the canvas/ }).check();
        await screenshot(consent, 'connector-consent');
        await consent.getByRole('button', { name: 'Allow' }).click();
        await consent.getByText('You can close this window.').waitFor();
        const callback = received.at(-1)!;
        expect(callback.get('iss')).toBe(`${server.url}/oauth`);
        await transport.finishAuth(callback.get('code')!);
        await consent.close();

        const client = new Client({ name: 'claude-test', version: '1' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(server.server.mcpUrl), { authProvider: provider }),
        );
        const read = (await client.callTool({
          name: 'get_canvas',
          arguments: { project_id: 'film', canvas_id: 'board' },
        })) as unknown as { structuredContent: { layout: { revision: number } } };
        const node = {
          id: 'from-claude',
          type: 'textAnnotationNode',
          position: { x: 80, y: 80 },
          data: { content: 'Written by the connected app', displayName: 'From Claude' },
        };
        const written = await client.callTool({
          name: 'create_canvas_node',
          arguments: {
            project_id: 'film',
            canvas_id: 'board',
            base_revision: read.structuredContent.layout.revision,
            node,
          },
        });
        expect(written.isError).toBeFalsy();
        await card(page, 'from-claude').waitFor();

        await page.getByRole('tab', { name: 'Agents' }).click();
        const row = page.locator('.connections li', { hasText: 'Claude (test)' });
        await row.waitFor();
        await expect(row.textContent()).resolves.toMatch(/for ana · reads, edits · last used/);
        await row.getByRole('button', { name: /^End / }).click();
        await page.locator('.connections li', { hasText: 'Claude (test)' }).waitFor({ state: 'detached' });
        await waitFor(
          async () => (await server.store.grants.onCanvas('film', 'board')).length,
          (count) => count === 0,
        );
        // The app's next call is refused: its access token is dead, and so is its refresh token.
        await expect(
          client.callTool({ name: 'get_canvas', arguments: { project_id: 'film', canvas_id: 'board' } }),
        ).rejects.toThrow();
        const raw = await fetch(server.server.mcpUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: `Bearer ${provider.saved!.access_token}`,
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(raw.status).toBe(401);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
