import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALL_PROTOCOL_VERSIONS } from './protocol.js';
import { SERVER_INFO } from './era.js';
import { PACKAGE, REPOSITORY_URL } from '../shared/package-facts.js';

/**
 * Discovery (docs/contract.md, "Discovery"): the Server Card of SEP-2127 at the MCP endpoint's
 * `/server-card` (`application/mcp-server-card+json`), the same document at `/.well-known/mcp/server-card`, and the catalogs that point at it: the AI Catalog at
 * `/.well-known/ai-catalog.json` (what the SEP's current text names) and the earlier MCP catalog at
 * `/.well-known/mcp/catalog.json` (what its draft named, which some clients still read). Public, cacheable, CORS open,
 * built from what the server already says of itself: the package (name, version, description), the protocol
 * revisions it serves, and its OAuth metadata address. Tools, resources and prompts are left out, as the SEP says:
 * clients list them at run time.
 */

export const SERVER_CARD_PATH = '/mcp/server-card';
/** The same card where the draft's other reading puts it: a well-known path on the origin, as some clients look. */
export const WELL_KNOWN_SERVER_CARD_PATH = '/.well-known/mcp/server-card';
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const MCP_CATALOG_PATH = '/.well-known/mcp/catalog.json';
export const ICON_PATH = '/mcp/icon.svg';
/** Each tool's icon (MCP `icons`): what it does to the canvas, in a path as short as the list's budget wants. */
const TOOL_ICON_PATHS = { read: '/mcp/i/read.svg', write: '/mcp/i/write.svg', run: '/mcp/i/run.svg' } as const;
export const toolIconPath = (icon: keyof typeof TOOL_ICON_PATHS): string => TOOL_ICON_PATHS[icon];

/** Three tool icons in the server icon's colours: an eye (reads), a pencil (changes), a play button (runs). */
const TOOL_ICON_SVG: Record<string, string> = {
  [TOOL_ICON_PATHS.read]:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3b5bdb"/>' +
    '<path d="M8 32c6-10 14-15 24-15s18 5 24 15c-6 10-14 15-24 15S14 42 8 32z" fill="#fff"/><circle cx="32" cy="32" r="8" fill="#3b5bdb"/></svg>',
  [TOOL_ICON_PATHS.write]:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3b5bdb"/>' +
    '<path d="M16 48l4-12 22-22 8 8-22 22z" fill="#fff"/><path d="M16 48l4-12 8 8z" fill="#ffd43b"/></svg>',
  [TOOL_ICON_PATHS.run]:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3b5bdb"/>' +
    '<path d="M24 16l24 16-24 16z" fill="#ffd43b"/></svg>',
};

const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** A storyboard grid: three frames and a cursor, in the canvas's accent colour. */
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#3b5bdb"/>' +
  '<g fill="#fff"><rect x="10" y="14" width="19" height="14" rx="2"/><rect x="35" y="14" width="19" height="14" rx="2"/>' +
  '<rect x="10" y="36" width="19" height="14" rx="2"/></g><path d="M38 34l14 6-6 2-2 6z" fill="#ffd43b"/></svg>';

export function serverCard(origin: string, options: { oauth: boolean }) {
  return {
    $schema: CARD_SCHEMA,
    name: PACKAGE.mcpName,
    title: SERVER_INFO.title,
    version: PACKAGE.version,
    description: PACKAGE.description,
    websiteUrl: PACKAGE.homepage ?? REPOSITORY_URL,
    repository: { url: REPOSITORY_URL, source: 'github' },
    icons: [{ src: `${origin}${ICON_PATH}`, mimeType: 'image/svg+xml', sizes: ['any'] }],
    remotes: [{ type: 'streamable-http', url: `${origin}/mcp`, supportedProtocolVersions: [...ALL_PROTOCOL_VERSIONS] }],
    // Not in the card's shape (the SEP left authorization out): where a client finds how to get a token.
    ...(options.oauth
      ? {
          _meta: {
            'io.github.canvas-mcp/authorization': {
              protected_resource_metadata: `${origin}/.well-known/oauth-protected-resource/mcp`,
              bearer_tokens: 'agent tokens issued by the project owner (docs/security.md)',
            },
          },
        }
      : {}),
  };
}

export function aiCatalog(origin: string) {
  return {
    specVersion: '1.0',
    entries: [
      {
        identifier: `urn:mcp:${PACKAGE.mcpName}`,
        type: 'application/mcp-server-card+json',
        url: `${origin}${SERVER_CARD_PATH}`,
      },
    ],
  };
}

/** The SEP draft's catalog, before it became the AI Catalog. */
export function mcpCatalog(origin: string) {
  return { specVersion: 'draft', servers: [{ name: PACKAGE.mcpName, url: `${origin}${SERVER_CARD_PATH}` }] };
}

const DISCOVERY_PATHS = new Set([
  SERVER_CARD_PATH,
  WELL_KNOWN_SERVER_CARD_PATH,
  AI_CATALOG_PATH,
  MCP_CATALOG_PATH,
  ICON_PATH,
  ...Object.values(TOOL_ICON_PATHS),
]);

export function isDiscoveryPath(path: string): boolean {
  return DISCOVERY_PATHS.has(path);
}

/** Answers a discovery request: GET or HEAD (and the CORS preflight), with an ETag and 304 when it matches. */
export function serveDiscovery(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  origin: string,
  options: { oauth: boolean },
): void {
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET',
    'access-control-allow-headers': 'Content-Type, If-None-Match',
    'access-control-expose-headers': 'ETag',
  };
  if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return void res
      .writeHead(405, { ...cors, allow: 'GET, HEAD', 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 'method_not_allowed', message: `${req.method} is not allowed here.` } }));
  const [type, body] =
    path === SERVER_CARD_PATH || path === WELL_KNOWN_SERVER_CARD_PATH
      ? ['application/mcp-server-card+json', JSON.stringify(serverCard(origin, options))]
      : path === AI_CATALOG_PATH
        ? ['application/ai-catalog+json', JSON.stringify(aiCatalog(origin))]
        : path === MCP_CATALOG_PATH
          ? ['application/json', JSON.stringify(mcpCatalog(origin))]
          : ['image/svg+xml', TOOL_ICON_SVG[path] ?? ICON_SVG];
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const headers = {
    ...cors,
    'content-type': type,
    'cache-control': 'public, max-age=3600',
    etag,
    'x-content-type-options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
  res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
}
