import type { Hono } from 'hono';
import type { CanvasBackend } from '../backend/canvas/backend.js';
import type { FeedHub } from '../backend/feed/feed-hub.js';
import type { Presence } from '../backend/presence/presence.js';
import type { BackendHttpEnv } from '../http/http-env.js';
import type { ServiceMetrics } from '../http/service-metrics.js';
import type { BackendClient } from '../mcp/backend-client.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import type { ConnectorGrants } from '../oauth/connector-grants.js';
import type { ConnectorGate } from '../oauth/mcp-gate.js';
import type { RunEngine } from '../runs/engine.js';
import type { Store } from '../store/store.js';
import type { DemoCredentials } from './demo-seed.js';

/** What one mode (backend or gateway) composes, for the HTTP server in src/server/server.ts to serve. */

/** Where the server is reached, known once it listens (port 0 picks one; the public URL may say otherwise). */
export interface Addresses {
  /** The origin people and clients use: sign-in cookies, CSRF checks, the OAuth issuer. */
  publicOrigin: string;
  /** Where /assets is served, for absolute asset URLs in tool results: this server, or the gateway's backend. */
  assetBase: string;
  /** Where this server's own agent (the canvas chat) reaches /mcp/. */
  ownMcpUrl: string;
}

export interface Connectors {
  server: AuthorizationServer;
  grants: ConnectorGrants;
  gate: ConnectorGate;
}

export interface Composed {
  mode: 'backend' | 'gateway';
  /** The REST routes (and, in gateway mode, the service routes). */
  app: Hono<BackendHttpEnv> | Hono;
  /** How /mcp reaches the canvas backend. */
  client: BackendClient;
  metrics: ServiceMetrics;
  presence: Presence | null;
  store: Store | null;
  backend: CanvasBackend | null;
  demo: DemoCredentials | null;
  engine: RunEngine | null;
  feed: FeedHub | null;
  /** The OAuth authorization server and its grants, once the server listens (backend mode). */
  connectors(): Connectors | null;
  /** Starts what needs the listening address (workers, webhooks, OAuth, the chat), registering its cleanup. */
  afterListen(addresses: Addresses, url: string): Promise<void>;
}
