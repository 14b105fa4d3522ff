import { drawnBoxes, freeSpotNear, NEW_CARD } from './placement.js';
import { DefaultChatTransport, type UIMessage } from 'ai';
import type {
  CanvasNode,
  ChatApprovalAnswer,
  ChatContext,
  ChatModelStatus,
  ConversationView,
  StoredChatMessage,
} from '../../../src/contract/index.js';
import { ApiError, newKey, type CanvasAddress } from './api.js';

/**
 * The canvas chat's side of the page, in plain TypeScript (docs/chat.md): its REST routes, the AI SDK transport that
 * sends a message (or approval answers, never the transcript) and streams the turn back, what a tool call line says,
 * and where new nodes fit. The panel (panels/chat/ChatPanel.tsx) only renders and dispatches.
 */

const conversationsPath = ({ projectId, canvasId }: CanvasAddress) =>
  `/api/v2/projects/${encodeURIComponent(projectId)}/canvases/${encodeURIComponent(canvasId)}/conversations`;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: { 'x-requested-by': 'canvas-mcp', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? 'unknown', error?.message ?? `HTTP ${response.status}`);
  }
  return json as T;
}

export const chatApi = {
  model: () => call<ChatModelStatus>('GET', '/api/v1/chat/model'),
  list: (address: CanvasAddress) => call<{ conversations: ConversationView[] }>('GET', conversationsPath(address)),
  create: (address: CanvasAddress) => call<ConversationView>('POST', conversationsPath(address), {}),
  get: (address: CanvasAddress, id: string) =>
    call<ConversationView>('GET', `${conversationsPath(address)}/${encodeURIComponent(id)}`),
  messages: (address: CanvasAddress, id: string) =>
    call<{ messages: StoredChatMessage[]; next_before: number | null }>(
      'GET',
      `${conversationsPath(address)}/${encodeURIComponent(id)}/messages?limit=200`,
    ),
  stop: (address: CanvasAddress, id: string) =>
    call<ConversationView>('POST', `${conversationsPath(address)}/${encodeURIComponent(id)}/stop`),
  end: (address: CanvasAddress, id: string) =>
    call<ConversationView>('POST', `${conversationsPath(address)}/${encodeURIComponent(id)}/end`),
  remove: (address: CanvasAddress, id: string) =>
    call<void>('DELETE', `${conversationsPath(address)}/${encodeURIComponent(id)}`),
};

/** The answers to approval requests the person just gave, in the last assistant message. */
export function answeredApprovals(messages: UIMessage[]): ChatApprovalAnswer[] {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant') return [];
  return last.parts.flatMap((part) => {
    const { state, approval } = part as {
      state?: string;
      approval?: { id: string; approved?: boolean; reason?: string };
    };
    if (state !== 'approval-responded' || !approval || approval.approved === undefined) return [];
    return [
      {
        approval_id: approval.id,
        approved: approval.approved,
        ...(approval.reason ? { reason: approval.reason } : {}),
      },
    ];
  });
}

/**
 * The AI SDK transport of one conversation: a new message goes as `{message, context}`, approvals as `{approvals}`;
 * the server holds the transcript. Reconnecting (a reload, or someone else's turn) reads the turn running now.
 */
export function chatTransport(
  address: CanvasAddress,
  conversationId: string,
  context: () => ChatContext,
): DefaultChatTransport<UIMessage> {
  const base = `${conversationsPath(address)}/${encodeURIComponent(conversationId)}`;
  return new DefaultChatTransport<UIMessage>({
    api: `${base}/messages`,
    credentials: 'same-origin',
    headers: { 'x-requested-by': 'canvas-mcp' },
    prepareSendMessagesRequest: ({ messages }) => {
      const approvals = answeredApprovals(messages);
      if (approvals.length > 0) return { body: { approvals } };
      const last = messages.at(-1)!;
      const text = last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { body: { message: { id: last.id, text }, context: context() } };
    },
    prepareReconnectToStreamRequest: () => ({ api: `${base}/stream`, credentials: 'same-origin' }),
  });
}

export function newMessageId(): string {
  return `u_${newKey()}`;
}

/** What one tool call line of the chat says (docs/chat.md): the tool, its node, how it went, the revision it made. */
export interface ToolLine {
  tool: string;
  nodeId: string | null;
  outcome: 'running' | 'done' | 'conflict' | 'refused' | 'waiting' | 'declined';
  revision: number | null;
  detail: string | null;
}

const TOOL_WORDS: Record<string, string> = {
  get_canvas: 'Read the canvas',
  list_zone_skills: 'Read the skills',
  create_canvas_node: 'Created',
  create_canvas_edge: 'Connected',
  delete_canvas_node: 'Deleted',
  get_canvas_node_run: 'Checked run',
  cancel_canvas_node_run: 'Cancelled run',
  submit_canvas_node_run: 'Start a run of',
};

export function toolWord(tool: string): string {
  return TOOL_WORDS[tool] ?? tool;
}

export function toolLine(part: {
  toolName?: string;
  type: string;
  state?: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}): ToolLine {
  const tool = part.toolName ?? part.type.replace(/^tool-/, '');
  const input = (part.input ?? {}) as { node_id?: string; node?: { id?: string }; edge?: { target?: string } };
  const output = (part.output ?? {}) as {
    revision?: number;
    node_id?: string;
    isError?: boolean;
    error?: { code?: string; message?: string };
  };
  const nodeId = input.node_id ?? input.node?.id ?? input.edge?.target ?? output.node_id ?? null;
  const revision = typeof output.revision === 'number' && tool !== 'get_canvas' ? output.revision : null;
  const base = { tool, nodeId, revision };
  switch (part.state) {
    case 'approval-requested':
    case 'approval-responded':
      return { ...base, outcome: 'waiting', detail: null };
    case 'output-denied':
      return { ...base, outcome: 'declined', detail: null };
    case 'output-error':
      return { ...base, outcome: 'refused', detail: part.errorText ?? null };
    case 'output-available':
      if (output.isError) {
        const code = output.error?.code ?? 'error';
        return {
          ...base,
          outcome: code === 'revision_conflict' ? 'conflict' : 'refused',
          detail: output.error?.message ?? code,
        };
      }
      return {
        ...base,
        outcome: 'done',
        detail: tool === 'get_canvas' && typeof output.revision === 'number' ? `revision ${output.revision}` : null,
      };
    default:
      return { ...base, outcome: 'running', detail: null };
  }
}

/**
 * Where new nodes fit near what the person is working on: beside the selection (or at the view's centre), on the
 * nearest spot that overlaps no card (src/model/placement.ts). Given to the model with the message.
 */
export function freeSpot(
  nodes: CanvasNode[],
  selection: string[],
  viewCentre: { x: number; y: number },
): { x: number; y: number } {
  const boxes = drawnBoxes(nodes);
  const chosen = boxes.filter((_, index) => selection.includes(nodes[index]!.id));
  const near =
    chosen.length > 0
      ? {
          x: Math.max(...chosen.map((box) => box.x + box.width)) + NEW_CARD.width / 2 + 40,
          y: Math.min(...chosen.map((box) => box.y)) + NEW_CARD.height / 2,
        }
      : viewCentre;
  return freeSpotNear(boxes, near);
}
