import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, NODE_TYPES, type NodeType } from '../../src/contract/index.js';
import type { Store } from '../../src/store/store.js';
import { MINIMAL_DATA } from './node-fixtures.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { connectClient } from './mcp.js';
import { startTestServer, type TestServer } from './servers.js';
import { STORE_TARGETS } from './stores.js';
import { projectToken } from './tokens.js';
import { uploadedPicture } from './upload-fixtures.js';

/** What most browser tests start from: a server on SQLite with the demo seeded, an agent, and Chromium. */
export interface DemoStage {
  server: TestServer;
  /** The official SDK client with the demo's token and chat run (it may edit the demo canvas). */
  agent: Client;
  browser: Browser;
  close(): Promise<void>;
}

export async function startDemoStage(): Promise<DemoStage> {
  const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
  const server = await startTestServer(sqlite, { seedDemo: true });
  const demo = server.server.demo!;
  const agent = await connectClient(server.server.mcpUrl, {
    Authorization: `Bearer ${demo.token}`,
    'X-Agent-Run-Id': demo.agentRunId,
  });
  const browser = await launchBrowser();
  return {
    server,
    agent,
    browser,
    async close() {
      await agent.close();
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Adds a card of every node type to the demo canvas, right of the demo's own cards, six to a row: `${prefix}-${type}`
 * with the data `dataOf` gives (the minimal valid data by default).
 */
export async function addCardOfEveryType(
  store: Store,
  prefix: string,
  dataOf: (type: NodeType) => Record<string, unknown> = (type) => MINIMAL_DATA[type],
): Promise<void> {
  let revision = (await store.layout.readCanvas('demo', 'main'))!.revision;
  for (const [index, type] of NODE_TYPES.entries()) {
    const node = CanvasNode.parse({
      id: `${prefix}-${type}`,
      type,
      position: { x: 1200 + (index % 6) * 380, y: Math.floor(index / 6) * 420 },
      data: dataOf(type),
    });
    await store.writes.createNode(
      {
        projectId: 'demo',
        canvasId: 'main',
        baseRevision: revision++,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      },
      node,
    );
  }
}

/**
 * A fresh canvas of the demo project holding one storyboard, `board`, titled Opening at 16:9, whose shots `frames`
 * makes from the URL of a still uploaded there (as an editor would). Answers a viewer's token for reading it back.
 */
export async function boardWithStill(
  server: TestServer,
  canvasId: string,
  frames: (stillUrl: string) => Array<Record<string, unknown>>,
): Promise<{ reader: string }> {
  await server.store.projects.createCanvas('demo', canvasId, false);
  const editor = await projectToken(server.store, 'demo', 'editor');
  const still = await uploadedPicture(server, { projectId: 'demo', canvasId, token: editor, name: 'still.png' });
  await server.store.writes.createNode(
    { projectId: 'demo', canvasId, baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
    CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: { title: 'Opening', aspectRatio: '16:9', frames: frames(still) },
    }),
  );
  return { reader: await projectToken(server.store, 'demo', 'viewer') };
}
