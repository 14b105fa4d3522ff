import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { connectClient } from './mcp.js';
import { startTestServer, type TestServer } from './servers.js';
import { STORE_TARGETS } from './stores.js';

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
  const agent = await connectClient(server.server.mcpUrl, { Authorization: `Bearer ${demo.token}`, 'X-Agent-Run-Id': demo.agentRunId });
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
