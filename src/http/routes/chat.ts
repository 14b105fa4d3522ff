import type { Hono } from 'hono';
import type { UIMessageChunk } from 'ai';
import { z } from 'zod';
import {
  ChatMessagePage,
  ChatMessagesQuery,
  ChatModelStatus,
  ChatSendBody,
  ConversationCreateBody,
  ConversationList,
  ConversationView,
  ResourceId,
} from '../../contract/index.js';
import type { ChatService } from '../../agent/chat-service.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/**
 * The canvas chat's routes (docs/chat.md, docs/api.md): conversations of a canvas, their transcripts, and a turn as
 * it streams, in the AI SDK's UI message stream format (Server-Sent Events), which the web canvas reads with useChat.
 */

const CONVERSATIONS = `${CANVAS}/conversations`;
const CONVERSATION = `${CONVERSATIONS}/:conversation_id`;
const conversationParams = canvasParams.extend({ conversation_id: ResourceId });
const UiMessageStream = z.string().meta({
  description:
    'Server-Sent Events, one `data: <UIMessageChunk JSON>` per chunk, ending with `data: [DONE]` (header x-vercel-ai-ui-message-stream: v1).',
});
const turnStream = {
  description: "The turn, as the AI SDK's UI message stream.",
  content: { 'text/event-stream': UiMessageStream },
};

const MODEL = apiRoute({
  method: 'get',
  path: '/api/v1/chat/model',
  operationId: 'chatModel',
  summary: 'Whether the canvas chat has a model, and what to set when it has none.',
  tag: 'chat',
  auth: 'caller',
  responses: { 200: ok("The chat's model.", ChatModelStatus) },
});

const LIST = apiRoute({
  method: 'get',
  path: CONVERSATIONS,
  operationId: 'listConversations',
  summary: "The canvas's chat conversations, most recent first.",
  tag: 'chat',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The conversations.', ConversationList) },
});

const START = apiRoute({
  method: 'post',
  path: CONVERSATIONS,
  operationId: 'startConversation',
  summary: 'A new conversation for the caller (read-only for a viewer).',
  tag: 'chat',
  auth: 'caller',
  params: canvasParams,
  body: ConversationCreateBody,
  responses: { 201: ok('Started.', ConversationView) },
});

const GET = apiRoute({
  method: 'get',
  path: CONVERSATION,
  operationId: 'getConversation',
  summary: 'One conversation.',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  responses: { 200: ok('The conversation.', ConversationView) },
});

const DELETE = apiRoute({
  method: 'delete',
  path: CONVERSATION,
  operationId: 'deleteConversation',
  summary: 'End a conversation and delete its transcript (its person only).',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  responses: { 204: { description: 'Deleted.' } },
});

const MESSAGES = apiRoute({
  method: 'get',
  path: `${CONVERSATION}/messages`,
  operationId: 'conversationMessages',
  summary: 'A page of the transcript, oldest first.',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  query: ChatMessagesQuery,
  responses: { 200: ok('The messages.', ChatMessagePage) },
});

const SEND = apiRoute({
  method: 'post',
  path: `${CONVERSATION}/messages`,
  operationId: 'sendChatMessage',
  summary: 'Send a message (or approval answers): the turn streams back.',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  body: ChatSendBody,
  responses: { 200: turnStream },
});

const WATCH = apiRoute({
  method: 'get',
  path: `${CONVERSATION}/stream`,
  operationId: 'watchConversation',
  summary: 'The turn running now, from its start.',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  responses: { 200: turnStream, 204: { description: 'No turn is running.' } },
});

const STOP = apiRoute({
  method: 'post',
  path: `${CONVERSATION}/stop`,
  operationId: 'stopConversation',
  summary: 'Stop the running turn at once.',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  responses: { 200: ok('The conversation.', ConversationView) },
});

const END = apiRoute({
  method: 'post',
  path: `${CONVERSATION}/end`,
  operationId: 'endConversation',
  summary: 'End the conversation and its chat run (the transcript stays).',
  tag: 'chat',
  auth: 'caller',
  params: conversationParams,
  responses: { 200: ok('The conversation.', ConversationView) },
});

export const CHAT_ROUTES = [MODEL, LIST, START, GET, DELETE, MESSAGES, SEND, WATCH, STOP, END];

function conversationRef(params: z.output<typeof conversationParams>) {
  return { ...canvasRef(params), conversationId: params.conversation_id };
}

/**
 * A turn's chunks as the AI SDK's UI message stream (server-sent events). The SDK is imported here, at the first
 * answer that streams, not when the server starts: a process whose chat is never used does not load it.
 */
async function uiMessageStream(stream: ReadableStream<UIMessageChunk>, headers?: Record<string, string>) {
  const { createUIMessageStreamResponse } = await import('ai');
  return createUIMessageStreamResponse({ stream, ...(headers ? { headers } : {}) });
}

export function registerChatRoutes(app: Hono<BackendHttpEnv>, chat: ChatService): void {
  handle(app, MODEL, (c) => c.json(chat.modelStatus()));

  handle(app, LIST, async (c, input) =>
    c.json({ conversations: await chat.list(c.get('caller'), canvasRef(input.params())) }),
  );

  handle(app, START, async (c, input) => {
    const ref = canvasRef(input.params());
    const body = await input.body();
    return c.json(await chat.create(c.get('caller'), ref, body.title), 201);
  });

  handle(app, GET, async (c, input) => c.json(await chat.get(c.get('caller'), conversationRef(input.params()))));

  handle(app, DELETE, async (c, input) => {
    await chat.remove(c.get('caller'), conversationRef(input.params()));
    return c.body(null, 204);
  });

  handle(app, MESSAGES, async (c, input) => {
    const ref = conversationRef(input.params());
    return c.json(await chat.messages(c.get('caller'), ref, input.query()));
  });

  handle(app, SEND, async (c, input) => {
    const ref = conversationRef(input.params());
    const turn = await chat.send(c.get('caller'), ref, await input.body());
    return uiMessageStream(turn.watch(), { 'x-request-id': c.get('requestId') });
  });

  handle(app, WATCH, async (c, input) => {
    const stream = await chat.watch(c.get('caller'), conversationRef(input.params()));
    return stream ? uiMessageStream(stream) : c.body(null, 204);
  });

  handle(app, STOP, async (c, input) => c.json(await chat.stop(c.get('caller'), conversationRef(input.params()))));
  handle(app, END, async (c, input) => c.json(await chat.end(c.get('caller'), conversationRef(input.params()))));
}
