import type { CanvasRef } from '../contract/index.js';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { principalOf, tokenRejection, type TokenPrincipal } from '../backend/auth/principal.js';
import { parseCanvasResource } from '../shared/canvas-resource-uri.js';
import { OAUTH_SCOPES, type OAuthGrantRecord, type OAuthScope } from '../store/oauth-grants.js';
import type { Store } from '../store/store.js';
import type { AuthorizationServer, ConnectorAccess } from './authorization-server.js';

/**
 * What /mcp asks of OAuth (docs/security.md, "Connectors"): who an access token is, and whether a request stays within
 * its grant. A grant names one canvas and its scopes: `canvas:read` for reads, `canvas:write` for layout writes,
 * `runs:write` for starting and cancelling runs. Anything beyond is 403 with a scope challenge; a request naming
 * another canvas is 403 too. Admin-issued agent tokens never come here: they work exactly as before.
 */

const TOOL_SCOPES: Readonly<Record<string, OAuthScope>> = {
  get_canvas: 'canvas:read',
  list_zone_skills: 'canvas:read',
  get_canvas_node_run: 'canvas:read',
  create_canvas_node: 'canvas:write',
  delete_canvas_node: 'canvas:write',
  create_canvas_edge: 'canvas:write',
  apply_canvas_changes: 'canvas:write',
  estimate_canvas_node_run: 'canvas:read',
  submit_canvas_node_run: 'runs:write',
  cancel_canvas_node_run: 'runs:write',
  // Tool sets an owner enabled for the connection (docs/contract.md, "Tools beyond the six").
  export_board: 'canvas:write',
  get_export: 'canvas:read',
  tidy_canvas: 'canvas:write',
  // Comments are not the layout: viewers comment, so a read grant with the review set replies and resolves.
  reply_to_comment: 'canvas:read',
  resolve_comment_thread: 'canvas:read',
};

export interface ConnectorDenial {
  message: string;
  /** The scope the request needs (for the challenge), or null when no scope would do (another canvas). */
  scope: OAuthScope | null;
}

export interface ConnectorGate {
  /** The WWW-Authenticate value of a 401 or 403 at /mcp (RFC 6750, RFC 9728). */
  challenge(error?: 'invalid_token' | 'insufficient_scope', scope?: string): string;
  /** The agent principal an access token acts as, with its grant; or why it is refused. */
  authenticate(token: string): Promise<{ principal: TokenPrincipal; access: ConnectorAccess } | { refused: string }>;
  /** Null when the grant allows the request; else why not. */
  check(access: ConnectorAccess, request: JSONRPCRequest, rawArguments: unknown): ConnectorDenial | null;
  /**
   * Counts a run the connection submits against its spending limit (its estimate); answers how to give it back if
   * the submission fails and `done` to call once it has been answered, or why it may not be submitted. Submissions of
   * one connection with one idempotency key take turns, so a retry sent while the first is in flight sees its run.
   */
  reserveRun(access: ConnectorAccess, rawArguments: unknown): Promise<RunReservation | { refused: string }>;
}

export interface RunReservation {
  refund(): Promise<void>;
  done(): void;
}

/** What a run would cost (the backend's estimate), for the connection's spending limit. */
export type RunEstimator = (grant: OAuthGrantRecord, nodeId: string) => Promise<number>;

function canvasOf(request: JSONRPCRequest, rawArguments: unknown): CanvasRef | null {
  if (request.method === 'resources/read') {
    const uri = (request.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== 'string') return null;
    try {
      return parseCanvasResource(uri);
    } catch {
      return null;
    }
  }
  const args = rawArguments as { project_id?: unknown; canvas_id?: unknown } | undefined;
  if (!args || typeof args !== 'object') return null;
  return typeof args.project_id === 'string' || typeof args.canvas_id === 'string'
    ? { projectId: String(args.project_id), canvasId: String(args.canvas_id) }
    : null;
}

export function createConnectorGate(options: {
  store: Store;
  server: AuthorizationServer;
  estimate: RunEstimator;
  clock?: () => number;
}): ConnectorGate {
  const { store, server } = options;
  const clock = options.clock ?? Date.now;
  // Per connection and idempotency key: the submission in progress, which the next one waits for.
  const turns = new Map<string, Promise<void>>();
  async function turnOf(key: string): Promise<() => void> {
    const before = turns.get(key);
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    const queued = (before ?? Promise.resolve()).then(() => mine);
    turns.set(key, queued);
    await before;
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      finish();
      if (turns.get(key) === queued) turns.delete(key);
    };
  }
  return {
    challenge(error, scope) {
      const parts = [`resource_metadata="${server.resourceMetadataUrl}"`, `scope="${scope ?? OAUTH_SCOPES.join(' ')}"`];
      if (error) parts.unshift(`error="${error}"`);
      return `Bearer ${parts.join(', ')}`;
    },

    async authenticate(token) {
      const checked = await server.verifyAccessToken(token);
      if (!checked.ok) return { refused: checked.reason };
      const agentToken = await store.tokens.getToken(checked.access.grant.tokenId);
      const rejection = tokenRejection(agentToken, clock(), ['agent']);
      if (rejection) return { refused: 'The grant of this access token has ended.' };
      await store.grants.touch(checked.access.grant);
      return { principal: principalOf(agentToken!), access: checked.access };
    },

    check(access, request, rawArguments) {
      const needed: OAuthScope | null =
        request.method === 'tools/call'
          ? (TOOL_SCOPES[String((request.params as { name?: unknown } | undefined)?.name)] ?? 'canvas:read')
          : request.method === 'resources/read'
            ? 'canvas:read'
            : null;
      if (needed && !access.scopes.has(needed)) {
        return {
          message: `This connection was not allowed ${needed}: ask the person to connect again with more access.`,
          scope: needed,
        };
      }
      // A tool call naming another canvas is answered by the dispatcher as a tool error the model can read
      // (src/mcp/canvas-boundary.ts); a resource read of another canvas is refused here.
      const canvas = request.method === 'resources/read' ? canvasOf(request, rawArguments) : null;
      const { grant } = access;
      if (canvas && (canvas.projectId !== grant.projectId || canvas.canvasId !== grant.canvasId)) {
        return {
          message: `This connection is for canvas ${grant.canvasId} of project ${grant.projectId} only.`,
          scope: null,
        };
      }
      return null;
    },

    async reserveRun(access, rawArguments) {
      const { grant } = access;
      const nothing = async () => undefined;
      if (grant.spendLimit === null) return { refund: nothing, done: () => undefined };
      const { node_id: nodeId, idempotency_key: key } = (rawArguments ?? {}) as {
        node_id?: unknown;
        idempotency_key?: unknown;
      };
      if (typeof nodeId !== 'string') return { refund: nothing, done: () => undefined };
      const done = typeof key === 'string' ? await turnOf(`${grant.grantId}\u0000${key}`) : () => undefined;
      try {
        // A retried submission (a key already used on this canvas) answers the run it made: nothing more is spent.
        if (typeof key === 'string' && (await store.runs.keyUsed(grant.projectId, grant.canvasId, key)))
          return { refund: nothing, done };
        const cost = await options.estimate(grant, nodeId).catch(() => null);
        // A node the estimate cannot price is refused by the submission itself, with its own error.
        if (cost === null) return { refund: nothing, done };
        if (!(await store.grants.spend(grant.grantId, cost))) {
          done();
          return {
            refused: `This run would cost ${cost} credits; this connection may spend ${grant.spendLimit} in all and has spent ${grant.spent}.`,
          };
        }
        return { refund: () => store.grants.spend(grant.grantId, -cost).then(() => undefined), done };
      } catch (error) {
        done();
        throw error;
      }
    },
  };
}
