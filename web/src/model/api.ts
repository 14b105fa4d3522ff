import type {
  Drawing,
  DrawingReceipt,
  SaveDrawingBody,
  AuditEntry,
  RunApprovalList,
  RunApprovalView,
  ExportList,
  ExportView,
  ShareLinkList,
  ShareLinkView,
  SharedBoardsView,
  CanvasView,
  SessionView,
  InviteView,
  IssuedInvite,
  MemberSignInLink,
  MemberView,
  PresenceUpdateBody,
  BatchReceipt,
  CanvasSnapshot,
  ChatRunView,
  ConnectionView,
  HistoryPage,
  IssuedToken,
  LayoutOperation,
  MeView,
  NodeRun,
  RevertReceipt,
  ScriptImportBody,
  ScriptImportReceipt,
  ConformBody,
  ConformReport,
  TemplateList,
  TidyBody,
  CheckpointList,
  CheckpointView,
  UndoChatRunReceipt,
  ElementCreateBody,
  ElementList,
  ElementUpdateBody,
  ElementView,
  TemplateView,
  RunEstimate,
  ChainEstimate,
  RunChain,
  SkillCatalog,
  TokenView,
  IssuedWebhook,
  ResultVersionList,
  UpdateNodeReceipt as UpdateNodeReceiptView,
  WebhookCreateBody,
  WebhookDelivery,
  WebhookList,
  GuestView,
  Inbox,
  ReviewState,
  ReviewStateList,
  ReviewStateView,
  ShareReview,
  ThreadCreateBody,
  ThreadList,
  ThreadView,
  ProjectStorageView,
  ReviewRoom,
  RoomMoveBody,
} from '../../../src/contract/index.js';

/**
 * The page talks to the same REST routes as every other client (docs/api.md): no private back door. Every write carries
 * X-Requested-By (with the Origin the browser adds, what the server asks of a signed-in write).
 */

export const SNAPSHOT_VERSION = 'canvas-snapshot.v2';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  init: { keepalive?: boolean } = {},
): Promise<T> {
  const response = await fetch(path, {
    method,
    ...init,
    credentials: 'same-origin',
    headers: {
      'x-requested-by': 'canvas-mcp',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const error = (
      json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined
    )?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'unknown',
      error?.message ?? `HTTP ${response.status}`,
      error?.details ?? {},
    );
  }
  return json as T;
}

const canvasPath = (projectId: string, canvasId: string) =>
  `/api/v2/projects/${encodeURIComponent(projectId)}/canvases/${encodeURIComponent(canvasId)}`;

const drawingPath = (projectId: string, canvasId: string, boardId: string, shotId: string) =>
  `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(boardId)}/shots/${encodeURIComponent(shotId)}/drawing`;

const projectPath = (projectId: string) => `/api/v1/projects/${encodeURIComponent(projectId)}`;
const memberPath = (projectId: string, member: { issuer: string; subject: string }) =>
  `${projectPath(projectId)}/members/${encodeURIComponent(member.issuer)}/${encodeURIComponent(member.subject)}`;

export interface CanvasAddress {
  projectId: string;
  canvasId: string;
}

export const api = {
  me: () => request<MeView>('GET', '/api/v1/me'),
  logout: () => request<void>('POST', '/auth/logout'),
  skills: () => request<SkillCatalog>('GET', '/api/v1/zone/skills'),

  snapshot: ({ projectId, canvasId }: CanvasAddress) =>
    request<CanvasSnapshot>('GET', `${canvasPath(projectId, canvasId)}/snapshot`, undefined, {
      'x-canvas-snapshot-version': SNAPSHOT_VERSION,
    }),

  changes: (
    { projectId, canvasId }: CanvasAddress,
    baseRevision: number,
    operations: LayoutOperation[],
    clientSaveId: string,
  ) =>
    request<BatchReceipt>('POST', `${canvasPath(projectId, canvasId)}/changes`, {
      base_revision: baseRevision,
      client_save_id: clientSaveId,
      operations,
    }),

  drawing: ({ projectId, canvasId }: CanvasAddress, boardId: string, shotId: string) =>
    request<Drawing>('GET', drawingPath(projectId, canvasId, boardId, shotId)),
  /** keepalive: a stroke saved as the tab closes still arrives. */
  saveDrawing: ({ projectId, canvasId }: CanvasAddress, boardId: string, shotId: string, body: SaveDrawingBody) =>
    request<DrawingReceipt>('POST', drawingPath(projectId, canvasId, boardId, shotId), body, {}, { keepalive: true }),

  importScript: ({ projectId, canvasId }: CanvasAddress, body: ScriptImportBody) =>
    request<ScriptImportReceipt>('POST', `${canvasPath(projectId, canvasId)}/script-import`, body),
  /** An editor's timeline read back into a board (docs/deliverables.md, "Conform"). */
  conform: ({ projectId, canvasId }: CanvasAddress, body: ConformBody) =>
    request<ConformReport>('POST', `${canvasPath(projectId, canvasId)}/conform`, body),

  undoChatRun: ({ projectId, canvasId }: CanvasAddress, agentRunId: string, baseRevision: number) =>
    request<UndoChatRunReceipt>(
      'POST',
      `${canvasPath(projectId, canvasId)}/chat-runs/${encodeURIComponent(agentRunId)}/undo`,
      { base_revision: baseRevision, client_save_id: null },
    ),
  runApprovals: ({ projectId, canvasId }: CanvasAddress) =>
    request<RunApprovalList>('GET', `${canvasPath(projectId, canvasId)}/run-approvals?status=pending`),
  decideRunApproval: ({ projectId, canvasId }: CanvasAddress, approvalId: string, decision: 'approve' | 'decline') =>
    request<RunApprovalView>(
      'POST',
      `${canvasPath(projectId, canvasId)}/run-approvals/${encodeURIComponent(approvalId)}`,
      { decision },
    ),
  exports: ({ projectId, canvasId }: CanvasAddress) =>
    request<ExportList>('GET', `${canvasPath(projectId, canvasId)}/exports`),
  /** The body is ExportCreateBody as sent (the server fills in the options' defaults). */
  createExport: ({ projectId, canvasId }: CanvasAddress, body: { kind: string; node_id: string; options: object }) =>
    request<ExportView>('POST', `${canvasPath(projectId, canvasId)}/exports`, body),
  cancelExport: ({ projectId, canvasId }: CanvasAddress, exportId: string) =>
    request<ExportView>('POST', `${canvasPath(projectId, canvasId)}/exports/${encodeURIComponent(exportId)}/cancel`),
  shareLinks: ({ projectId, canvasId }: CanvasAddress) =>
    request<ShareLinkList>('GET', `${canvasPath(projectId, canvasId)}/share-links`),
  createShareLink: (
    { projectId, canvasId }: CanvasAddress,
    body: { node_id: string | null; expires_in_days: number; downloads: string[]; review: ShareReview },
  ) => request<ShareLinkView>('POST', `${canvasPath(projectId, canvasId)}/share-links`, body),
  revokeShareLink: ({ projectId, canvasId }: CanvasAddress, shareId: string) =>
    request<void>('DELETE', `${canvasPath(projectId, canvasId)}/share-links/${encodeURIComponent(shareId)}`),
  shared: (secret: string) => request<SharedBoardsView>('GET', `/api/v1/shared/${encodeURIComponent(secret)}`),
  /** A share link's review-room stream (Server-Sent Events): the rooms of the boards it shows. */
  sharedRoomUrl: (secret: string) => `/api/v1/shared/${encodeURIComponent(secret)}/room`,
  moveRoom: ({ projectId, canvasId }: CanvasAddress, boardId: string, body: RoomMoveBody) =>
    request<ReviewRoom>('PUT', `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(boardId)}/room`, body),
  /** keepalive: a presenter closing the tab still ends the room. */
  endRoom: ({ projectId, canvasId }: CanvasAddress, boardId: string) =>
    request<void>(
      'DELETE',
      `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(boardId)}/room`,
      undefined,
      {},
      { keepalive: true },
    ),

  // Review (docs/review.md): comment threads, review states, the inbox, and a review link's guests.
  threads: ({ projectId, canvasId }: CanvasAddress) =>
    request<ThreadList>('GET', `${canvasPath(projectId, canvasId)}/threads?filter=all`),
  startThread: ({ projectId, canvasId }: CanvasAddress, body: ThreadCreateBody) =>
    request<ThreadView>('POST', `${canvasPath(projectId, canvasId)}/threads`, body),
  setThreadStatus: ({ projectId, canvasId }: CanvasAddress, threadId: string, status: 'open' | 'resolved') =>
    request<ThreadView>('PATCH', `${canvasPath(projectId, canvasId)}/threads/${encodeURIComponent(threadId)}`, {
      status,
    }),
  reply: ({ projectId, canvasId }: CanvasAddress, threadId: string, body: string) =>
    request<ThreadView>('POST', `${canvasPath(projectId, canvasId)}/threads/${encodeURIComponent(threadId)}/comments`, {
      body,
    }),
  /** A new body for one's own comment; null deletes it. */
  changeComment: ({ projectId, canvasId }: CanvasAddress, threadId: string, commentId: string, body: string | null) =>
    request<ThreadView>(
      body === null ? 'DELETE' : 'PATCH',
      `${canvasPath(projectId, canvasId)}/threads/${encodeURIComponent(threadId)}/comments/${encodeURIComponent(commentId)}`,
      body === null ? undefined : { body },
    ),
  reviewStates: ({ projectId, canvasId }: CanvasAddress) =>
    request<ReviewStateList>('GET', `${canvasPath(projectId, canvasId)}/review-states`),
  setReviewState: (
    { projectId, canvasId }: CanvasAddress,
    body: { node_id: string; shot_id: string | null; state: ReviewState; base_revision?: number },
  ) => request<ReviewStateView>('PUT', `${canvasPath(projectId, canvasId)}/review-states`, body),
  requestReview: (
    { projectId, canvasId }: CanvasAddress,
    body: { node_id: string; shot_id: string | null; approvers: string[]; note: string },
  ) => request<ReviewStateView>('POST', `${canvasPath(projectId, canvasId)}/review-requests`, body),
  setEditorsApprove: (projectId: string, editorsApprove: boolean) =>
    request<unknown>('PUT', `/api/v2/projects/${encodeURIComponent(projectId)}/review-settings`, {
      editors_approve: editorsApprove,
    }),
  inbox: () => request<Inbox>('GET', '/api/v1/inbox'),
  markRead: (which: 'all' | string[]) =>
    request<unknown>('POST', '/api/v1/inbox/read', which === 'all' ? { all: true } : { notification_ids: which }),
  joinAsGuest: (secret: string, name: string) =>
    request<GuestView>('POST', `/api/v1/shared/${encodeURIComponent(secret)}/guests`, { name }),
  /** A drawn note's marked-up frame (a PNG), for members of the canvas. */
  markedFrameUrl: ({ projectId, canvasId }: CanvasAddress, threadId: string, commentId: string) =>
    `${canvasPath(projectId, canvasId)}/threads/${encodeURIComponent(threadId)}/comments/${encodeURIComponent(commentId)}/marked-frame.png`,
  /** The same for whoever holds a review link (the client's threads). */
  sharedMarkedFrameUrl: (secret: string, threadId: string, commentId: string) =>
    `/api/v1/shared/${encodeURIComponent(secret)}/threads/${encodeURIComponent(threadId)}/comments/${encodeURIComponent(commentId)}/marked-frame.png`,
  guestStartThread: (secret: string, token: string, body: ThreadCreateBody) =>
    request<ThreadView>('POST', `/api/v1/shared/${encodeURIComponent(secret)}/threads`, body, {
      'x-guest-token': token,
    }),
  guestReply: (secret: string, token: string, threadId: string, body: string) =>
    request<ThreadView>(
      'POST',
      `/api/v1/shared/${encodeURIComponent(secret)}/threads/${encodeURIComponent(threadId)}/comments`,
      { body },
      { 'x-guest-token': token },
    ),
  guestChangeComment: (secret: string, token: string, threadId: string, commentId: string, body: string | null) =>
    request<ThreadView>(
      body === null ? 'DELETE' : 'PATCH',
      `/api/v1/shared/${encodeURIComponent(secret)}/threads/${encodeURIComponent(threadId)}/comments/${encodeURIComponent(commentId)}`,
      body === null ? undefined : { body },
      { 'x-guest-token': token },
    ),
  checkpoints: ({ projectId, canvasId }: CanvasAddress) =>
    request<CheckpointList>('GET', `${canvasPath(projectId, canvasId)}/checkpoints`),
  createCheckpoint: ({ projectId, canvasId }: CanvasAddress, name: string) =>
    request<CheckpointView>('POST', `${canvasPath(projectId, canvasId)}/checkpoints`, { name }),
  tidy: ({ projectId, canvasId }: CanvasAddress, body: TidyBody) =>
    request<BatchReceipt>('POST', `${canvasPath(projectId, canvasId)}/tidy`, body),
  revert: ({ projectId, canvasId }: CanvasAddress, baseRevision: number, toRevision: number) =>
    request<RevertReceipt>('POST', `${canvasPath(projectId, canvasId)}/revert`, {
      base_revision: baseRevision,
      to_revision: toRevision,
    }),

  /** The picture the signed-in person is shown by: sent as a file, answered with its URL. */
  async setMyPicture(file: File): Promise<{ picture_url: string | null }> {
    const form = new FormData();
    form.append('file', file, file.name);
    const response = await fetch('/api/v1/me/picture', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'x-requested-by': 'canvas-mcp' },
      body: form,
    });
    const body = (await response.json().catch(() => undefined)) as
      { picture_url?: string | null; error?: { code?: string; message?: string } } | undefined;
    if (!response.ok)
      throw new ApiError(
        response.status,
        body?.error?.code ?? 'unknown',
        body?.error?.message ?? `HTTP ${response.status}`,
      );
    return { picture_url: body?.picture_url ?? null };
  },
  removeMyPicture: () => request<{ picture_url: null }>('DELETE', '/api/v1/me/picture'),
  setMyName: (displayName: string) =>
    request<{ display_name: string }>('PUT', '/api/v1/me/name', { display_name: displayName }),
  history: ({ projectId, canvasId }: CanvasAddress, before?: number) =>
    request<HistoryPage>(
      'GET',
      `${canvasPath(projectId, canvasId)}/history?limit=50&shots=true${before ? `&before=${before}` : ''}`,
    ),

  estimate: ({ projectId, canvasId }: CanvasAddress, nodeId: string) =>
    request<RunEstimate>('GET', `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/run-estimate`),

  /** One key per click: a double click or a retry never starts (or charges) a second run. */
  submitRun: ({ projectId, canvasId }: CanvasAddress, nodeId: string, idempotencyKey: string) =>
    request<NodeRun>('POST', `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/runs`, undefined, {
      'idempotency-key': idempotencyKey,
    }),

  submitRunVariants: ({ projectId, canvasId }: CanvasAddress, nodeId: string, count: number, idempotencyKey: string) =>
    request<{ runs: NodeRun[] }>(
      'POST',
      `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/runs/variants`,
      { count },
      { 'idempotency-key': idempotencyKey },
    ),

  /** "Run from here" (docs/runs.md, "Downstream chains"): what the chain from a node would run, skip and cost. */
  estimateChain: ({ projectId, canvasId }: CanvasAddress, nodeId: string) =>
    request<ChainEstimate>(
      'GET',
      `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/downstream-estimate`,
    ),

  submitRunChain: ({ projectId, canvasId }: CanvasAddress, nodeId: string, idempotencyKey: string) =>
    request<RunChain>(
      'POST',
      `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/runs/downstream`,
      undefined,
      { 'idempotency-key': idempotencyKey },
    ),

  chain: ({ projectId, canvasId }: CanvasAddress, chainId: string) =>
    request<RunChain>('GET', `${canvasPath(projectId, canvasId)}/chains/${encodeURIComponent(chainId)}`),

  cancelChain: ({ projectId, canvasId }: CanvasAddress, chainId: string) =>
    request<RunChain>('POST', `${canvasPath(projectId, canvasId)}/chains/${encodeURIComponent(chainId)}/cancel`),

  versions: ({ projectId, canvasId }: CanvasAddress, nodeId: string) =>
    request<ResultVersionList>(
      'GET',
      `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/versions`,
    ),

  pickVersion: ({ projectId, canvasId }: CanvasAddress, nodeId: string, runId: string, baseRevision: number) =>
    request<UpdateNodeReceiptView>(
      'POST',
      `${canvasPath(projectId, canvasId)}/nodes/${encodeURIComponent(nodeId)}/versions/${encodeURIComponent(runId)}/pick`,
      {
        base_revision: baseRevision,
      },
    ),

  cancelRun: ({ projectId, canvasId }: CanvasAddress, runId: string) =>
    request<{ status: string }>('POST', `${canvasPath(projectId, canvasId)}/runs/${encodeURIComponent(runId)}/cancel`),

  chatRuns: ({ projectId, canvasId }: CanvasAddress) =>
    request<{ chat_runs: ChatRunView[] }>('GET', `${canvasPath(projectId, canvasId)}/chat-runs`),

  openChatRun: (
    { projectId, canvasId }: CanvasAddress,
    body: { edit: boolean; token_id?: string; expires_in?: number },
  ) => request<ChatRunView>('POST', `${canvasPath(projectId, canvasId)}/chat-runs`, body),

  endChatRun: ({ projectId, canvasId }: CanvasAddress, agentRunId: string) =>
    request<ChatRunView>('DELETE', `${canvasPath(projectId, canvasId)}/chat-runs/${encodeURIComponent(agentRunId)}`),

  connections: ({ projectId, canvasId }: CanvasAddress) =>
    request<{ connections: ConnectionView[] }>(
      'GET',
      `/api/v1/projects/${encodeURIComponent(projectId)}/canvases/${encodeURIComponent(canvasId)}/connections`,
    ),

  updateConnection: (grantId: string, body: { tool_sets: string[] }) =>
    request<ConnectionView>('PATCH', `/api/v1/connections/${encodeURIComponent(grantId)}`, body),
  endConnection: (grantId: string) =>
    request<ConnectionView>('DELETE', `/api/v1/connections/${encodeURIComponent(grantId)}`),

  issueToken: (body: { name: string; project_id: string; tool_sets?: string[] }) =>
    request<IssuedToken>('POST', '/api/v1/tokens', body),

  revokeToken: (tokenId: string) => request<TokenView>('DELETE', `/api/v1/tokens/${encodeURIComponent(tokenId)}`),

  /**
   * Each feed connection gets its own URL: Chromium holds a second request for a URL already being fetched (its
   * cache lock) until the first ends, and a feed never ends, so two tabs at the same revision would stall.
   */
  reportPresence: ({ projectId, canvasId }: CanvasAddress, report: PresenceUpdateBody) =>
    request<void>('POST', `${canvasPath(projectId, canvasId)}/presence`, report),
  /** Sent as the page goes away: keepalive lets it finish after the page is gone. */
  leaveCanvas: async ({ projectId, canvasId }: CanvasAddress, order: { tab: string; seq: number }) => {
    const query = `tab=${encodeURIComponent(order.tab)}&seq=${order.seq}`;
    await fetch(`${canvasPath(projectId, canvasId)}/presence?${query}`, {
      method: 'DELETE',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'x-requested-by': 'canvas-mcp' },
    });
  },
  mySessions: () => request<{ sessions: SessionView[] }>('GET', '/api/v1/me/sessions'),
  endMySession: (sessionId: string) => request<void>('DELETE', `/api/v1/me/sessions/${encodeURIComponent(sessionId)}`),
  members: (projectId: string) => request<{ members: MemberView[] }>('GET', `${projectPath(projectId)}/members`),
  changeRole: (projectId: string, member: { issuer: string; subject: string }, role: MemberView['role']) =>
    request<MemberView>('PATCH', memberPath(projectId, member), { role }),
  removeMember: (projectId: string, member: { issuer: string; subject: string }) =>
    request<void>('DELETE', memberPath(projectId, member)),
  invite: (projectId: string, role: MemberView['role']) =>
    request<IssuedInvite>('POST', `${projectPath(projectId)}/invites`, { role }),
  invites: (projectId: string) => request<{ invites: InviteView[] }>('GET', `${projectPath(projectId)}/invites`),
  /** The signed-in person's address for e-mailed sign-in links. */
  setMyEmail: (email: string | null) => request<{ email: string | null }>('PATCH', '/api/v1/me/email', { email }),
  /** A one-time sign-in link for a member whose session ended (owners). */
  memberSignInLink: (projectId: string, member: { issuer: string; subject: string }) =>
    request<MemberSignInLink>(
      'POST',
      `${projectPath(projectId)}/members/${encodeURIComponent(member.issuer)}/${encodeURIComponent(member.subject)}/sign-in-link`,
    ),
  withdrawInvite: (projectId: string, inviteId: string) =>
    request<InviteView>('DELETE', `${projectPath(projectId)}/invites/${encodeURIComponent(inviteId)}`),
  audit: (projectId: string) => request<{ entries: AuditEntry[] }>('GET', `${projectPath(projectId)}/audit?limit=100`),
  /** What the project's assets take, and its quota (owners). */
  storage: (projectId: string) => request<ProjectStorageView>('GET', `${projectPath(projectId)}/storage`),
  webhooks: (projectId: string) => request<WebhookList>('GET', `${projectPath(projectId)}/webhooks`),
  createWebhook: (projectId: string, body: WebhookCreateBody) =>
    request<IssuedWebhook>('POST', `${projectPath(projectId)}/webhooks`, body),
  rotateWebhookSecret: (projectId: string, webhookId: string) =>
    request<IssuedWebhook>('PATCH', `${projectPath(projectId)}/webhooks/${encodeURIComponent(webhookId)}`, {
      rotate_secret: true,
    }),
  deleteWebhook: (projectId: string, webhookId: string) =>
    request<{ deleted: string }>('DELETE', `${projectPath(projectId)}/webhooks/${encodeURIComponent(webhookId)}`),
  webhookDeliveries: (projectId: string, webhookId: string) =>
    request<{ deliveries: WebhookDelivery[] }>(
      'GET',
      `${projectPath(projectId)}/webhooks/${encodeURIComponent(webhookId)}/deliveries?limit=20`,
    ),
  redeliverWebhook: (projectId: string, webhookId: string, deliveryId: string) =>
    request<WebhookDelivery>(
      'POST',
      `${projectPath(projectId)}/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
    ),
  /** A new canvas named by a person: its id is derived from the title by the server. */
  createCanvas: (projectId: string, title: string, templateId?: string) =>
    request<{ canvas_id: string }>('POST', `${projectPath(projectId)}/canvases`, {
      title,
      ...(templateId ? { template_id: templateId } : {}),
    }),
  elements: (projectId: string) => request<ElementList>('GET', `${projectPath(projectId)}/elements`),
  createElement: (projectId: string, body: ElementCreateBody) =>
    request<ElementView>('POST', `${projectPath(projectId)}/elements`, body),
  updateElement: (projectId: string, elementId: string, body: ElementUpdateBody) =>
    request<ElementView>('PATCH', `${projectPath(projectId)}/elements/${encodeURIComponent(elementId)}`, body),
  deleteElement: (projectId: string, elementId: string) =>
    request<void>('DELETE', `${projectPath(projectId)}/elements/${encodeURIComponent(elementId)}`),
  templates: (projectId: string) => request<TemplateList>('GET', `${projectPath(projectId)}/templates`),
  saveTemplate: (projectId: string, canvasId: string, title: string) =>
    request<TemplateView>('POST', `${projectPath(projectId)}/templates`, { canvas_id: canvasId, title }),
  changeCanvas: (projectId: string, canvasId: string, change: { locked?: boolean; title?: string | null }) =>
    request<CanvasView>('PATCH', `${projectPath(projectId)}/canvases/${encodeURIComponent(canvasId)}`, change),
  duplicateCanvas: (projectId: string, canvasId: string, copyId: string, withResults: boolean) =>
    request<CanvasView>('POST', `${projectPath(projectId)}/canvases/${encodeURIComponent(canvasId)}/duplicate`, {
      canvas_id: copyId,
      with_results: withResults,
    }),
  deleteCanvas: (projectId: string, canvasId: string, confirm: string) =>
    request<unknown>('DELETE', `${projectPath(projectId)}/canvases/${encodeURIComponent(canvasId)}`, { confirm }),
  /** A new project named by a person ("Spring Commercial"): its id is derived from the title by the server. */
  createProject: (title: string) => request<{ project_id: string }>('POST', '/api/v1/projects', { title }),
  renameProject: (projectId: string, title: string) => request<unknown>('PATCH', projectPath(projectId), { title }),
  deleteProject: (projectId: string, confirm: string) =>
    request<unknown>('DELETE', projectPath(projectId), { confirm }),

  feedUrl: ({ projectId, canvasId }: CanvasAddress, after: number) =>
    `${canvasPath(projectId, canvasId)}/events?after=${after}&connection=${newKey()}`,
};

/**
 * A random UUID (v4). Not crypto.randomUUID: that exists in secure contexts only, and the MCP App runs in a host's
 * sandboxed frame, which may not be one; getRandomValues exists everywhere.
 */
export function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
