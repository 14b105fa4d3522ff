import type { Hono } from 'hono';
import { createUIMessageStreamResponse } from 'ai';
import {
  CanvasId,
  ChatMessagesQuery,
  ChatSendBody,
  ConversationCreateBody,
  ProjectId,
  ResourceId,
} from '../../contract/index.js';
import { parseOrThrow } from '../../shared/errors.js';
import type { ChatService } from '../../agent/chat-service.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * The canvas chat's routes (docs/chat.md, docs/api.md): conversations of a canvas, their transcripts, and a turn as
 * it streams, in the AI SDK's UI message stream format (Server-Sent Events), which the web canvas reads with useChat.
 */

const CANVAS = '/api/v2/projects/:project_id/canvases/:canvas_id';
const CONVERSATIONS = `${CANVAS}/conversations`;
const CONVERSATION = `${CONVERSATIONS}/:conversation_id`;
const canvasParams = { project_id: ProjectId, canvas_id: CanvasId };

function canvasRef(c: BackendContext) {
  const params = pathParams(c, canvasParams);
  return { projectId: params.project_id, canvasId: params.canvas_id };
}

function conversationRef(c: BackendContext) {
  const params = pathParams(c, { ...canvasParams, conversation_id: ResourceId });
  return { projectId: params.project_id, canvasId: params.canvas_id, conversationId: params.conversation_id };
}

export function registerChatRoutes(app: Hono<BackendHttpEnv>, chat: ChatService): void {
  app.get('/api/v1/chat/model', (c) => c.json(chat.modelStatus()));

  app.get(CONVERSATIONS, async (c) => c.json({ conversations: await chat.list(c.get('caller'), canvasRef(c)) }));

  app.post(CONVERSATIONS, async (c) => {
    const ref = canvasRef(c);
    const body = await jsonBody(c, ConversationCreateBody);
    return c.json(await chat.create(c.get('caller'), ref, body.title), 201);
  });

  app.get(CONVERSATION, async (c) => c.json(await chat.get(c.get('caller'), conversationRef(c))));

  app.delete(CONVERSATION, async (c) => {
    await chat.remove(c.get('caller'), conversationRef(c));
    return c.body(null, 204);
  });

  app.get(`${CONVERSATION}/messages`, async (c) => {
    const ref = conversationRef(c);
    return c.json(await chat.messages(c.get('caller'), ref, parseOrThrow(ChatMessagesQuery, c.req.query())));
  });

  app.post(`${CONVERSATION}/messages`, async (c) => {
    const ref = conversationRef(c);
    const turn = await chat.send(c.get('caller'), ref, await jsonBody(c, ChatSendBody));
    return createUIMessageStreamResponse({ stream: turn.watch(), headers: { 'x-request-id': c.get('requestId') } });
  });

  app.get(`${CONVERSATION}/stream`, async (c) => {
    const stream = await chat.watch(c.get('caller'), conversationRef(c));
    return stream ? createUIMessageStreamResponse({ stream }) : c.body(null, 204);
  });

  app.post(`${CONVERSATION}/stop`, async (c) => c.json(await chat.stop(c.get('caller'), conversationRef(c))));
  app.post(`${CONVERSATION}/end`, async (c) => c.json(await chat.end(c.get('caller'), conversationRef(c))));
}

export const CHAT_ROUTE_PATHS = [
  '/api/v1/chat/model',
  CONVERSATIONS,
  CONVERSATION,
  `${CONVERSATION}/messages`,
  `${CONVERSATION}/stream`,
  `${CONVERSATION}/stop`,
  `${CONVERSATION}/end`,
];
