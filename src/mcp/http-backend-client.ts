import type { z } from 'zod';
import {
  Drawing,
  MeView,
  ErrorBody,
  HistoryPage,
  IDEMPOTENCY_KEY_HEADER,
  IntrospectionResponse,
  ON_BEHALF_OF_HEADER,
  REQUEST_ID_HEADER,
  SNAPSHOT_CONTRACT_VERSION,
  SNAPSHOT_VERSION_HEADER,
  TOOL_CONTRACTS,
  HIDDEN_TOOL_CONTRACTS,
  RunApprovalView,
  ThreadList,
  type DeleteCanvasNodeArgs,
} from '../contract/index.js';
import { IDENTITY_HEADERS, resolveCaller } from '../backend/auth/caller.js';
import type { TokenPrincipal } from '../backend/auth/principal.js';
import { boardViewQuery } from '../shared/board-target.js';
import { CanvasError } from '../shared/errors.js';
import { sha256Hex } from '../shared/ids.js';
import { cachedPayload, type JsonPayload } from '../shared/json-payload.js';
import type { BackendClient, ToolCaller } from './backend-client.js';

/**
 * The tool server as a gateway in front of a canvas backend reached over HTTP. It holds its own credential (a
 * gateway token); the caller's bearer token never leaves the gateway: the backend learns who is calling through
 * introspection by hash and X-Canvas-On-Behalf-Of, and receives the identity headers as the caller sent them.
 */

export interface HttpBackendClientOptions {
  baseUrl: string;
  /** The gateway's own credential for the backend (a token issued with --kind gateway). */
  gatewayToken: string;
  timeoutMs?: number;
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  caller?: ToolCaller;
  body?: unknown;
  headers?: Record<string, string>;
  /** A successful answer's body is kept as bytes (a picture), not text. */
  binary?: boolean;
}

const segment = encodeURIComponent;

/** A backend body parsed with a contract schema; anything else is reported as such, never as a raw parse error. */
function parseBody<S extends z.ZodType>(text: string, schema: S): z.output<S> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function createHttpBackendClient(options: HttpBackendClientOptions): BackendClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function send(call: Call): Promise<{ status: number; text: string; bytes?: Buffer; type?: string }> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.gatewayToken}`, ...call.headers };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.caller) {
      // Validate locally with the backend's own rule, so both modes refuse the same requests the same way.
      resolveCaller(call.caller.principal, call.caller.identity, call.caller.requestId);
      const { identity } = call.caller;
      headers[ON_BEHALF_OF_HEADER] = call.caller.principal.tokenId;
      headers[REQUEST_ID_HEADER] = call.caller.requestId;
      if (identity.actorSubject !== undefined) headers[IDENTITY_HEADERS.actorSubject] = identity.actorSubject;
      if (identity.actorIssuer !== undefined) headers[IDENTITY_HEADERS.actorIssuer] = identity.actorIssuer;
      if (identity.agentRunId !== undefined) headers[IDENTITY_HEADERS.agentRunId] = identity.agentRunId;
    }
    try {
      const response = await fetch(`${baseUrl}${call.path}`, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (call.binary && response.ok)
        return {
          status: response.status,
          text: '',
          bytes: Buffer.from(await response.arrayBuffer()),
          type: response.headers.get('content-type') ?? undefined,
        };
      return { status: response.status, text: await response.text() };
    } catch {
      throw new CanvasError('unavailable', 'The canvas backend could not be reached; retry later.');
    }
  }

  function failure(status: number, text: string): CanvasError {
    const parsed = parseBody(text, ErrorBody);
    if (!parsed)
      return new CanvasError('unavailable', `The canvas backend answered HTTP ${status} without an error body.`);
    return new CanvasError(parsed.error.code, parsed.error.message, parsed.error.details ?? {});
  }

  /**
   * Sends a call and validates a success body with the contract before passing its text on unchanged. A body outside
   * the contract is a contract error (not retryable: the same backend will answer the same), never `internal`.
   */
  async function exchange(call: Call, success: z.ZodType, check?: (body: unknown) => void): Promise<JsonPayload> {
    const { status, text } = await send(call);
    if (status >= 400) throw failure(status, text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CanvasError('contract_error', 'The canvas backend answered a body that is not JSON.');
    }
    check?.(body);
    if (!success.safeParse(body).success) {
      throw new CanvasError('contract_error', 'The canvas backend answered a body outside the contract.');
    }
    return cachedPayload(text);
  }

  /** Spec (Tool notes 1): a version-mismatched or unversioned snapshot is a contract error. */
  function checkSnapshotVersion(body: unknown): void {
    const version =
      body !== null && typeof body === 'object' ? (body as { snapshot_version?: unknown }).snapshot_version : undefined;
    if (version === undefined) {
      throw new CanvasError('contract_error', 'The canvas backend answered an unversioned snapshot.', {
        expected_version: SNAPSHOT_CONTRACT_VERSION,
      });
    }
    if (version !== SNAPSHOT_CONTRACT_VERSION) {
      throw new CanvasError(
        'contract_error',
        `The canvas backend answered snapshot version ${JSON.stringify(version)}; this server reads ${SNAPSHOT_CONTRACT_VERSION}.`,
        {
          expected_version: SNAPSHOT_CONTRACT_VERSION,
          received_version: version,
        },
      );
    }
  }

  const canvasPath = (args: { project_id: string; canvas_id: string }) =>
    `/api/v2/projects/${segment(args.project_id)}/canvases/${segment(args.canvas_id)}`;

  /** A layout write: its own fields, then the revision it is based on and the caller's save id, as every write sends. */
  const layoutWrite = (
    caller: ToolCaller,
    args: Pick<DeleteCanvasNodeArgs, 'project_id' | 'canvas_id' | 'base_revision' | 'client_save_id'>,
    method: 'POST' | 'DELETE',
    path: string,
    fields: Record<string, unknown>,
    success: z.ZodType,
  ) =>
    exchange(
      {
        method,
        path: `${canvasPath(args)}${path}`,
        caller,
        body: { ...fields, base_revision: args.base_revision, client_save_id: args.client_save_id },
      },
      success,
    );

  return {
    mode: 'http',

    async authenticate(token): Promise<TokenPrincipal> {
      const { status, text } = await send({
        method: 'POST',
        path: '/api/v1/auth/introspect',
        body: { token_sha256: sha256Hex(token) },
      });
      if (status === 401 || status === 403) {
        throw new CanvasError('unavailable', 'The backend refused the gateway credential: check --backend-token.');
      }
      if (status >= 400) throw failure(status, text);
      const answer = parseBody(text, IntrospectionResponse);
      if (!answer)
        throw new CanvasError('unavailable', 'The canvas backend answered an introspection body outside the contract.');
      if (!answer.active) throw new CanvasError('unauthenticated', answer.reason);
      const { principal } = answer;
      return {
        tokenId: principal.token_id,
        tokenName: principal.token_name,
        kind: principal.kind,
        role: principal.role,
        projects: principal.projects,
        workspaces: principal.workspaces,
        requiredActor: principal.required_actor,
        issuedBy: principal.issued_by ?? null,
        purpose: principal.purpose ?? null,
        canvases: principal.canvases?.map((ref) => ({ projectId: ref.project_id, canvasId: ref.canvas_id })) ?? null,
        toolSets: principal.tool_sets ?? [],
      };
    },

    /**
     * The gateway knows the token's role and scope, not the project's workspace or memberships: it refuses what the
     * token can never do (a viewer's write) and the backend checks the rest.
     */
    async authorize(caller, _projectId, need) {
      resolveCaller(caller.principal, caller.identity, caller.requestId);
      if (need !== 'viewer' && caller.principal.role === 'viewer') {
        throw new CanvasError('forbidden', 'This token has viewer rights only: writes need editor rights.');
      }
    },

    listSkills: (caller) =>
      exchange({ method: 'GET', path: '/api/v1/zone/skills', caller }, TOOL_CONTRACTS.list_zone_skills.success),

    canvasHistory: async (caller, args) =>
      HistoryPage.parse(
        JSON.parse(
          (
            await exchange(
              { method: 'GET', path: `${canvasPath(args)}/history?before=${args.before}&limit=${args.limit}`, caller },
              HistoryPage,
            )
          ).json,
        ),
      ),

    reachableProjects: async (caller) =>
      MeView.parse(JSON.parse((await exchange({ method: 'GET', path: '/api/v1/me', caller }, MeView)).json)).projects,

    getCanvas: (caller, args) =>
      exchange(
        {
          method: 'GET',
          path: `${canvasPath(args)}/snapshot?include=elements,free_areas`,
          caller,
          headers: { [SNAPSHOT_VERSION_HEADER]: SNAPSHOT_CONTRACT_VERSION },
        },
        TOOL_CONTRACTS.get_canvas.success,
        checkSnapshotVersion,
      ),

    createNode: (caller, args) =>
      layoutWrite(caller, args, 'POST', '/nodes', { node: args.node }, TOOL_CONTRACTS.create_canvas_node.success),

    createEdge: (caller, args) =>
      layoutWrite(
        caller,
        args,
        'POST',
        '/edges',
        { edge: args.edge },
        HIDDEN_TOOL_CONTRACTS.create_canvas_edge.success,
      ),

    applyChanges: (caller, args) =>
      layoutWrite(
        caller,
        args,
        'POST',
        '/changes',
        { operations: args.operations },
        HIDDEN_TOOL_CONTRACTS.apply_canvas_changes.success,
      ),

    exportBoard: (caller, args) =>
      exchange(
        { method: 'POST', path: `${canvasPath(args)}/exports`, caller, body: args.export },
        HIDDEN_TOOL_CONTRACTS.export_board.success,
      ),

    getExport: (caller, args) =>
      exchange(
        { method: 'GET', path: `${canvasPath(args)}/exports/${segment(args.export_id)}`, caller },
        HIDDEN_TOOL_CONTRACTS.get_export.success,
      ),

    cancelExport: (caller, args) =>
      exchange(
        { method: 'POST', path: `${canvasPath(args)}/exports/${segment(args.export_id)}/cancel`, caller },
        HIDDEN_TOOL_CONTRACTS.get_export.success,
      ),

    askRunApproval: async (caller, args) =>
      RunApprovalView.parse(
        JSON.parse(
          (
            await exchange(
              {
                method: 'POST',
                path: `${canvasPath(args)}/run-approvals`,
                caller,
                body: { node_id: args.node_id, idempotency_key: args.idempotency_key },
              },
              RunApprovalView,
            )
          ).json,
        ),
      ),

    tidyCanvas: (caller, args) => {
      const { project_id: _project, canvas_id: _canvas, ...body } = args;
      return exchange(
        { method: 'POST', path: `${canvasPath(args)}/tidy`, caller, body },
        HIDDEN_TOOL_CONTRACTS.tidy_canvas.success,
      );
    },

    replyToComment: (caller, args) =>
      exchange(
        {
          method: 'POST',
          path: `${canvasPath(args)}/threads/${segment(args.thread_id)}/comments`,
          caller,
          body: { body: args.body },
        },
        HIDDEN_TOOL_CONTRACTS.reply_to_comment.success,
      ),

    resolveCommentThread: (caller, args) =>
      exchange(
        {
          method: 'PATCH',
          path: `${canvasPath(args)}/threads/${segment(args.thread_id)}`,
          caller,
          body: { status: args.status },
        },
        HIDDEN_TOOL_CONTRACTS.resolve_comment_thread.success,
      ),

    listThreads: async (caller, args) => {
      const query = new URLSearchParams({ filter: args.filter });
      if (args.node_id !== undefined) query.set('node_id', args.node_id);
      return ThreadList.parse(
        JSON.parse(
          (await exchange({ method: 'GET', path: `${canvasPath(args)}/threads?${query}`, caller }, ThreadList)).json,
        ),
      );
    },

    shotDrawing: async (caller, args) =>
      Drawing.parse(
        JSON.parse(
          (
            await exchange(
              {
                method: 'GET',
                path: `${canvasPath(args)}/nodes/${segment(args.node_id)}/shots/${segment(args.shot_id)}/drawing`,
                caller,
              },
              Drawing,
            )
          ).json,
        ),
      ),

    async boardImage(caller, args) {
      const { status, text, bytes, type } = await send({
        method: 'GET',
        path: `${canvasPath(args)}/board.png${boardViewQuery(args.view)}`,
        caller,
        binary: true,
      });
      if (status >= 400) throw failure(status, text);
      if (!bytes || (type !== 'image/png' && type !== 'image/webp'))
        throw new CanvasError('contract_error', 'The canvas backend answered a board picture that is not PNG or WebP.');
      return { bytes, mimeType: type };
    },

    estimateRun: (caller, args) =>
      exchange(
        { method: 'GET', path: `${canvasPath(args)}/nodes/${segment(args.node_id)}/run-estimate`, caller },
        HIDDEN_TOOL_CONTRACTS.estimate_canvas_node_run.success,
      ),

    deleteNode: (caller, args) =>
      layoutWrite(
        caller,
        args,
        'DELETE',
        `/nodes/${segment(args.node_id)}`,
        {},
        TOOL_CONTRACTS.delete_canvas_node.success,
      ),

    getRun: (caller, args) =>
      exchange(
        { method: 'GET', path: `${canvasPath(args)}/runs/${segment(args.run_id)}`, caller },
        TOOL_CONTRACTS.get_canvas_node_run.success,
      ),

    cancelRun: (caller, args) =>
      exchange(
        { method: 'POST', path: `${canvasPath(args)}/runs/${segment(args.run_id)}/cancel`, caller },
        TOOL_CONTRACTS.cancel_canvas_node_run.success,
      ),

    submitRun: (caller, args) =>
      exchange(
        {
          method: 'POST',
          path: `${canvasPath(args)}/nodes/${segment(args.node_id)}/runs`,
          caller,
          headers: args.idempotency_key ? { [IDEMPOTENCY_KEY_HEADER]: args.idempotency_key } : {},
        },
        HIDDEN_TOOL_CONTRACTS.submit_canvas_node_run.success,
      ),

    /** HEAD of each asset's capability URL: the backend serves /assets without a token. */
    async assetSizes(outputs) {
      const sizes = new Map<string, number>();
      for (const { assetId, url } of outputs) {
        try {
          // The output's own URL, signed by the backend: a HEAD needs no other credential.
          const response = await fetch(new URL(url, baseUrl), {
            method: 'HEAD',
            signal: AbortSignal.timeout(timeoutMs),
          });
          const length = Number(response.headers.get('content-length'));
          if (response.ok && Number.isSafeInteger(length)) sizes.set(assetId, length);
        } catch {
          // A size is optional in a resource link: an asset the backend does not answer for goes without one.
        }
      }
      return sizes;
    },
    async ready() {
      const { status } = await send({ method: 'GET', path: '/readyz' });
      if (status !== 200) throw new CanvasError('unavailable', `The canvas backend is not ready (HTTP ${status}).`);
    },
  };
}
