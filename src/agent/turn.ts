import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import {
  convertToModelMessages,
  createUIMessageStream,
  stepCountIs,
  streamText,
  type LanguageModel,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { ChatContext, type CanvasRef, type StoredChatMessage } from '../contract/index.js';
import { newId } from '../shared/ids.js';
import { attachBoardImage } from './board-look.js';
import { describeModelFailure } from './model-errors.js';
import { contextNote } from './system-prompt.js';
import { cachedSystem, markNewest } from './prompt-cache.js';

/**
 * One turn of the canvas chat's agent: an MCP client of this server's own /mcp/ (the AI SDK's, over Streamable HTTP)
 * with the turn's token and the conversation's chat run in X-Agent-Run-Id, and the model looping over its tools
 * (streamText) until it answers, hits the step limit, asks for an approval, is stopped, or fails. Every write goes
 * through the same checks as an external agent's: there is no in-process shortcut (docs/chat.md).
 */

/** The tools the chat's agent may use; run submission only with the person's approval (needsApproval). */
const READ_TOOLS = new Set(['list_zone_skills', 'get_canvas', 'get_canvas_node_run']);
const WRITE_TOOLS = new Set([
  'create_canvas_node',
  'delete_canvas_node',
  'create_canvas_edge',
  // Beyond the six: changing a shot's fields or order is an update of its board.
  'apply_canvas_changes',
  // Laying out a messy board: one revision of positions, like the page's Tidy.
  'tidy_canvas',
  'cancel_canvas_node_run',
]);
export const APPROVED_TOOL = 'submit_canvas_node_run';

export interface TurnInput {
  model: LanguageModel;
  /** This server's own MCP endpoint, as an external client reaches it. */
  mcpUrl: string;
  /** How to reach it (over https, a fetch that trusts this server's own certificate); default: the global fetch. */
  mcpFetch?: typeof fetch | undefined;
  /** The bearer token minted for this turn, and the conversation's chat run. */
  token: string;
  chatRunId: string;
  canEdit: boolean;
  /** The conversation's canvas: a read of another one is shown to the person in the turn. */
  canvas: CanvasRef;
  system: string;
  /** The transcript: the new user message last, or the assistant message an approval continues. */
  history: StoredChatMessage[];
  maxSteps: number;
  signal: AbortSignal;
  /** Longest silence from the model mid-answer before the turn fails. */
  chunkTimeoutMs: number;
  /** A board picture to attach to the person's message (board-look.ts), read over the turn's own MCP connection. */
  lookAt?: string | null;
}

export interface TurnResult {
  /** The assistant's message as it stands at the end (a continuation keeps its id). */
  message: StoredChatMessage | null;
  tokens: number;
  /** Whether some step's tokens are an estimate (its provider reported no usage). */
  estimated: boolean;
  outcome: 'completed' | 'awaiting_approval' | 'stopped' | 'failed';
  error: string | null;
}

/** What the model is given of a message: the person's whereabouts ride with their message (system-prompt.ts). */
function forModel(history: StoredChatMessage[]): UIMessage[] {
  return history.map((message) => {
    const context = ChatContext.safeParse((message.metadata as { context?: unknown } | undefined)?.context);
    const note = message.role === 'user' && context.success ? contextNote(context.data) : null;
    return (note ? { ...message, parts: [{ type: 'text', text: note }, ...message.parts] } : message) as UIMessage;
  });
}

function toolsFor(listed: ToolSet, canEdit: boolean): ToolSet {
  const tools: ToolSet = {};
  for (const [name, tool] of Object.entries(listed)) {
    if (READ_TOOLS.has(name) || (canEdit && WRITE_TOOLS.has(name))) tools[name] = tool;
    // Spending needs the person: the turn stops at an approval request, and nothing runs before Approve.
    if (canEdit && name === APPROVED_TOOL) tools[name] = { ...tool, needsApproval: true };
  }
  return tools;
}

const textOf = (content: unknown) =>
  Array.isArray(content)
    ? content
        .map((item) => (item as { text?: unknown }).text)
        .filter((text) => typeof text === 'string')
        .join('\n')
    : '';

/**
 * A tool result as the transcript keeps it: a canvas read becomes its revision and size (it is out of date by the
 * next turn, and a 1,000-node canvas is half a megabyte); everything else keeps its structured result.
 */
export function compactToolOutput(toolName: string, output: unknown): unknown {
  const result = (output ?? {}) as {
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    content?: unknown;
  };
  const structured = result.structuredContent;
  if (result.isError)
    return { isError: true, error: structured?.error ?? { message: textOf(result.content).slice(0, 2000) } };
  if (toolName === 'get_canvas' && structured) {
    const layout = (structured.layout ?? {}) as { revision?: number; nodes?: unknown[] };
    return {
      revision: layout.revision,
      node_count: layout.nodes?.length ?? 0,
      note: 'A read of the canvas at that revision; read it again before writing.',
    };
  }
  if (toolName === 'list_zone_skills' && structured) {
    const skills = (structured.skills ?? []) as Array<{ skill_id?: string }>;
    return {
      skill_ids: skills.map((skill) => skill.skill_id),
      note: 'The skill catalog; list it again for the parameter schemas.',
    };
  }
  return structured ?? { text: textOf(result.content).slice(0, 2000) };
}

/**
 * Keeps the transcript (and what observers receive) small: tool outputs compacted as they stream by. And says, in the
 * turn, when the assistant reads a canvas other than the conversation's, and when it writes after such a read (what it
 * writes may copy what it read there), as docs/security.md, "The canvas chat's agent", describes.
 */
function compactOutputs(own: CanvasRef): TransformStream<UIMessageChunk, UIMessageChunk> {
  const names = new Map<string, string>();
  /** Canvases other than the conversation's that the turn has read, and the calls that named one. */
  const others = new Map<string, { project_id: string; canvas_id: string }>();
  const elsewhere = new Map<string, { project_id: string; canvas_id: string }>();
  return new TransformStream({
    transform(chunk, controller) {
      // The arguments as they stream in are of use to no one watching: each call shows once its input is whole.
      if (chunk.type === 'tool-input-delta') return;
      if (chunk.type === 'tool-input-start' || chunk.type === 'tool-input-available') {
        names.set(chunk.toolCallId, chunk.toolName);
        // The MCP client's metadata (its name, the tool's annotations) says nothing a person or a later turn needs.
        const { toolMetadata: _metadata, ...rest } = chunk;
        controller.enqueue(rest);
        if (chunk.type === 'tool-input-available') {
          const target = canvasOf(chunk.input);
          if (target && (target.project_id !== own.projectId || target.canvas_id !== own.canvasId))
            elsewhere.set(chunk.toolCallId, target);
          else if (others.size > 0 && WRITE_TOOLS.has(chunk.toolName)) {
            controller.enqueue({
              type: 'data-cross-canvas-write',
              data: { tool: chunk.toolName, read_from: [...others.values()] },
            });
          }
        }
        return;
      }
      if (chunk.type === 'tool-output-available') {
        const { toolMetadata: _metadata, ...rest } = chunk;
        const output = compactToolOutput(names.get(chunk.toolCallId) ?? '', chunk.output);
        controller.enqueue({ ...rest, output: output as never });
        // A read of another canvas that was answered (the person named it): said in the turn.
        const target = elsewhere.get(chunk.toolCallId);
        if (target && !(output as { isError?: boolean }).isError) {
          others.set(`${target.project_id}/${target.canvas_id}`, target);
          controller.enqueue({
            type: 'data-other-canvas',
            data: { ...target, tool: names.get(chunk.toolCallId) ?? '' },
          });
        }
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/** What a step is counted as: the tokens the provider reported, or an estimate from the bytes it exchanged. */
interface StepLike {
  usage: { totalTokens?: number | undefined };
  request: { body?: unknown };
  text: string;
  toolCalls: readonly unknown[];
}

/**
 * A step's model tokens. A provider that reports no usage (some OpenAI-compatible servers) is counted from the bytes
 * sent and received, about four to a token, never as zero: spend bounds hold for every provider.
 */
export function stepTokens(step: StepLike): { tokens: number; estimated: boolean } {
  const reported = step.usage.totalTokens;
  if (typeof reported === 'number' && reported > 0) return { tokens: reported, estimated: false };
  const sent = typeof step.request.body === 'string' ? step.request.body : JSON.stringify(step.request.body ?? '');
  const received = step.text + JSON.stringify(step.toolCalls);
  return {
    tokens: Math.max(1, Math.ceil((Buffer.byteLength(sent) + Buffer.byteLength(received)) / 4)),
    estimated: true,
  };
}

function countSteps(steps: readonly StepLike[]): { tokens: number; estimated: boolean } {
  let tokens = 0;
  let estimated = false;
  for (const step of steps) {
    const counted = stepTokens(step);
    tokens += counted.tokens;
    estimated ||= counted.estimated;
  }
  return { tokens, estimated };
}

/** The canvas a tool call names, if it names one. */
function canvasOf(input: unknown): { project_id: string; canvas_id: string } | null {
  const { project_id: projectId, canvas_id: canvasId } = (input ?? {}) as Record<string, unknown>;
  return typeof projectId === 'string' && typeof canvasId === 'string'
    ? { project_id: projectId, canvas_id: canvasId }
    : null;
}

const awaitsApproval = (message: StoredChatMessage | null) =>
  !!message && message.parts.some((part) => (part as { state?: string }).state === 'approval-requested');

/**
 * Runs one turn. Answers the stream of UI message chunks (what the person and everyone watching see) and a promise
 * of how it ended, once the transcript's new state is known.
 */
export function runTurn(input: TurnInput): { chunks: ReadableStream<UIMessageChunk>; done: Promise<TurnResult> } {
  let settle!: (result: TurnResult) => void;
  const done = new Promise<TurnResult>((resolve) => {
    settle = resolve;
  });
  let spent = { tokens: 0, estimated: false };
  let failure: string | null = null;
  let mcp: MCPClient | undefined;

  const chunks = createUIMessageStream<UIMessage>({
    originalMessages: input.history as UIMessage[],
    generateId: () => newId('msg_'),
    async execute({ writer }) {
      mcp = await createMCPClient({
        transport: {
          type: 'http',
          url: input.mcpUrl,
          headers: { Authorization: `Bearer ${input.token}`, 'X-Agent-Run-Id': input.chatRunId },
          ...(input.mcpFetch ? { fetch: input.mcpFetch } : {}),
        },
        clientName: 'canvas-mcp assistant',
      });
      const tools = toolsFor(await mcp.tools(), input.canEdit);
      const messages = await convertToModelMessages(forModel(input.history), {
        tools,
        ignoreIncompleteToolCalls: true,
      });
      const result = streamText({
        model: input.model,
        system: cachedSystem(input.model, input.system),
        messages: input.lookAt ? await attachBoardImage(mcp, input.lookAt, messages) : messages,
        tools,
        stopWhen: stepCountIs(input.maxSteps),
        // The conversation so far is the next step's cached prefix (src/agent/prompt-cache.ts).
        prepareStep: ({ messages: step }) => ({ messages: markNewest(input.model, step) }),
        abortSignal: input.signal,
        maxRetries: 1,
        timeout: { chunkMs: input.chunkTimeoutMs },
        // Failures reach the person through the stream (describeModelFailure) and the log, not the console.
        onError: () => undefined,
        onFinish: (event) => {
          spent = countSteps(event.steps);
        },
        onAbort: (event) => {
          spent = countSteps(event.steps);
        },
      });
      writer.merge(
        result
          .toUIMessageStream({ sendReasoning: false, onError: (error) => (failure = describeModelFailure(error)) })
          .pipeThrough(compactOutputs(input.canvas)),
      );
      // Drains the model's stream whether or not anyone reads the chunks: a closed tab does not stop a turn.
      await result.consumeStream({ onError: (error) => void (failure ??= describeModelFailure(error)) });
    },
    onError: (error) => (failure ??= describeModelFailure(error)),
    onFinish: async ({ responseMessage, isAborted }) => {
      await mcp?.close().catch(() => undefined);
      const message = responseMessage.parts.length > 0 ? (responseMessage as StoredChatMessage) : null;
      const outcome =
        input.signal.aborted || isAborted
          ? 'stopped'
          : failure
            ? 'failed'
            : awaitsApproval(message)
              ? 'awaiting_approval'
              : 'completed';
      settle({ message, ...spent, outcome, error: failure });
    },
  });
  return { chunks, done };
}
