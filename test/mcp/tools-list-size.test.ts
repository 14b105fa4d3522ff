import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedToolSchemas } from '../../src/contract/index.js';
import { deploy, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/** What tools/list costs every agent on every session (issue 12: at most 40 KB), measured on the wire. */

const BUDGET_BYTES = 40 * 1024;

describe('tools/list size', () => {
  let deployment: McpDeployment;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
  });
  afterAll(async () => deployment?.close());

  async function toolsList(): Promise<{ bytes: number; tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }> }> {
    const response = await fetch(deployment.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2025-06-18',
        authorization: `Bearer ${deployment.world.tokens.viewer.secret}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const body = Buffer.from(await response.arrayBuffer());
    const { result } = JSON.parse(body.toString('utf8')) as { result: { tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }> } };
    return { bytes: body.length, tools: result.tools };
  }

  it(`answers tools/list in at most ${BUDGET_BYTES} bytes, JSON-RPC envelope included`, async () => {
    const { bytes } = await toolsList();
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('publishes exactly the schemas `canvas-mcp schemas` prints', async () => {
    const { tools } = await toolsList();
    expect(tools.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema }))).toEqual(
      JSON.parse(JSON.stringify(publishedToolSchemas())),
    );
  });
});
