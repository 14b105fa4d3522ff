import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A local OpenID Connect provider for tests: `oidc-provider` (a certified implementation, not a stub) on a loopback
 * port, with its development login page (any login, any password) and one confidential client. Its port is taken
 * first, so the server under test can be started with the issuer URL before the client's redirect address is known.
 */

export interface OidcStandIn {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client's redirect address and starts answering. */
  serve(redirectUri: string): void;
  close(): Promise<void>;
}

export async function reserveOidcStandIn(): Promise<OidcStandIn> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'canvas-mcp-test';
  const clientSecret = 'a-client-secret-for-the-test-provider';
  return {
    issuer,
    clientId,
    clientSecret,
    serve(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
          },
        ],
        pkce: { required: () => true },
        claims: { openid: ['sub'], profile: ['name'] },
        findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, name: id }) }),
        // Development keys and pages are what a stand-in needs; they are never part of canvas-mcp itself.
        features: { devInteractions: { enabled: true } },
      });
      // Its console notices about development settings are expected here.
      provider.on('server_error', (_ctx, error) => console.error('oidc stand-in:', error));
      server.on('request', provider.callback());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
