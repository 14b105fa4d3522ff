import { z } from 'zod';
import {
  BatchReceipt,
  CancelRunResult,
  CanvasId,
  CanvasSnapshot,
  ChangesBody,
  ChatMessagePage,
  ChatMessagesQuery,
  ChatModelStatus,
  ChatRunList,
  ConnectionList,
  ConnectionView,
  ChatSendBody,
  ConversationCreateBody,
  ConversationList,
  ConversationView,
  ChatRunOpenBody,
  ChatRunView,
  CreateEdgeBody,
  CreateEdgeReceipt,
  CreateNodeBody,
  CreateNodeReceipt,
  DeleteEdgeReceipt,
  DeleteNodeReceipt,
  HealthBody,
  HistoryPage,
  HistoryQuery,
  IdempotencyKey,
  IntrospectionRequest,
  IntrospectionResponse,
  IssuedToken,
  MeView,
  SignInMethods,
  EmailBody,
  NodeId,
  NodeRun,
  ProjectId,
  ReadyBody,
  ResourceId,
  RevertBody,
  RevertReceipt,
  RevisionCheckedBody,
  RunEstimate,
  RunChain,
  RunChainId,
  ChainEstimate,
  RunId,
  SNAPSHOT_CONTRACT_VERSION,
  SkillCatalog,
  TokenIssueBody,
  TokenList,
  TokenView,
  UpdateNodeBody,
  UpdateNodeReceipt,
  PickVersionBody,
  ResultVersionList,
  RunVariants,
  RunVariantsBody,
  AuditList,
  CanvasCreateBody,
  CanvasChangeBody,
  CanvasDuplicateBody,
  CanvasView,
  DeleteConfirmBody,
  ProjectChangeBody,
  ProjectCreateBody,
  RetiredView,
  SessionList,
  InviteCreateBody,
  InviteList,
  InviteView,
  IssuedInvite,
  MemberList,
  MemberSignInLink,
  MemberView,
  RoleChangeBody,
  PresenceUpdateBody,
  IssuedWebhook,
  WebhookChangeBody,
  WebhookCreateBody,
  WebhookDeleted,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookView,
  UploadForm,
  UploadReceipt,
  ShotListQuery,
  ErrorBody,
} from '../../contract/index.js';

/**
 * Every route of the backend's HTTP API, described with the contract's own schemas (src/contract/): the OpenAPI
 * document is assembled from this table (api-document.ts), and a test checks it against the routes the server
 * registers, both ways. Paths are written as Hono registers them (`:param`).
 */

export type Auth = 'none' | 'caller' | 'gateway' | 'metrics' | 'asset';

export interface ApiResponse {
  description: string;
  /** Media type → schema; none for an empty body. */
  content?: Record<string, z.ZodType>;
  headers?: Record<string, string>;
}

export interface ApiRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  tag: 'service' | 'canvas' | 'runs' | 'people' | 'chat' | 'auth' | 'webhooks';
  /**
   * none: open; caller: a backend or gateway token, or a signed-in person's session; gateway: gateway tokens only;
   * asset: a signed URL, or a member's token or session.
   */
  auth: Auth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** An HTML form body (application/x-www-form-urlencoded), for the pages people submit. */
  form?: z.ZodObject;
  /** A multipart/form-data body (files). */
  multipart?: z.ZodObject;
  responses: Record<string, ApiResponse>;
}

const json = (schema: z.ZodType) => ({ 'application/json': schema });
const ok = (description: string, schema: z.ZodType): ApiResponse => ({ description, content: json(schema) });

const canvasParams = z.object({ project_id: ProjectId, canvas_id: CanvasId });
const nodeParams = canvasParams.extend({ node_id: NodeId });
const runParams = canvasParams.extend({ run_id: RunId });
const conversationParams = canvasParams.extend({ conversation_id: ResourceId });
const AgentRunHeader = z.object({
  'x-agent-run-id': z
    .string()
    .optional()
    .meta({ description: 'The canvas chat run that holds the edit authorization (token callers).' }),
});
const SnapshotVersionHeader = z.object({
  'x-canvas-snapshot-version': z
    .literal(SNAPSHOT_CONTRACT_VERSION)
    .meta({ description: 'The snapshot contract version the reader speaks.' }),
});
const EventStream = z.string().meta({
  description:
    'Server-Sent Events: `layout` (a revision, id = revision), `node_state`, `reset` (re-read the snapshot), `presence` (who is on the canvas); docs/api.md.',
});
const Html = z.string().meta({ description: 'A page for people.' });
const UiMessageStream = z.string().meta({
  description:
    'Server-Sent Events, one `data: <UIMessageChunk JSON>` per chunk, ending with `data: [DONE]` (header x-vercel-ai-ui-message-stream: v1).',
});
const FileBytes = z.string().meta({ description: 'The file, with its content type.', format: 'binary' });
const MetricsText = z.string().meta({ description: 'Prometheus text exposition format 0.0.4.' });
const OpenApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) });

const CANVAS = '/api/v2/projects/:project_id/canvases/:canvas_id';
const projectParams = z.object({ project_id: ProjectId });
const memberParams = projectParams.extend({
  issuer: z.string().meta({ description: "The member's issuer (percent-encoded)." }),
  subject: z.string().meta({ description: "The member's subject (percent-encoded)." }),
});

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'The process is up.',
    tag: 'service',
    auth: 'none',
    responses: { 200: ok('Up.', HealthBody) },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'ready',
    summary: 'The store answers and no migration is pending.',
    tag: 'service',
    auth: 'none',
    responses: { 200: ok('Ready.', ReadyBody) },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics (open on loopback; else only with --metrics-token).',
    tag: 'service',
    auth: 'metrics',
    responses: { 200: { description: 'The metrics.', content: { 'text/plain': MetricsText } } },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This document.',
    tag: 'service',
    auth: 'none',
    responses: { 200: ok('The OpenAPI 3.1 document of this API.', OpenApiDocument) },
  },
  {
    method: 'get',
    path: '/assets/:asset_id',
    operationId: 'getAsset',
    summary:
      'A file a node run produced: with the signed URL results carry, or as a member of its project (docs/runs.md, "Who may read an asset").',
    tag: 'runs',
    auth: 'asset',
    params: z.object({ asset_id: z.string().regex(/^asset_[A-Za-z0-9_-]{16}$/) }),
    query: z.object({
      exp: z.string().regex(/^\d+$/).optional().meta({ description: 'A signed URL: when it expires (Unix seconds).' }),
      sig: z.string().optional().meta({ description: 'A signed URL: its signature.' }),
    }),
    headers: z.object({
      range: z.string().optional().meta({ description: 'bytes=START-END, bytes=START- or bytes=-SUFFIX.' }),
    }),
    responses: {
      200: { description: 'The file.', content: { 'application/octet-stream': FileBytes } },
      206: {
        description: 'The requested range of the file.',
        content: { 'application/octet-stream': FileBytes },
        headers: { 'content-range': 'bytes START-END/SIZE' },
      },
      302: {
        description: 'An asset kept in S3: a presigned GET of the object store, valid for 5 minutes.',
        headers: { location: 'The presigned URL.' },
      },
      416: { description: 'The range is past the end of the file.', headers: { 'content-range': 'bytes */SIZE' } },
    },
  },
  {
    method: 'get',
    path: '/auth/login',
    operationId: 'signInPage',
    summary: 'The page of a one-time sign-in link: who it signs in, and a button that does it. Spends nothing.',
    tag: 'auth',
    auth: 'none',
    query: z.object({ token: z.string().meta({ description: 'The sign-in secret of the link.' }) }),
    responses: {
      200: {
        description: 'The confirmation page (it warns when this browser is signed in as someone else).',
        content: { 'text/html': Html },
      },
      400: { description: 'The link has no token.', content: { 'text/html': Html } },
      401: {
        description: 'The link is spent, expired or unknown: a page saying what to do.',
        content: { 'text/html': Html },
      },
    },
  },
  {
    method: 'post',
    path: '/auth/login',
    operationId: 'signIn',
    summary: "Spend a one-time sign-in link and open a session (from this server's own page: Origin checked).",
    tag: 'auth',
    auth: 'none',
    form: z.object({
      token: z.string().optional().meta({ description: 'The sign-in secret of the link.' }),
      link: z
        .string()
        .optional()
        .meta({ description: 'Or the whole sign-in link, pasted (the consent page of an OAuth client).' }),
      next: z
        .string()
        .optional()
        .meta({ description: 'An OAuth consent page of this server to return to instead of the canvas.' }),
      replace: z
        .literal('1')
        .optional()
        .meta({ description: 'Replace the session of another person this browser has (the page asked).' }),
    }),
    responses: {
      303: {
        description: 'Signed in: the session cookie is set and the browser goes to the canvas (or /).',
        headers: { location: 'Where to go next.', 'set-cookie': 'The session cookie (HttpOnly).' },
      },
      400: { description: 'The form has no token.', content: { 'text/html': Html } },
      401: {
        description: 'The link is spent, expired or unknown: a page saying what to do.',
        content: { 'text/html': Html },
      },
      403: {
        description: "The form did not come from this server's own page (Origin).",
        content: { 'text/html': Html },
      },
      409: {
        description: 'This browser is signed in as another person: the page asks again.',
        content: { 'text/html': Html },
      },
    },
  },
  {
    method: 'get',
    path: '/oauth-ui/interaction/:uid',
    operationId: 'connectorConsentPage',
    summary: 'The consent page of an OAuth client: which canvas, what it may do (docs/security.md, "Connectors").',
    tag: 'auth',
    auth: 'none',
    params: z.object({ uid: z.string() }),
    responses: {
      200: {
        description: 'The consent page, or the sign-in page for a person not signed in.',
        content: { 'text/html': Html },
      },
      410: { description: 'The request expired: start again from the client.', content: { 'text/html': Html } },
    },
  },
  {
    method: 'post',
    path: '/oauth-ui/interaction/:uid',
    operationId: 'connectorConsent',
    summary: "The person's answer: Allow (a canvas and an access level) or Deny. From this server's own page only.",
    tag: 'auth',
    auth: 'none',
    params: z.object({ uid: z.string() }),
    form: z.object({
      decision: z.enum(['allow', 'deny']),
      canvas: z.string().optional().meta({ description: 'PROJECT/CANVAS.' }),
      access: z.enum(['read', 'edit', 'runs']).optional(),
      spend_limit: z
        .string()
        .optional()
        .meta({ description: 'Credits the runs it starts may cost in all (empty: the project budget only).' }),
    }),
    responses: {
      303: {
        description: 'Answered: the browser goes back to the client with a code (or access_denied).',
        headers: { location: 'The authorization endpoint, then the client.' },
      },
      400: {
        description: 'The answer is incomplete: the page again, saying what is missing.',
        content: { 'text/html': Html },
      },
      403: {
        description: "Not from this server's page, or beyond the person's rights (a viewer allowing edits).",
        content: { 'text/html': Html },
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/projects/:project_id/canvases/:canvas_id/connections',
    operationId: 'listConnections',
    summary: 'The OAuth clients connected to a canvas.',
    tag: 'people',
    auth: 'caller',
    params: z.object({ project_id: ProjectId, canvas_id: CanvasId }),
    responses: { 200: ok('The connections.', ConnectionList) },
  },
  {
    method: 'delete',
    path: '/api/v1/connections/:grant_id',
    operationId: 'endConnection',
    summary: 'End a connection: its tokens stop at once (the person who made it, or an owner).',
    tag: 'people',
    auth: 'caller',
    params: z.object({ grant_id: ResourceId }),
    responses: { 200: ok('Ended.', ConnectionView) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/:project_id/members',
    operationId: 'listMembers',
    summary: "The project's members and their roles (any member).",
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    responses: { 200: ok('The members.', MemberList) },
  },
  {
    method: 'patch',
    path: '/api/v1/projects/:project_id/members/:issuer/:subject',
    operationId: 'changeMemberRole',
    summary: "Change a member's role (owners; the last owner cannot be demoted).",
    tag: 'people',
    auth: 'caller',
    params: memberParams,
    body: RoleChangeBody,
    responses: { 200: ok('The member as now.', MemberView) },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/:project_id/members/:issuer/:subject',
    operationId: 'removeMember',
    summary:
      'Remove a member (owners), or leave (the member); their access to the project stops at once, an open feed included. The last owner cannot leave.',
    tag: 'people',
    auth: 'caller',
    params: memberParams,
    responses: { 204: { description: 'Removed.' } },
  },
  {
    method: 'post',
    path: '/api/v1/projects/:project_id/members/:issuer/:subject/sign-in-link',
    operationId: 'memberSignInLink',
    summary:
      'A one-time sign-in link for a member whose session ended (owners): copy it to them; it works once, for a day, and is in the audit log.',
    tag: 'people',
    auth: 'caller',
    params: memberParams,
    responses: { 201: ok('The link.', MemberSignInLink) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/:project_id/invites',
    operationId: 'invite',
    summary:
      'Invite someone by link, with a role (owners). The link is in the answer, once; it works once and expires.',
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    body: InviteCreateBody,
    responses: { 201: ok('The invitation and its link.', IssuedInvite) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/:project_id/invites',
    operationId: 'listInvites',
    summary: "The project's invitations, newest first: who invited whom, accepted, withdrawn (owners).",
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    responses: { 200: ok('The invitations.', InviteList) },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/:project_id/invites/:invite_id',
    operationId: 'withdrawInvite',
    summary: 'Withdraw an invitation not yet accepted (owners).',
    tag: 'people',
    auth: 'caller',
    params: projectParams.extend({ invite_id: ResourceId }),
    responses: { 200: ok('The invitation as now.', InviteView) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/:project_id/audit',
    operationId: 'readAuditLog',
    summary: "Every change to the project's team and canvases, newest first (owners).",
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    query: z.object({ limit: z.int().min(1).max(500).optional() }),
    responses: { 200: ok('The entries.', AuditList) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/:project_id/webhooks',
    operationId: 'createWebhook',
    summary:
      'Register a webhook endpoint for run events and layout revisions (owners); answers its signing secret once.',
    tag: 'webhooks',
    auth: 'caller',
    params: projectParams,
    body: WebhookCreateBody,
    responses: { 201: ok('The endpoint, with its whsec_ secret.', IssuedWebhook) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/:project_id/webhooks',
    operationId: 'listWebhooks',
    summary: "The project's webhook endpoints (owners).",
    tag: 'webhooks',
    auth: 'caller',
    params: projectParams,
    responses: { 200: ok('The endpoints.', WebhookList) },
  },
  {
    method: 'patch',
    path: '/api/v1/projects/:project_id/webhooks/:webhook_id',
    operationId: 'changeWebhook',
    summary: 'Change an endpoint, or rotate its secret (answered once; the old one signs for 24 more hours); owners.',
    tag: 'webhooks',
    auth: 'caller',
    params: projectParams.extend({ webhook_id: ResourceId }),
    body: WebhookChangeBody,
    responses: {
      200: ok('The endpoint as now (with `secret` after a rotation).', z.union([IssuedWebhook, WebhookView])),
    },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/:project_id/webhooks/:webhook_id',
    operationId: 'deleteWebhook',
    summary: 'Delete an endpoint: nothing more is sent to it, its pending deliveries are given up (owners).',
    tag: 'webhooks',
    auth: 'caller',
    params: projectParams.extend({ webhook_id: ResourceId }),
    responses: { 200: ok('Deleted.', WebhookDeleted) },
  },
  {
    method: 'get',
    path: '/api/v1/projects/:project_id/webhooks/:webhook_id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary:
      "An endpoint's deliveries, newest first: status, attempts, the receiver's last answer and latency (owners).",
    tag: 'webhooks',
    auth: 'caller',
    params: projectParams.extend({ webhook_id: ResourceId }),
    query: z.object({ limit: z.int().min(1).max(500).optional() }),
    responses: { 200: ok('The deliveries.', WebhookDeliveryList) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/:project_id/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again, under the same webhook-id (owners).',
    tag: 'webhooks',
    auth: 'caller',
    params: projectParams.extend({ webhook_id: ResourceId, delivery_id: ResourceId }),
    responses: { 202: ok('The delivery, pending again.', WebhookDelivery) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/:project_id/canvases',
    operationId: 'createCanvas',
    summary: 'Create a canvas (owners).',
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    body: CanvasCreateBody,
    responses: { 201: ok('Created.', CanvasView) },
  },
  {
    method: 'patch',
    path: '/api/v1/projects/:project_id/canvases/:canvas_id',
    operationId: 'changeCanvas',
    summary:
      'Lock or unlock a canvas (a locked canvas refuses every layout write), or rename it (its id stays); owners.',
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    body: CanvasChangeBody,
    responses: { 200: ok('The canvas as now.', CanvasView) },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/:project_id/canvases/:canvas_id',
    operationId: 'deleteCanvas',
    summary:
      'Delete a canvas (owners; its id typed again in `confirm`): gone at once for everyone, its active runs cancelled, recorded.',
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    body: DeleteConfirmBody,
    responses: { 200: ok('Deleted.', RetiredView) },
  },
  {
    method: 'post',
    path: '/api/v1/projects/:project_id/canvases/:canvas_id/duplicate',
    operationId: 'duplicateCanvas',
    summary:
      "Copy a canvas into a new canvas (owners): its layout, and with with_results each node's latest succeeded result (its outputs copied as new assets).",
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    body: CanvasDuplicateBody,
    responses: { 201: ok('The copy.', CanvasView) },
  },
  {
    method: 'post',
    path: '/api/v1/projects',
    operationId: 'createProject',
    summary: 'Create a project in a workspace where the caller owns a project; the caller becomes its owner.',
    tag: 'people',
    auth: 'caller',
    body: ProjectCreateBody,
    responses: { 201: ok('Created.', z.object({ project_id: z.string(), title: z.string().nullable() })) },
  },
  {
    method: 'patch',
    path: '/api/v1/projects/:project_id',
    operationId: 'renameProject',
    summary: 'Rename a project (owners; its id stays).',
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    body: ProjectChangeBody,
    responses: { 200: ok('Renamed.', z.object({ project_id: z.string(), title: z.string().nullable() })) },
  },
  {
    method: 'delete',
    path: '/api/v1/projects/:project_id',
    operationId: 'deleteProject',
    summary:
      'Delete a project and its canvases (owners; its id typed again in `confirm`): its active runs cancelled, recorded.',
    tag: 'people',
    auth: 'caller',
    params: projectParams,
    body: DeleteConfirmBody,
    responses: { 200: ok('Deleted.', RetiredView) },
  },
  {
    method: 'post',
    path: `${CANVAS}/presence`,
    operationId: 'reportPresence',
    summary:
      "Where the signed-in person is on the canvas: their selection and cursor (a page sends it throttled, and at least every 10 s). Shown to the others as the feed's presence events; never stored.",
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    body: PresenceUpdateBody,
    responses: { 204: { description: 'Reported.' } },
  },
  {
    method: 'delete',
    path: `${CANVAS}/presence`,
    operationId: 'leaveCanvas',
    summary: "The person left the canvas: they are gone from the others' screens at once.",
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    responses: { 204: { description: 'Gone.' } },
  },
  {
    method: 'get',
    path: '/api/v1/auth/methods',
    operationId: 'signInMethods',
    summary: 'How people sign in here: links, and the OpenID Connect provider when one is configured.',
    tag: 'auth',
    auth: 'none',
    responses: {
      200: ok('The ways to sign in.', SignInMethods),
    },
  },
  {
    method: 'post',
    path: '/auth/email-link',
    operationId: 'emailSignInLink',
    summary:
      "Ask for a sign-in link by e-mail (a form of the sign-in page; only where the server has an SMTP relay). The answer is the same whether or not the address is someone's here.",
    tag: 'auth',
    auth: 'none',
    responses: { 200: { description: 'A page saying a link is on its way if the address is known.' } },
  },
  {
    method: 'get',
    path: '/auth/oidc/start',
    operationId: 'oidcSignIn',
    summary: 'Begin an OpenID Connect sign-in (authorization code with PKCE): a redirect to the provider.',
    tag: 'auth',
    auth: 'none',
    query: z.object({
      next: z
        .string()
        .optional()
        .meta({ description: 'A page of this server to open afterwards (a canvas, an invitation, an OAuth consent).' }),
    }),
    responses: {
      302: { description: 'To the provider.' },
      404: { description: 'This server has no OpenID Connect provider configured.', content: { 'text/html': Html } },
      503: { description: 'The provider could not be reached.', content: { 'text/html': Html } },
    },
  },
  {
    method: 'get',
    path: '/auth/oidc/callback',
    operationId: 'oidcCallback',
    summary:
      'Where the provider sends the browser back: the code is exchanged, the ID token checked, and a session opened for its (iss, sub).',
    tag: 'auth',
    auth: 'none',
    query: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
    responses: {
      303: { description: 'Signed in: to the page the sign-in began for.' },
      400: { description: 'No sign-in begun in this browser.', content: { 'text/html': Html } },
      401: { description: 'Refused.', content: { 'text/html': Html } },
    },
  },
  {
    method: 'get',
    path: '/api/v1/me/sessions',
    operationId: 'listMySessions',
    summary: "The signed-in person's live sessions: which browser, since when, last seen, and which is this one.",
    tag: 'people',
    auth: 'caller',
    responses: { 200: ok('The sessions.', SessionList) },
  },
  {
    method: 'delete',
    path: '/api/v1/me/sessions/:session_id',
    operationId: 'endMySession',
    summary: "Sign out one of the person's own sessions (this one included); its open feeds end too.",
    tag: 'people',
    auth: 'caller',
    params: z.object({ session_id: ResourceId }),
    responses: { 204: { description: 'Signed out.' } },
  },
  {
    method: 'get',
    path: '/invite',
    operationId: 'invitePage',
    summary: 'The page of an invitation link: who invited whom to what, and a Join button. Spends nothing.',
    tag: 'auth',
    auth: 'none',
    query: z.object({ token: z.string().meta({ description: 'The invitation secret of the link.' }) }),
    responses: {
      200: { description: 'The invitation page.', content: { 'text/html': Html } },
      400: { description: 'The link has no invitation.', content: { 'text/html': Html } },
      410: { description: 'The invitation was used, withdrawn or has expired.', content: { 'text/html': Html } },
    },
  },
  {
    method: 'post',
    path: '/invite',
    operationId: 'acceptInvite',
    summary:
      "Accept an invitation from this server's own page (Origin checked): join as the signed-in person, or as a new person with the name given.",
    tag: 'auth',
    auth: 'none',
    form: z.object({
      token: z.string().meta({ description: 'The invitation secret.' }),
      name: z.string().optional().meta({ description: 'The name the team will see, when not signed in.' }),
    }),
    responses: {
      303: { description: 'Joined: to the home page (a session cookie is set for a new person).' },
      400: { description: 'No invitation, or no name.', content: { 'text/html': Html } },
      403: { description: "Not sent from this server's own page.", content: { 'text/html': Html } },
      410: { description: 'The invitation was used, withdrawn or has expired.', content: { 'text/html': Html } },
    },
  },
  {
    method: 'post',
    path: '/auth/logout',
    operationId: 'signOut',
    summary: "End the caller's session.",
    tag: 'auth',
    auth: 'caller',
    responses: { 204: { description: 'Signed out; the cookie is cleared.' } },
  },
  {
    method: 'post',
    path: '/api/v1/auth/introspect',
    operationId: 'introspectToken',
    summary: 'Who a presented agent token is (gateways only).',
    tag: 'auth',
    auth: 'gateway',
    body: IntrospectionRequest,
    responses: { 200: ok("The token's principal, or why it is not active.", IntrospectionResponse) },
  },
  {
    method: 'get',
    path: '/api/v1/zone/skills',
    operationId: 'listSkills',
    summary: 'The skill catalog.',
    tag: 'canvas',
    auth: 'caller',
    responses: { 200: ok('The catalog.', SkillCatalog) },
  },
  {
    method: 'get',
    path: '/api/v1/me',
    operationId: 'me',
    summary: 'Who the caller is and what it can open.',
    tag: 'people',
    auth: 'caller',
    responses: { 200: ok('The caller.', MeView) },
  },
  {
    method: 'patch',
    path: '/api/v1/me/email',
    operationId: 'setMyEmail',
    summary: "The signed-in person's address for e-mailed sign-in links (null forgets it); one person per address.",
    tag: 'people',
    auth: 'caller',
    body: EmailBody,
    responses: { 200: ok('The address as kept.', z.strictObject({ email: z.string().nullable() })) },
  },
  {
    method: 'get',
    path: `${CANVAS}/snapshot`,
    operationId: 'getSnapshot',
    summary: 'The layout and node states of a canvas.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    headers: SnapshotVersionHeader,
    responses: { 200: ok('The snapshot.', CanvasSnapshot) },
  },
  {
    method: 'post',
    path: `${CANVAS}/nodes`,
    operationId: 'createNode',
    summary: 'Add one node at base_revision.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    headers: AgentRunHeader,
    body: CreateNodeBody,
    responses: {
      201: ok('Created.', CreateNodeReceipt),
      200: ok('A replay of an identical earlier request.', CreateNodeReceipt),
    },
  },
  {
    method: 'get',
    path: `${CANVAS}/nodes/:node_id/shot-list`,
    operationId: 'downloadShotList',
    summary: "A storyboard's shot list (viewers): one row per shot in the board's order, as CSV or XLSX.",
    tag: 'canvas',
    auth: 'caller',
    params: nodeParams,
    query: ShotListQuery,
    responses: {
      200: {
        description: 'The file, as an attachment.',
        content: {
          'text/csv': FileBytes,
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': FileBytes,
        },
      },
    },
  },
  {
    method: 'post',
    path: `${CANVAS}/uploads`,
    operationId: 'uploadFiles',
    summary:
      'Upload pictures, films, sound or PDFs (editors): each kept in the asset store, its type decided from its bytes, answered with the node that shows it (node_type, node_data) to create at a base_revision.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    multipart: UploadForm,
    responses: {
      201: ok('Kept, one entry per file in order.', UploadReceipt),
      413: ok('A file is over --upload-max-bytes, or the request has too many files: nothing was kept.', ErrorBody),
      415: ok(
        'A file is not an allowed picture, film, sound or PDF (the type found is named): nothing was kept.',
        ErrorBody,
      ),
    },
  },
  {
    method: 'patch',
    path: `${CANVAS}/nodes/:node_id`,
    operationId: 'updateNode',
    summary: 'Edit one node.',
    tag: 'canvas',
    auth: 'caller',
    params: nodeParams,
    headers: AgentRunHeader,
    body: UpdateNodeBody,
    responses: { 200: ok('Updated.', UpdateNodeReceipt) },
  },
  {
    method: 'delete',
    path: `${CANVAS}/nodes/:node_id`,
    operationId: 'deleteNode',
    summary: 'Delete one node and its edges.',
    tag: 'canvas',
    auth: 'caller',
    params: nodeParams,
    headers: AgentRunHeader,
    body: RevisionCheckedBody,
    responses: { 200: ok('Deleted.', DeleteNodeReceipt) },
  },
  {
    method: 'post',
    path: `${CANVAS}/edges`,
    operationId: 'createEdge',
    summary: 'Add one edge.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    headers: AgentRunHeader,
    body: CreateEdgeBody,
    responses: {
      201: ok('Created.', CreateEdgeReceipt),
      200: ok('A replay of an identical earlier request.', CreateEdgeReceipt),
    },
  },
  {
    method: 'delete',
    path: `${CANVAS}/edges/:edge_id`,
    operationId: 'deleteEdge',
    summary: 'Delete one edge.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams.extend({ edge_id: ResourceId }),
    headers: AgentRunHeader,
    body: RevisionCheckedBody,
    responses: { 200: ok('Deleted.', DeleteEdgeReceipt) },
  },
  {
    method: 'post',
    path: `${CANVAS}/changes`,
    operationId: 'applyChanges',
    summary: 'An atomic batch of up to 200 operations, as one revision.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    headers: AgentRunHeader,
    body: ChangesBody,
    responses: {
      201: ok('Applied.', BatchReceipt),
      200: ok('A replay of an identical earlier request.', BatchReceipt),
    },
  },
  {
    method: 'post',
    path: `${CANVAS}/revert`,
    operationId: 'revert',
    summary: 'A new revision whose layout equals an earlier one.',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    headers: AgentRunHeader,
    body: RevertBody,
    responses: {
      201: ok('Reverted.', RevertReceipt),
      200: ok('A replay of an identical earlier request.', RevertReceipt),
    },
  },
  {
    method: 'get',
    path: `${CANVAS}/events`,
    operationId: 'changeFeed',
    summary: 'The change feed (Server-Sent Events).',
    tag: 'canvas',
    auth: 'caller',
    params: canvasParams,
    query: z.object({
      after: z.coerce
        .number()
        .int()
        .min(0)
        .optional()
        .meta({ description: 'Resume after this revision (or send Last-Event-ID).' }),
    }),
    responses: { 200: { description: 'The event stream.', content: { 'text/event-stream': EventStream } } },
  },
  {
    method: 'get',
    path: `${CANVAS}/history`,
    operationId: 'history',
    summary: 'Revisions, newest first.',
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    query: HistoryQuery,
    responses: { 200: ok('A page of revisions.', HistoryPage) },
  },
  {
    method: 'post',
    path: `${CANVAS}/nodes/:node_id/runs`,
    operationId: 'submitRun',
    summary: 'Run a node.',
    tag: 'runs',
    auth: 'caller',
    params: nodeParams,
    headers: AgentRunHeader.extend({
      'idempotency-key': IdempotencyKey.optional().meta({
        description: 'The same key and input return the same run (required for a session).',
      }),
    }),
    responses: {
      202: ok('Queued.', NodeRun),
      200: { ...ok('A replay: the run this key already made.', NodeRun), headers: { 'idempotency-replayed': 'true' } },
    },
  },
  {
    method: 'post',
    path: `${CANVAS}/nodes/:node_id/runs/variants`,
    operationId: 'submitRunVariants',
    summary: 'Run ×N: N variants of a node, each its own run and version, all or none (the budget must cover all).',
    tag: 'runs',
    auth: 'caller',
    params: nodeParams,
    headers: AgentRunHeader.extend({
      'idempotency-key': IdempotencyKey.optional().meta({
        description:
          'Keys the variants K#1 … K#N: the same key and count return the same runs (required for a session).',
      }),
    }),
    body: RunVariantsBody,
    responses: {
      202: ok('Queued.', RunVariants),
      200: {
        ...ok('A replay: the runs this key already made.', RunVariants),
        headers: { 'idempotency-replayed': 'true' },
      },
    },
  },
  {
    method: 'post',
    path: `${CANVAS}/nodes/:node_id/runs/downstream`,
    operationId: 'submitRunChain',
    summary:
      'Run from here: the node and every node downstream of it along edges, in dependency order, each its own run; a node whose inputs are unchanged since its last success is cached (not run, not charged). All or none: the budget must cover every step that runs.',
    tag: 'runs',
    auth: 'caller',
    params: nodeParams,
    headers: AgentRunHeader.extend({
      'idempotency-key': IdempotencyKey.optional().meta({
        description: 'The same key from the same node returns the same chain (required for a session).',
      }),
    }),
    responses: {
      202: ok('Queued.', RunChain),
      200: {
        ...ok('A replay: the chain this key already made.', RunChain),
        headers: { 'idempotency-replayed': 'true' },
      },
    },
  },
  {
    method: 'get',
    path: `${CANVAS}/nodes/:node_id/downstream-estimate`,
    operationId: 'estimateRunChain',
    summary: 'What Run from here would run and skip (cached), its whole cost, and whether the budget covers it.',
    tag: 'runs',
    auth: 'caller',
    params: nodeParams,
    responses: { 200: ok('The estimate.', ChainEstimate) },
  },
  {
    method: 'get',
    path: `${CANVAS}/chains/:chain_id`,
    operationId: 'getRunChain',
    summary: 'A downstream chain: each step cached or its run status, and the cost.',
    tag: 'runs',
    auth: 'caller',
    params: canvasParams.extend({ chain_id: RunChainId }),
    responses: { 200: ok('The chain.', RunChain) },
  },
  {
    method: 'post',
    path: `${CANVAS}/chains/:chain_id/cancel`,
    operationId: 'cancelRunChain',
    summary: 'One cancel for the whole chain: queued steps are cancelled at once, running ones asked to stop.',
    tag: 'runs',
    auth: 'caller',
    params: canvasParams.extend({ chain_id: RunChainId }),
    responses: { 200: ok('The chain after the cancel.', RunChain) },
  },
  {
    method: 'get',
    path: `${CANVAS}/nodes/:node_id/run-estimate`,
    operationId: 'estimateRun',
    summary: 'What a run of the node would cost, and the budget left.',
    tag: 'runs',
    auth: 'caller',
    params: nodeParams,
    responses: { 200: ok('The estimate.', RunEstimate) },
  },
  {
    method: 'get',
    path: `${CANVAS}/nodes/:node_id/versions`,
    operationId: 'listResultVersions',
    summary: "The node's result versions (its succeeded runs), oldest first, the current one marked.",
    tag: 'runs',
    auth: 'caller',
    params: nodeParams,
    responses: { 200: ok('The versions.', ResultVersionList) },
  },
  {
    method: 'post',
    path: `${CANVAS}/nodes/:node_id/versions/:run_id/pick`,
    operationId: 'pickResultVersion',
    summary:
      "Make a version the node's current result: a layout write (history, feed, revert) naming the run in externalRunId and its output in the type's result field.",
    tag: 'runs',
    auth: 'caller',
    params: nodeParams.extend({ run_id: RunId }),
    headers: AgentRunHeader,
    body: PickVersionBody,
    responses: { 200: ok('The write.', UpdateNodeReceipt) },
  },
  {
    method: 'get',
    path: `${CANVAS}/runs/:run_id`,
    operationId: 'getRun',
    summary: 'The record of one node run.',
    tag: 'runs',
    auth: 'caller',
    params: runParams,
    responses: { 200: ok('The run.', NodeRun) },
  },
  {
    method: 'post',
    path: `${CANVAS}/runs/:run_id/cancel`,
    operationId: 'cancelRun',
    summary: 'Request cancellation of an active run.',
    tag: 'runs',
    auth: 'caller',
    params: runParams,
    responses: { 200: ok('cancel_requested, or the terminal status the run already had.', CancelRunResult) },
  },
  {
    method: 'post',
    path: `${CANVAS}/chat-runs`,
    operationId: 'openChatRun',
    summary: "Open a chat run for the caller's agent.",
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    body: ChatRunOpenBody,
    responses: { 201: ok('Opened.', ChatRunView) },
  },
  {
    method: 'get',
    path: `${CANVAS}/chat-runs`,
    operationId: 'listChatRuns',
    summary: 'The active chat runs of a canvas.',
    tag: 'people',
    auth: 'caller',
    params: canvasParams,
    responses: { 200: ok('The chat runs.', ChatRunList) },
  },
  {
    method: 'delete',
    path: `${CANVAS}/chat-runs/:chat_run_id`,
    operationId: 'endChatRun',
    summary: 'End a chat run.',
    tag: 'people',
    auth: 'caller',
    params: canvasParams.extend({ chat_run_id: ResourceId }),
    responses: { 200: ok('Ended.', ChatRunView) },
  },
  {
    method: 'post',
    path: '/api/v1/tokens',
    operationId: 'issueToken',
    summary: 'Issue an agent token (owners).',
    tag: 'people',
    auth: 'caller',
    body: TokenIssueBody,
    responses: { 201: ok('Issued; the secret is shown once.', IssuedToken) },
  },
  {
    method: 'get',
    path: '/api/v1/tokens',
    operationId: 'listTokens',
    summary: 'The tokens of a project, without secrets (owners).',
    tag: 'people',
    auth: 'caller',
    query: z.object({ project_id: ProjectId }),
    responses: { 200: ok('The tokens.', TokenList) },
  },
  {
    method: 'delete',
    path: '/api/v1/tokens/:token_id',
    operationId: 'revokeToken',
    summary: 'Revoke a token.',
    tag: 'people',
    auth: 'caller',
    params: z.object({ token_id: ResourceId }),
    responses: { 200: ok('Revoked.', TokenView) },
  },
  {
    method: 'get',
    path: '/api/v1/chat/model',
    operationId: 'chatModel',
    summary: 'Whether the canvas chat has a model, and what to set when it has none.',
    tag: 'chat',
    auth: 'caller',
    responses: { 200: ok("The chat's model.", ChatModelStatus) },
  },
  {
    method: 'get',
    path: `${CANVAS}/conversations`,
    operationId: 'listConversations',
    summary: "The canvas's chat conversations, most recent first.",
    tag: 'chat',
    auth: 'caller',
    params: canvasParams,
    responses: { 200: ok('The conversations.', ConversationList) },
  },
  {
    method: 'post',
    path: `${CANVAS}/conversations`,
    operationId: 'startConversation',
    summary: 'A new conversation for the caller (read-only for a viewer).',
    tag: 'chat',
    auth: 'caller',
    params: canvasParams,
    body: ConversationCreateBody,
    responses: { 201: ok('Started.', ConversationView) },
  },
  {
    method: 'get',
    path: `${CANVAS}/conversations/:conversation_id`,
    operationId: 'getConversation',
    summary: 'One conversation.',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    responses: { 200: ok('The conversation.', ConversationView) },
  },
  {
    method: 'delete',
    path: `${CANVAS}/conversations/:conversation_id`,
    operationId: 'deleteConversation',
    summary: 'End a conversation and delete its transcript (its person only).',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    responses: { 204: { description: 'Deleted.' } },
  },
  {
    method: 'get',
    path: `${CANVAS}/conversations/:conversation_id/messages`,
    operationId: 'conversationMessages',
    summary: 'A page of the transcript, oldest first.',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    query: ChatMessagesQuery,
    responses: { 200: ok('The messages.', ChatMessagePage) },
  },
  {
    method: 'post',
    path: `${CANVAS}/conversations/:conversation_id/messages`,
    operationId: 'sendChatMessage',
    summary: 'Send a message (or approval answers): the turn streams back.',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    body: ChatSendBody,
    responses: {
      200: {
        description: "The turn, as the AI SDK's UI message stream.",
        content: { 'text/event-stream': UiMessageStream },
      },
    },
  },
  {
    method: 'get',
    path: `${CANVAS}/conversations/:conversation_id/stream`,
    operationId: 'watchConversation',
    summary: 'The turn running now, from its start.',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    responses: {
      200: {
        description: "The turn, as the AI SDK's UI message stream.",
        content: { 'text/event-stream': UiMessageStream },
      },
      204: { description: 'No turn is running.' },
    },
  },
  {
    method: 'post',
    path: `${CANVAS}/conversations/:conversation_id/stop`,
    operationId: 'stopConversation',
    summary: 'Stop the running turn at once.',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    responses: { 200: ok('The conversation.', ConversationView) },
  },
  {
    method: 'post',
    path: `${CANVAS}/conversations/:conversation_id/end`,
    operationId: 'endConversation',
    summary: 'End the conversation and its chat run (the transcript stays).',
    tag: 'chat',
    auth: 'caller',
    params: conversationParams,
    responses: { 200: ok('The conversation.', ConversationView) },
  },
];
