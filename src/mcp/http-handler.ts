import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSONRPCMessageSchema, JSONRPCRequestSchema, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import getRawBody from 'raw-body';
import { REQUEST_ID_HEADER, TOOL_SETS_HEADER } from '../contract/index.js';
import { readIdentityHeaders } from '../backend/auth/caller.js';
import { DUPLICATE_AUTHORIZATION, hasTokenInQuery, headerCount, parseBearer } from '../shared/bearer.js';
import { decodeUtf8, jsonContentTypeProblem } from '../shared/request-body.js';
import { hostAllowed } from '../shared/hosts.js';
import { dropUnreadBody } from '../shared/unread-body.js';
import { CanvasError, toCanvasError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import type { BackendClient, ToolCaller } from './backend-client.js';
import { refusalBody, type Dispatcher } from './dispatcher.js';
import { plainRequest } from './plain-envelope.js';
import type { RpcReply } from './protocol.js';
import type { EraFrame } from './era.js';
import { eraOf, isEraFrame, mirroredHeaders, type Framed, type MirroredHeaders } from './era-selection.js';
import { unsupportedVersion, type EraRefusal } from './modern-era.js';
import {
  RPC_ERROR,
  isModernProtocolVersion,
  isSupportedProtocolVersion,
  rpcErrorBody,
  type JsonRpcId,
} from './protocol.js';
import type { TokenRateLimiter } from './rate-limit.js';
import { mcpOutcomeOf, mcpResultOf, noteRefusal, rpcErrorCodeOf, type McpObserver } from './request-outcome.js';
import type { BodyCheckPool, CheckVerdict } from '../validation/body-check-pool.js';
import type { ConnectorAccess } from '../oauth/authorization-server.js';
import type { ConnectorGate, RunReservation } from '../oauth/mcp-gate.js';

/** Agent tokens this server issues start so; anything else presented at /mcp is an OAuth access token. */
const AGENT_TOKEN_PREFIX = 'cmcp_';

/**
 * MCP Streamable HTTP at /mcp and /mcp/, stateless, in both protocol eras (2025-06-18 and its neighbours with an
 * initialize handshake; 2026-07-28 with per-request `_meta`): every POST carries one JSON-RPC message and is
 * answered on its own, so any number of processes can serve behind a load balancer. Everything up to the JSON-RPC
 * shape is era-blind; then the era's framing (src/mcp/era.ts, src/mcp/modern-era.ts) admits the message.
 */

export interface McpHttpOptions {
  client: BackendClient;
  dispatcher: Dispatcher;
  logger: Logger;
  /** Origins allowed to call (a present Origin outside this list, and not loopback on a loopback server, gets 403). */
  allowedOrigins: readonly string[];
  /** Host names accepted in the Host header; null when the server is not bound to loopback. */
  allowedHostnames: readonly string[] | null;
  bodyLimitBytes: number;
  rateLimiter: TokenRateLimiter | null;
  bodyChecks: BodyCheckPool;
  /** Told the outcome of every request (metrics). */
  observe?: McpObserver;
  /** OAuth access tokens and their grants (src/oauth/mcp-gate.ts), once the authorization server runs; null: none. */
  connectors?: () => ConnectorGate | null;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SSE_OPENING = Buffer.from('event: message\ndata: ');
const SSE_CLOSING = Buffer.from('\n\n');

const CORS_HEADERS =
  'authorization, content-type, accept, mcp-protocol-version, mcp-method, mcp-name, x-agent-run-id, x-service-actor-subject, x-service-actor-issuer, x-request-id';

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

function refuse(
  status: number,
  error: CanvasError,
  id: JsonRpcId = null,
  headers: Record<string, string> = {},
): HttpRefusal {
  return new HttpRefusal(status, refusalBody(id, error), headers);
}

function rpcRefusal(status: number, code: number, message: string): HttpRefusal {
  return new HttpRefusal(status, rpcErrorBody(null, code, message));
}

function eraRefusal(refused: EraRefusal): HttpRefusal {
  return new HttpRefusal(refused.status, refused.body);
}

function rawArgumentsOf(message: unknown): unknown {
  const params = (message as { params?: unknown }).params;
  return params !== null && typeof params === 'object' ? (params as { arguments?: unknown }).arguments : undefined;
}

function negotiate(accept: string | undefined): 'json' | 'sse' | null {
  const value = (accept ?? '*/*').toLowerCase();
  if (/application\/json|application\/\*|\*\/\*/.test(value)) return 'json';
  if (value.includes('text/event-stream')) return 'sse';
  return null;
}

function writeReply(res: ServerResponse, reply: RpcReply, form: 'json' | 'sse', requestId: string): void {
  const body = reply.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  const chunks = form === 'sse' ? [SSE_OPENING, ...body, SSE_CLOSING] : body;
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  res.writeHead(200, {
    'content-type': form === 'sse' ? 'text/event-stream' : 'application/json',
    // 2026-07-28: servers SHOULD send it with an SSE response so proxies do not buffer it.
    ...(form === 'sse' ? { 'x-accel-buffering': 'no' } : {}),
    'content-length': length,
    'cache-control': 'no-store',
    [REQUEST_ID_HEADER]: requestId,
  });
  if (chunks.length === 1) {
    res.end(chunks[0]);
    return;
  }
  // The pieces go out as they are, in one writev with the head: the cached parts of a document are never copied
  // into a reply-sized buffer (measured: copying a 22 KB get_canvas reply cost more CPU, most of it in the garbage
  // collector's threads, than handing the kernel a dozen pieces; docs/performance.md).
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

export function createMcpHttpHandler(options: McpHttpOptions) {
  const { client, dispatcher } = options;

  /** The configured allowlist; on a loopback-bound server also loopback pages (what DNS rebinding cannot forge). */
  function isAllowedOrigin(origin: string): boolean {
    if (options.allowedOrigins.includes(origin)) return true;
    if (!options.allowedHostnames) return false;
    try {
      return options.allowedHostnames.includes(new URL(origin).hostname);
    } catch {
      return false;
    }
  }

  function checkOrigin(req: IncomingMessage, res: ServerResponse): void {
    const origin = req.headers.origin;
    if (origin === undefined) return;
    if (!isAllowedOrigin(origin)) {
      throw refuse(403, new CanvasError('forbidden', `Origin ${origin} is not allowed.`));
    }
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', `${REQUEST_ID_HEADER}, www-authenticate`);
  }

  interface Authenticated {
    principal: ToolCaller['principal'];
    connector?: ConnectorAccess;
  }

  async function authenticate(req: IncomingMessage): Promise<Authenticated> {
    const gate = options.connectors?.() ?? null;
    // Every 401 names where a client learns how to get a token (RFC 9728), when this server issues them.
    const unauthenticated = (message: string, presented = false) =>
      refuse(401, new CanvasError('unauthenticated', message), null, {
        'www-authenticate': gate ? gate.challenge(presented ? 'invalid_token' : undefined) : 'Bearer',
      });
    if (req.url?.includes('?') && hasTokenInQuery(new URL(req.url, 'http://localhost'))) {
      throw unauthenticated('Tokens are not accepted in the query string: send Authorization: Bearer <token>.');
    }
    if (headerCount(req.rawHeaders, 'authorization') > 1) throw unauthenticated(DUPLICATE_AUTHORIZATION);
    const bearer = parseBearer(req.headers.authorization);
    if (!bearer.ok) throw unauthenticated(bearer.reason);
    if (gate && !bearer.token.startsWith(AGENT_TOKEN_PREFIX)) {
      const verified = await gate.authenticate(bearer.token);
      if ('refused' in verified) throw unauthenticated(verified.refused, true);
      return { principal: verified.principal, connector: verified.access };
    }
    try {
      return { principal: await client.authenticate(bearer.token) };
    } catch (error) {
      const canvasError = toCanvasError(error);
      if (canvasError.code === 'unauthenticated') throw unauthenticated(canvasError.message, true);
      throw refuse(canvasError.status, canvasError);
    }
  }

  async function readBody(req: IncomingMessage): Promise<Buffer> {
    const contentTypeProblem = jsonContentTypeProblem(req.headers['content-type']);
    if (contentTypeProblem) throw refuse(415, new CanvasError('unsupported_media_type', contentTypeProblem));
    try {
      // With the announced length, a body announced over the limit is refused before a byte of it is awaited.
      return await getRawBody(req, { limit: options.bodyLimitBytes, length: req.headers['content-length'] });
    } catch (error) {
      if ((error as { type?: string }).type === 'entity.too.large') {
        throw refuse(
          413,
          new CanvasError('payload_too_large', `The request body exceeds ${options.bodyLimitBytes} bytes.`),
        );
      }
      throw rpcRefusal(400, RPC_ERROR.parseError, 'Could not read the request body.');
    }
  }

  function parseMessage(bytes: Buffer): unknown {
    const text = decodeUtf8(bytes);
    if (text === null) throw rpcRefusal(400, RPC_ERROR.parseError, 'Parse error: the body is not valid UTF-8.');
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      throw rpcRefusal(400, RPC_ERROR.parseError, 'Parse error: the body is not valid JSON.');
    }
    if (Array.isArray(message)) {
      throw rpcRefusal(
        400,
        RPC_ERROR.invalidRequest,
        'JSON-RPC batches are not supported (removed in MCP 2025-06-18): send one message per request.',
      );
    }
    return message;
  }

  /**
   * A large body is checked on a worker thread first: one refused there is never parsed on this thread, and the
   * tool arguments of a valid one come back checked.
   */
  async function checkLargeBody(bytes: Buffer): Promise<Extract<CheckVerdict, { kind: 'invalid' | 'valid' }> | null> {
    const verdict = await options.bodyChecks.checkLarge(bytes, { kind: 'mcp' }).catch((error: unknown) => {
      const canvasError = toCanvasError(error);
      throw refuse(canvasError.status, canvasError);
    });
    if (verdict === null || verdict.kind === 'valid' || verdict.kind === 'invalid') return verdict;
    if (verdict.kind === 'not_utf8')
      throw rpcRefusal(400, RPC_ERROR.parseError, 'Parse error: the body is not valid UTF-8.');
    if (verdict.kind === 'not_json')
      throw rpcRefusal(400, RPC_ERROR.parseError, 'Parse error: the body is not valid JSON.');
    return verdict;
  }

  async function takeRateLimit(tokenId: string, id: JsonRpcId): Promise<void> {
    if (!options.rateLimiter) return;
    const retryAfterMs = await options.rateLimiter.take(tokenId);
    if (retryAfterMs !== null) {
      throw refuse(
        429,
        new CanvasError('rate_limited', 'Too many requests for this token; retry later.', {
          retry_after_ms: retryAfterMs,
        }),
        id,
        {
          'retry-after': String(Math.ceil(retryAfterMs / 1000)),
        },
      );
    }
  }

  function callerOf(
    req: IncomingMessage,
    authenticated: Authenticated,
    requestId: string,
    fields: Record<string, unknown>,
  ): ToolCaller {
    const identity = readIdentityHeaders((name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    }, Object.keys(req.headers));
    const { principal, connector } = authenticated;
    // A connector writes through the chat run of its grant with no header; a header may still name it.
    if (connector && !identity.agentRunId && connector.grant.chatRunId) identity.agentRunId = connector.grant.chatRunId;
    if (connector) fields.grant_id = connector.grant.grantId;
    if (identity.agentRunId) fields.agent_run_id = identity.agentRunId;
    if (identity.actorSubject) fields.actor = `${identity.actorIssuer ?? '?'}|${identity.actorSubject}`;
    const asked = req.headers[TOOL_SETS_HEADER];
    const requestedToolSets =
      typeof asked === 'string'
        ? asked
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : null;
    return { principal, identity, requestId, requestedToolSets, ...(connector ? { connector } : {}) };
  }

  /** A request to answer, or null for a notification or response (202); anything else is refused. */
  function classify(message: unknown): JSONRPCRequest | null {
    // The common case first: a plain envelope checked by hand, then one schema, then the four-way message union.
    const plain = plainRequest(message);
    if (plain) return plain;
    const request = JSONRPCRequestSchema.safeParse(message);
    if (request.success) return request.data as JSONRPCRequest;
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      throw rpcRefusal(400, RPC_ERROR.invalidRequest, 'Invalid Request: the body is not a JSON-RPC 2.0 message.');
    }
    return null;
  }

  function frame(message: Framed, headers: MirroredHeaders, fields: Record<string, unknown>): EraFrame {
    const era = eraOf(message, headers);
    if (!isEraFrame(era)) throw eraRefusal(era);
    fields.era = era.name;
    return era;
  }

  async function handlePost(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const authenticated = await authenticate(req);
    const { principal } = authenticated;
    fields.token_id = principal.tokenId;
    const headers = mirroredHeaders(req);
    const version = headers.protocolVersion;
    // Both eras: an unsupported version is 400 (2025-06-18 MUST); 2026-07-28 names the error and the versions
    // served, and (like every error answering a request) carries the request's id: refused once the body is read.
    const unservedVersion =
      version !== undefined && !isSupportedProtocolVersion(version) && !isModernProtocolVersion(version);
    const refuseUnservedVersion = (id: JsonRpcId) => {
      if (unservedVersion) throw eraRefusal(unsupportedVersion(id, version));
    };
    const form = negotiate(req.headers.accept);
    if (!form) {
      throw rpcRefusal(406, RPC_ERROR.invalidRequest, 'Not Acceptable: accept application/json or text/event-stream.');
    }
    const bytes = await readBody(req);
    const large = await checkLargeBody(bytes);
    const refusedLarge = large?.kind === 'invalid' ? large : null;
    // Built as one literal for each call (no spreads): this is on every request's path.
    const context = (caller: ToolCaller, era: EraFrame, rawArguments?: unknown, checkedArguments?: unknown) => ({
      caller,
      era,
      // fields already carry request_id: one child of the root logger, so it appears once.
      log: () => options.logger.child(fields),
      outcome: (error: CanvasError) => {
        fields.error_code = error.code;
      },
      rawArguments,
      ...(checkedArguments !== undefined ? { checkedArguments } : {}),
    });
    let reply: RpcReply;
    if (refusedLarge) {
      const id = refusedLarge.id ?? null;
      refuseUnservedVersion(id);
      const era = frame(
        { id, method: 'tools/call', params: { name: refusedLarge.tool, _meta: refusedLarge.meta } },
        headers,
        fields,
      );
      await takeRateLimit(principal.tokenId, id);
      fields.rpc = 'tools/call';
      fields.tool = refusedLarge.tool;
      reply = await dispatcher.refuseToolCall(
        id,
        { tool: refusedLarge.tool!, fault: refusedLarge.fault, projectId: refusedLarge.projectId },
        context(callerOf(req, authenticated, requestId, fields), era),
      );
    } else {
      const message = parseMessage(bytes);
      const request = classify(message);
      refuseUnservedVersion(request ? request.id : null);
      const era = frame(request ?? (message as Framed), headers, fields);
      await takeRateLimit(principal.tokenId, request ? request.id : null);
      // Notifications and responses are accepted with 202 and no body.
      if (!request) {
        res.writeHead(202, { [REQUEST_ID_HEADER]: requestId }).end();
        fields.rpc = 'notification';
        fields.status = 202;
        return;
      }
      fields.rpc = request.method;
      const tool =
        request.method === 'tools/call' ? (request.params as { name?: unknown } | undefined)?.name : undefined;
      if (typeof tool === 'string') fields.tool = tool;
      const gate = options.connectors?.() ?? null;
      if (authenticated.connector && gate) {
        const denial = gate.check(authenticated.connector, request, rawArgumentsOf(message));
        if (denial) {
          // A missing scope is a challenge a client may answer by asking the person for more; another canvas is not.
          throw refuse(
            403,
            new CanvasError('forbidden', denial.message, denial.scope ? { required_scope: denial.scope } : {}),
            request.id,
            denial.scope ? { 'www-authenticate': gate.challenge('insufficient_scope', denial.scope) } : {},
          );
        }
      }
      let reservation: RunReservation | null = null;
      if (authenticated.connector && gate && tool === 'submit_canvas_node_run') {
        const reserved = await gate.reserveRun(authenticated.connector, rawArgumentsOf(message));
        if ('refused' in reserved) throw refuse(402, new CanvasError('budget_exceeded', reserved.refused), request.id);
        reservation = reserved;
      }
      try {
        const isToolCall = request.method === 'tools/call';
        reply = await dispatcher.dispatch(
          request,
          context(
            callerOf(req, authenticated, requestId, fields),
            era,
            isToolCall ? rawArgumentsOf(message) : undefined,
            isToolCall && large?.kind === 'valid' ? large.value : undefined,
          ),
        );
        // A submission that failed spent nothing of the connection's limit.
        if (reservation && fields.error_code !== undefined) await reservation.refund();
      } finally {
        reservation?.done();
      }
    }
    // A JSON-RPC error (an unknown tool, bad params) is a failure too: the access line says so.
    const rpcError = rpcErrorCodeOf(reply);
    if (rpcError !== null) fields.rpc_error = rpcError;
    writeReply(res, reply, form, requestId);
    fields.status = 200;
  }

  return async function handleMcpRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    // One access line per request; a child logger only when something goes wrong.
    const fields: Record<string, unknown> = { request_id: requestId };
    let childLog: Logger | undefined;
    const requestLog = () => (childLog ??= options.logger.child({ request_id: requestId }));
    try {
      if (!hostAllowed(req.headers.host, options.allowedHostnames)) {
        throw refuse(403, new CanvasError('forbidden', `Host ${req.headers.host ?? '(none)'} is not allowed.`));
      }
      checkOrigin(req, res);
      if (req.method === 'OPTIONS' && req.headers.origin !== undefined) {
        res.writeHead(204, {
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': CORS_HEADERS,
          'access-control-max-age': '600',
        });
        res.end();
        fields.status = 204;
        return;
      }
      if (req.method !== 'POST') {
        throw refuse(
          405,
          new CanvasError('method_not_allowed', `${req.method} is not supported: this server is stateless, POST only.`),
          null,
          {
            allow: 'POST',
          },
        );
      }
      await handlePost(req, res, requestId, fields);
    } catch (error) {
      const refusal = error instanceof HttpRefusal ? error : refuse(500, toCanvasError(error));
      if (!(error instanceof HttpRefusal)) requestLog().error({ err: error }, 'MCP request failed unexpectedly');
      if (!res.headersSent) {
        // A body left unread (refused early, or too large) is read and dropped first: closing on it could reset the
        // answer away (src/shared/unread-body.ts). Past the bounds the connection closes, never to be reused.
        const kept = await dropUnreadBody(req);
        res.writeHead(refusal.status, {
          'content-type': 'application/json',
          [REQUEST_ID_HEADER]: requestId,
          ...(kept ? {} : { connection: 'close' }),
          ...refusal.headers,
        });
        res.end(refusal.body);
      } else {
        res.destroy();
      }
      fields.status = refusal.status;
      noteRefusal(fields, refusal.body);
    } finally {
      fields.method = req.method;
      fields.path = '/mcp';
      const seconds = (performance.now() - started) / 1000;
      fields.duration_ms = Math.round(seconds * 1000);
      // ok, tool_error (isError result), rpc_error or refused: a failed call never reads like a success.
      fields.outcome = mcpResultOf(fields);
      options.logger.info(fields, 'mcp request');
      options.observe?.(mcpOutcomeOf(fields, seconds));
    }
  };
}
