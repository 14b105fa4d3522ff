import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the model providers, speaking their documented streaming wire protocols: OpenAI Chat
 * Completions (`POST /v1/chat/completions`, SSE `chat.completion.chunk`s with `tool_calls` deltas) and Anthropic
 * Messages (`POST /v1/messages`, SSE `message_start` … `content_block_delta` with `input_json_delta` … `message_stop`).
 * The real AI SDK provider packages talk to it; no code of ours is stubbed. Each test scripts the model's turns with
 * a brain: given the conversation so far (normalized from either protocol), what the model answers next.
 */

export type Protocol = 'openai' | 'anthropic';

export interface StandinToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** One message of the request, the same whichever protocol carried it. */
export interface StandinMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  toolCalls: StandinToolCall[];
  /** On a tool message: the call it answers and the result's text. */
  toolCallId?: string;
}

export interface StandinRequest {
  protocol: Protocol;
  model: string;
  system: string;
  messages: StandinMessage[];
  /** Names of the tools offered. */
  tools: string[];
  /** The last tool result's text, parsed as JSON when it is JSON (what most scripts read). */
  lastToolResult: unknown;
  raw: Record<string, unknown>;
}

export type ModelAnswer =
  | { text: string; chunkDelayMs?: number }
  | { toolCalls: Array<{ name: string; args: Record<string, unknown> }>; text?: string }
  | { fail: number; retryAfterSeconds?: number }
  /** Starts a tool call, then cuts the connection: a stream broken mid-answer. */
  | { cutMidToolCall: string }
  /** Starts to answer, then goes silent (until `release()` or the client gives up). */
  | { stall: true };

export type Brain = (request: StandinRequest) => ModelAnswer | Promise<ModelAnswer>;

export interface ModelStandin {
  baseUrl: string;
  protocol: Protocol;
  requests: StandinRequest[];
  /** When each answer's first content chunk (text or tool call) was written, in performance.now() time. */
  firstChunkAt: number[];
  setBrain(brain: Brain): void;
  /** Whether a streamed OpenAI-style answer ends with its usage (some compatible servers send none). */
  reportsUsage: boolean;
  close(): Promise<void>;
}

/** A brain that answers from a list, one answer per request, then repeats the last. */
export function scripted(...answers: Array<ModelAnswer | ((request: StandinRequest) => ModelAnswer)>): Brain {
  let index = 0;
  return (request) => {
    const answer = answers[Math.min(index, answers.length - 1)]!;
    index += 1;
    return typeof answer === 'function' ? answer(request) : answer;
  };
}

function parseMaybeJson(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as unknown;
    // An MCP tool result reaches the model as its content items: the JSON is the first text item's text.
    if (Array.isArray(parsed) && parsed.every((item) => (item as { type?: unknown }).type === 'text')) {
      return parseMaybeJson(parsed.map((item) => (item as { text: string }).text).join(''));
    }
    return parsed;
  } catch {
    return text;
  }
}

/** The text of a tool result as the model would see it: MCP results arrive as their content text. */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((item) => (typeof item === 'string' ? item : ((item as { text?: string }).text ?? ''))).join('');
  return JSON.stringify(content);
}

function normalizeOpenAI(body: Record<string, unknown>): Omit<StandinRequest, 'lastToolResult' | 'raw'> {
  const messages: StandinMessage[] = ((body.messages ?? []) as Array<Record<string, unknown>>).map((message) => {
    const role = message.role as StandinMessage['role'];
    const content = typeof message.content === 'string' ? message.content : toolResultText(message.content ?? '');
    const toolCalls = (
      (message.tool_calls ?? []) as Array<{ id: string; function: { name: string; arguments: string } }>
    ).map((call) => ({
      id: call.id,
      name: call.function.name,
      args: JSON.parse(call.function.arguments || '{}') as Record<string, unknown>,
    }));
    return {
      role,
      text: content,
      toolCalls,
      ...(role === 'tool' ? { toolCallId: message.tool_call_id as string } : {}),
    };
  });
  const system = messages
    .filter((message) => message.role === 'system')
    .map((message) => message.text)
    .join('\n');
  const tools = ((body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
  return {
    protocol: 'openai',
    model: String(body.model),
    system,
    messages: messages.filter((message) => message.role !== 'system'),
    tools,
  };
}

function normalizeAnthropic(body: Record<string, unknown>): Omit<StandinRequest, 'lastToolResult' | 'raw'> {
  const messages: StandinMessage[] = [];
  for (const message of (body.messages ?? []) as Array<{ role: 'user' | 'assistant'; content: unknown }>) {
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (message.content as Array<Record<string, unknown>>);
    const text = blocks
      .filter((block) => block.type === 'text')
      .map((block) => String(block.text))
      .join('');
    const toolCalls = blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({
        id: String(block.id),
        name: String(block.name),
        args: block.input as Record<string, unknown>,
      }));
    for (const result of blocks.filter((block) => block.type === 'tool_result')) {
      messages.push({
        role: 'tool',
        text: toolResultText(result.content),
        toolCalls: [],
        toolCallId: String(result.tool_use_id),
      });
    }
    if (text || toolCalls.length > 0 || !blocks.some((block) => block.type === 'tool_result'))
      messages.push({ role: message.role, text, toolCalls });
  }
  const system = Array.isArray(body.system)
    ? (body.system as Array<{ text: string }>).map((block) => block.text).join('\n')
    : String(body.system ?? '');
  const tools = ((body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
  return { protocol: 'anthropic', model: String(body.model), system, messages, tools };
}

const sse = (res: ServerResponse, data: unknown, event?: string) =>
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);

function splitText(text: string): string[] {
  const words = text.split(/(?<= )/);
  return words.length > 0 ? words : [text];
}

export async function startModelStandin(
  protocol: Protocol,
  initial: Brain = scripted({ text: 'Done.' }),
): Promise<ModelStandin> {
  let brain = initial;
  const requests: StandinRequest[] = [];
  const firstChunkAt: number[] = [];
  const stalled = new Set<ServerResponse>();
  let callCounter = 0;
  const standin: ModelStandin = {
    baseUrl: '',
    protocol,
    requests,
    firstChunkAt,
    setBrain(next) {
      brain = next;
    },
    reportsUsage: true,
    close: async () => undefined,
  };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const path = req.url ?? '';
    const expected = protocol === 'openai' ? /\/chat\/completions$/ : /\/messages$/;
    if (req.method !== 'POST' || !expected.test(path)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `stand-in: no route ${req.method} ${path}` } }));
      return;
    }
    const normalized = protocol === 'openai' ? normalizeOpenAI(raw) : normalizeAnthropic(raw);
    const lastTool = [...normalized.messages].reverse().find((message) => message.role === 'tool');
    const request: StandinRequest = {
      ...normalized,
      lastToolResult: lastTool ? parseMaybeJson(lastTool.text) : undefined,
      raw,
    };
    requests.push(request);
    const reply = await brain(request);

    if ('fail' in reply) {
      res.writeHead(reply.fail, {
        'content-type': 'application/json',
        ...(reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {}),
      });
      const type = reply.fail === 429 ? 'rate_limit_error' : reply.fail === 401 ? 'authentication_error' : 'api_error';
      res.end(
        JSON.stringify(
          protocol === 'openai'
            ? { error: { message: `stand-in ${reply.fail}`, type, code: null } }
            : { type: 'error', error: { type, message: `stand-in ${reply.fail}` } },
        ),
      );
      return;
    }
    const toolCalls =
      'toolCalls' in reply ? reply.toolCalls.map((call) => ({ ...call, id: `call_${++callCounter}` })) : [];
    const text = 'text' in reply ? (reply.text ?? '') : '';
    if (raw.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          protocol === 'openai' ? openAICompletion(raw, text, toolCalls) : anthropicMessage(text, toolCalls),
        ),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const noteFirst = () => {
      if (firstChunkAt.length < requests.length) firstChunkAt.push(performance.now());
    };
    if (protocol === 'openai')
      await streamOpenAI(res, raw, reply, text, toolCalls, noteFirst, stalled, standin.reportsUsage);
    else await streamAnthropic(res, reply, text, toolCalls, noteFirst, stalled);
  }

  const server: Server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  standin.baseUrl = `http://127.0.0.1:${port}/v1`;
  standin.close = async () => {
    for (const res of stalled) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return standin;
}

/** A whole answer at once (a request without `stream: true`, as generateText sends). */
function openAICompletion(raw: Record<string, unknown>, text: string, toolCalls: StandinToolCall[]) {
  const message = {
    role: 'assistant',
    content: text || null,
    ...(toolCalls.length > 0
      ? {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        }
      : {}),
  };
  return {
    id: `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: String(raw.model),
    choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
  };
}

function anthropicMessage(text: string, toolCalls: StandinToolCall[]) {
  return {
    id: `msg_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model: 'standin',
    content: [
      ...(text ? [{ type: 'text', text }] : []),
      ...toolCalls.map((call) => ({
        type: 'tool_use',
        id: call.id.replace('call_', 'toolu_'),
        name: call.name,
        input: call.args,
      })),
    ],
    stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 120, output_tokens: 30 },
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function streamOpenAI(
  res: ServerResponse,
  raw: Record<string, unknown>,
  reply: ModelAnswer,
  text: string,
  toolCalls: StandinToolCall[],
  noteFirst: () => void,
  stalled: Set<ServerResponse>,
  reportsUsage: boolean,
): Promise<void> {
  const base = {
    id: `chatcmpl-${Date.now()}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: String(raw.model),
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse(res, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  if ('stall' in reply) {
    noteFirst();
    chunk({ role: 'assistant', content: 'Thinking' });
    stalled.add(res);
    return;
  }
  if ('cutMidToolCall' in reply) {
    noteFirst();
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [
        { index: 0, id: 'call_cut', type: 'function', function: { name: reply.cutMidToolCall, arguments: '' } },
      ],
    });
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"project_id":' } }] });
    await pause(20);
    res.destroy();
    return;
  }
  if (text) {
    noteFirst();
    chunk({ role: 'assistant', content: '' });
    for (const piece of splitText(text)) {
      chunk({ content: piece });
      if ('chunkDelayMs' in reply && reply.chunkDelayMs) await pause(reply.chunkDelayMs);
    }
  }
  for (const [index, call] of toolCalls.entries()) {
    noteFirst();
    chunk({
      ...(index === 0 && !text ? { role: 'assistant', content: null } : {}),
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    const args = JSON.stringify(call.args);
    for (let at = 0; at < args.length; at += 64)
      chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 64) } }] });
  }
  chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop');
  if (reportsUsage)
    sse(res, { ...base, choices: [], usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 } });
  res.end('data: [DONE]\n\n');
}

async function streamAnthropic(
  res: ServerResponse,
  reply: ModelAnswer,
  text: string,
  toolCalls: StandinToolCall[],
  noteFirst: () => void,
  stalled: Set<ServerResponse>,
): Promise<void> {
  const event = (type: string, data: Record<string, unknown>) => sse(res, { type, ...data }, type);
  event('message_start', {
    message: {
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model: 'standin',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 120, output_tokens: 1 },
    },
  });
  let index = 0;
  if ('stall' in reply) {
    noteFirst();
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    event('content_block_delta', { index, delta: { type: 'text_delta', text: 'Thinking' } });
    stalled.add(res);
    return;
  }
  if ('cutMidToolCall' in reply) {
    noteFirst();
    event('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: 'toolu_cut', name: reply.cutMidToolCall, input: {} },
    });
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '{"project_id":' } });
    await pause(20);
    res.destroy();
    return;
  }
  if (text) {
    noteFirst();
    event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of splitText(text)) {
      event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      if ('chunkDelayMs' in reply && reply.chunkDelayMs) await pause(reply.chunkDelayMs);
    }
    event('content_block_stop', { index });
    index += 1;
  }
  for (const call of toolCalls) {
    noteFirst();
    event('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id.replace('call_', 'toolu_'), name: call.name, input: {} },
    });
    const args = JSON.stringify(call.args);
    for (let at = 0; at < args.length; at += 64)
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: args.slice(at, at + 64) },
      });
    event('content_block_stop', { index });
    index += 1;
  }
  event('message_delta', {
    delta: { stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 30 },
  });
  event('message_stop', {});
  res.end();
}
