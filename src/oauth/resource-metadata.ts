import type { ServerResponse } from 'node:http';
import type { AuthorizationServer } from './authorization-server.js';

/**
 * RFC 9728 protected resource metadata of /mcp: at the root well-known address and at the ones with the resource's
 * path appended (with and without its trailing slash), the addresses MCP clients try in turn.
 */
export const PROTECTED_RESOURCE_PATHS = new Set([
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource/mcp/',
]);

export function serveResourceMetadata(res: ServerResponse, server: AuthorizationServer | null): void {
  if (!server) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: { code: 'not_found', message: 'This server issues no OAuth tokens (a gateway, or still starting).' },
      }),
    );
    return;
  }
  res
    .writeHead(200, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=300',
    })
    .end(JSON.stringify(server.resourceMetadata()));
}
