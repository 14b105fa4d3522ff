import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { connectClient } from '../support/mcp.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas, projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * "Undo this agent's changes" in Chromium: an external agent adds two cards through /mcp/; the person opens the Agents
 * tab and undoes what that agent changed, as one revision: both cards are gone.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the web canvas: undo an agent’s changes', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer(sqlite, { seedDemo: true });
    await server.store.projects.createCanvas('demo', 'agented', false);
    const token = await agentOnCanvas(server.store, {
      projectId: 'demo',
      canvasId: 'agented',
      name: 'layout agent',
    });
    const chatRunId = token.chatRunId;
    const agent = await connectClient(server.server.mcpUrl, {
      Authorization: `Bearer ${token.secret}`,
      'X-Agent-Run-Id': chatRunId,
    });
    for (const [index, id] of ['agent-a', 'agent-b'].entries()) {
      const made = await agent.callTool({
        name: 'create_canvas_node',
        arguments: {
          project_id: 'demo',
          canvas_id: 'agented',
          base_revision: index,
          node: { id, type: 'textAnnotationNode', position: { x: index * 400, y: 0 }, data: { content: id } },
        },
      });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    }
    await agent.close();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('undoes everything the agent changed from the Agents tab, as one revision', async () => {
    const reader = await projectToken(server.store, 'demo', 'viewer');
    const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
      projectId: 'demo',
      canvasId: 'agented',
    });
    try {
      await page.locator('.feed-live').waitFor();
      await page.getByRole('tab', { name: 'Agents' }).click();
      await page.getByRole('button', { name: 'Undo its changes' }).click();
      const after = await waitFor(
        () => readLayout(server, 'demo', 'agented', reader),
        (layout) => layout.revision === 3,
      );
      expect(after.nodes).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
