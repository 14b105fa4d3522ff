import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedToolSchemas } from '../../src/contract/index.js';
import { STORYBOARDING_SKILL_URI } from '../../src/mcp/skill-catalog.js';
import { deploy, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/** What tools/list costs every agent on every session (at most 40 KB), measured on the wire. */

const BUDGET_BYTES = 40 * 1024;

describe('tools/list size', () => {
  let deployment: McpDeployment;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
  });
  afterAll(async () => deployment?.close());

  async function toolsList(): Promise<{
    bytes: number;
    tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }>;
  }> {
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
    const { result } = JSON.parse(body.toString('utf8')) as {
      result: { tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }> };
    };
    return { bytes: body.length, tools: result.tools };
  }

  /** The same list in 2026-07-28 framing: a `_meta` envelope, the mirrored headers, and resultType, `_meta` and cache hints in the reply. */
  async function modernToolsList(): Promise<{
    bytes: number;
    result: Record<string, unknown> & { tools: Array<{ name: string }> };
  }> {
    const response = await fetch(deployment.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
        authorization: `Bearer ${deployment.world.tokens.viewer.secret}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'size-check', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    const { result } = JSON.parse(body.toString('utf8')) as {
      result: Record<string, unknown> & { tools: Array<{ name: string }> };
    };
    return { bytes: body.length, result };
  }

  it(`answers tools/list in at most ${BUDGET_BYTES} bytes, JSON-RPC envelope included`, async () => {
    const { bytes } = await toolsList();
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it(`answers a 2026-07-28 tools/list in at most ${BUDGET_BYTES} bytes, resultType, _meta and cache hints included`, async () => {
    const { bytes, result } = await modernToolsList();
    // The reply measured is the modern one, with every field the era adds, and the same tools as 2025-06-18.
    expect(result).toMatchObject({
      resultType: 'complete',
      ttlMs: expect.any(Number),
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'canvas-mcp' } },
    });
    expect(result.tools).toEqual((await toolsList()).tools);
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('gives each of the six tools an icon its URL serves as SVG, within the same budget', async () => {
    const { tools } = await toolsList();
    expect(tools).toHaveLength(6);
    for (const tool of tools as Array<{ name: string; icons?: Array<{ src: string }> }>) {
      const src = tool.icons?.[0]?.src;
      expect(src, tool.name).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/i\/(read|write|run)\.svg$/);
      const icon = await fetch(src!);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(await icon.text()).toMatch(/^<svg /);
    }
  });

  it('publishes exactly the schemas `canvas-mcp schemas` prints', async () => {
    const { tools } = await toolsList();
    expect(tools.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema }))).toEqual(
      JSON.parse(JSON.stringify(publishedToolSchemas())),
    );
  });

  it('points agents at the storyboarding skill instead of teaching in every description, and is smaller for it', async () => {
    const { bytes, tools } = await toolsList();
    const descriptions = Object.fromEntries(
      (tools as unknown as Array<{ name: string; description: string }>).map((tool) => [tool.name, tool.description]),
    );
    expect(descriptions.get_canvas).toContain(STORYBOARDING_SKILL_URI);
    expect(descriptions.create_canvas_node).toContain(STORYBOARDING_SKILL_URI);
    // Before the skill the list had 87 bytes to spare on a loopback address; the guidance it now holds freed 300 more.
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES - 87 - 300);
  });
});
