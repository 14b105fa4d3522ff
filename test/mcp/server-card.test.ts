import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PROTOCOL_VERSIONS } from '../../src/mcp/protocol.js';
import { PACKAGE_VERSION } from '../../src/shared/version.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Discovery: a plain HTTP client finds the Server Card (SEP-2127) at the MCP endpoint's /server-card and through the
 * AI catalog, checked against the SEP's schema; public, CORS open, cacheable with an ETag (the registry entry:
 * test/contract/discovery.test.ts).
 */

const cardSchema = JSON.parse(readFileSync('schemas/mcp-server-card-v1.schema.json', 'utf8')) as Record<
  string,
  unknown
>;
const serverJson = JSON.parse(readFileSync('server.json', 'utf8')) as Record<string, unknown>;

describe('the Server Card and catalogs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
  });
  afterAll(async () => server?.close());

  it('serves a card that the SEP’s schema accepts, naming the endpoint and every protocol revision it serves', async () => {
    const response = await fetch(`${server.url}/mcp/server-card`, {
      headers: { accept: 'application/mcp-server-card+json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toBe('ETag');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const card = (await response.json()) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile({ ...cardSchema, $ref: '#/$defs/ServerCard' });
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(card).toMatchObject({
      name: serverJson.name,
      version: PACKAGE_VERSION,
      description: serverJson.description,
      remotes: [
        { type: 'streamable-http', url: `${server.url}/mcp`, supportedProtocolVersions: [...ALL_PROTOCOL_VERSIONS] },
      ],
    });
    // Primitives are listed at run time, never in the card.
    expect(Object.keys(card)).not.toEqual(expect.arrayContaining(['tools']));
    const icon = await fetch((card.icons as Array<{ src: string }>)[0]!.src);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);

    const etag = response.headers.get('etag')!;
    const again = await fetch(`${server.url}/mcp/server-card`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const preflight = await fetch(`${server.url}/mcp/server-card`, { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.get('access-control-allow-methods')]).toEqual([204, 'GET']);
  });

  it('points at the card from the AI catalog and the earlier MCP catalog', async () => {
    const catalog = await fetch(`${server.url}/.well-known/ai-catalog.json`);
    expect(catalog.headers.get('content-type')).toBe('application/ai-catalog+json');
    const body = (await catalog.json()) as { specVersion: string; entries: Array<{ type: string; url: string }> };
    expect(body.specVersion).toBe('1.0');
    expect(body.entries).toEqual([
      expect.objectContaining({ type: 'application/mcp-server-card+json', url: `${server.url}/mcp/server-card` }),
    ]);
    expect((await fetch(body.entries[0]!.url)).status).toBe(200);
    const earlier = (await (await fetch(`${server.url}/.well-known/mcp/catalog.json`)).json()) as {
      servers: Array<{ url: string }>;
    };
    expect(earlier.servers[0]!.url).toBe(`${server.url}/mcp/server-card`);
  });

  it('serves the same card, cacheable, at /.well-known/mcp/server-card, where the draft’s other reading looks', async () => {
    const atEndpoint = await fetch(`${server.url}/mcp/server-card`);
    const wellKnown = await fetch(`${server.url}/.well-known/mcp/server-card`);
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(wellKnown.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(wellKnown.headers.get('access-control-allow-origin')).toBe('*');
    expect(wellKnown.headers.get('etag')).toBe(atEndpoint.headers.get('etag'));
    expect(await wellKnown.text()).toBe(await atEndpoint.text());
    const again = await fetch(`${server.url}/.well-known/mcp/server-card`, {
      headers: { 'if-none-match': wellKnown.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});
