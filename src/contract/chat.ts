import { z } from 'zod';
import { CanvasId, NodeId, ProjectId } from './identifiers.js';
import { Person } from './person.js';

/**
 * The canvas chat (docs/chat.md): conversations of a person with the in-product assistant, whose agent
 * works through the six tools like any other. Messages are the AI SDK's UIMessage JSON (text, tool calls and their
 * results, approvals); the browser sends only its own text and its answers to approvals, never the transcript.
 */

export const CONVERSATION_STATUSES = ['idle', 'running', 'awaiting_approval', 'interrupted', 'ended'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const ConversationView = z.strictObject({
  conversation_id: z.string(),
  project_id: ProjectId,
  canvas_id: CanvasId,
  title: z.string(),
  owner: Person,
  status: z.enum(CONVERSATION_STATUSES),
  /** Whether the assistant may change the canvas (its person is an editor or owner). */
  can_edit: z.boolean(),
  /** The chat run its agent presents (X-Agent-Run-Id): the author of its writes in history. */
  agent_run_id: z.string(),
  tokens_used: z.int().min(0),
  approval_expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConversationView = z.infer<typeof ConversationView>;

export const ConversationList = z.looseObject({ conversations: z.array(ConversationView) });

export const ConversationCreateBody = z.strictObject({
  title: z
    .string()
    .min(1)
    .max(120)
    .optional()
    .meta({ description: 'A name for the conversation (default: its first message).' }),
});

/** A message as stored (the AI SDK's UIMessage): parts are text, tool calls with their results, approvals, steps. */
export const StoredChatMessage = z.looseObject({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  parts: z.array(z.looseObject({ type: z.string() })),
  metadata: z.unknown().optional(),
});
export type StoredChatMessage = z.infer<typeof StoredChatMessage>;

export const ChatMessagePage = z.looseObject({
  messages: z.array(StoredChatMessage),
  /** Pass as `before` for the older page; null when there is none. */
  next_before: z.int().nullable(),
});

export const ChatMessagesQuery = z.strictObject({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

/** Where the person is on the canvas when they send: what "this" and "here" mean. */
export const ChatContext = z.strictObject({
  /** The nodes the person has selected, by id. */
  selection: z.array(NodeId).max(200).default([]),
  /** The part of the canvas in view, in canvas coordinates. */
  viewport: z
    .strictObject({
      x: z.number(),
      y: z.number(),
      width: z.number().min(0),
      height: z.number().min(0),
      zoom: z.number().positive(),
    })
    .optional(),
  /** A place near the selection (or the view) where new nodes overlap nothing, as the page sees the layout. */
  free_spot: z.strictObject({ x: z.number(), y: z.number() }).optional(),
});
export type ChatContext = z.infer<typeof ChatContext>;

export const ChatApprovalAnswer = z.strictObject({
  approval_id: z.string().min(1).max(200),
  approved: z.boolean(),
  reason: z.string().max(500).optional(),
});
export type ChatApprovalAnswer = z.infer<typeof ChatApprovalAnswer>;

/**
 * POST …/conversations/{id}/messages: a new message from the person, or their answers to the assistant's approval
 * requests (then the turn continues), never both.
 */
export const ChatSendBody = z
  .strictObject({
    message: z
      .strictObject({
        id: z.string().min(1).max(100).meta({
          description:
            "The page's own id for the message (kept as metadata.client_id); the server gives the stored message its own id. An id already in the conversation is refused.",
        }),
        text: z.string().trim().min(1, { error: 'must not be empty' }).max(20_000),
      })
      .optional(),
    approvals: z.array(ChatApprovalAnswer).min(1).max(20).optional(),
    context: ChatContext.default({ selection: [] }),
  })
  .refine((body) => (body.message === undefined) !== (body.approvals === undefined), {
    error: 'send either a message or approvals',
    path: ['message'],
  });
export type ChatSendBody = z.infer<typeof ChatSendBody>;

/** GET /api/v1/chat/model: whether the chat can answer, and what to set when it cannot. */
export const ChatModelStatus = z.strictObject({
  configured: z.boolean(),
  provider: z.enum(['anthropic', 'openai', 'openai-compatible']).nullable(),
  model: z.string().nullable(),
  /** One sentence for people: what is configured, or the exact setting to add. */
  message: z.string(),
});
export type ChatModelStatus = z.infer<typeof ChatModelStatus>;
