import type { ModelMessage } from 'ai';
import { ChatContext, type CanvasRef, type StoredChatMessage } from '../contract/index.js';
import { boardImageUri } from '../shared/canvas-resource-uri.js';
import type { ChatModel } from './model.js';

/**
 * The assistant looks at the board (docs/chat.md, "When the assistant looks at the board"): when
 * the person's message asks it to look ("look at", "compare", "does it match", "continuity", "messy") and the model
 * takes pictures, the turn reads the board picture (canvas://…/board.png, over its own MCP connection with the turn's
 * rights) and attaches it to that message as an image part. Nothing is attached otherwise: a picture costs the
 * model about 1,600 input tokens.
 */

const ASKS_TO_LOOK =
  /\b(look(?:s|ing)?\s+(?:at|like)|take\s+a\s+look|have\s+a\s+look|see\s+(?:the|my|this|how)|compar(?:e|es|ing)|match(?:es|ing)?|continuity|consistent|messy|cluttered)\b/i;

export function asksToLook(text: string): boolean {
  return ASKS_TO_LOOK.test(text);
}

/** Model ids of OpenAI-compatible servers known to take pictures (Ollama's and vLLM's vision models, OpenRouter's). */
const VISION_MODEL_ID =
  /(vision|[-_.]vl\b|vl[-_:]|llava|gpt-4o|gpt-4\.1|gpt-5|claude|gemini|gemma-?3|pixtral|minicpm-v|qwen2\.5-vl)/i;

/**
 * Whether the configured model takes pictures: Anthropic's (every current Claude does) and OpenAI's models; an
 * OpenAI-compatible server's only when its model id names a vision model (a text-only model refuses an image part).
 */
export function acceptsImages(model: Pick<ChatModel, 'provider' | 'modelId'>): boolean {
  if (model.provider === 'anthropic' || model.provider === 'openai') return true;
  return VISION_MODEL_ID.test(model.modelId);
}

/**
 * The picture to attach to the person's new message, or null: the canvas, or the one node they selected (a storyboard
 * draws as its contact sheet, a group with what it holds).
 */
export function boardToLookAt(
  model: Pick<ChatModel, 'provider' | 'modelId'>,
  canvas: CanvasRef,
  history: readonly StoredChatMessage[],
  asked: string | null,
): string | null {
  const last = history.at(-1);
  if (!asked || last?.role !== 'user' || !acceptsImages(model) || !asksToLook(asked)) return null;
  const context = ChatContext.safeParse((last.metadata as { context?: unknown } | undefined)?.context);
  const selected = context.success && context.data.selection.length === 1 ? context.data.selection[0] : undefined;
  const uri = boardImageUri(canvas.projectId, canvas.canvasId);
  return selected ? `${uri}?node_id=${encodeURIComponent(selected)}` : uri;
}

/** The messages with the picture added to the last user message, as a file part. */
export function withBoardImage(messages: ModelMessage[], image: { data: string; mediaType: string }): ModelMessage[] {
  const index = messages.findLastIndex((message) => message.role === 'user');
  if (index < 0) return messages;
  const message = messages[index]!;
  if (message.role !== 'user') return messages;
  const content =
    typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
  const next: ModelMessage = {
    ...message,
    content: [
      ...content,
      { type: 'text', text: 'The board as it looks now (attached because the message asks to look at it):' },
      { type: 'file', mediaType: image.mediaType, data: image.data },
    ],
  };
  return [...messages.slice(0, index), next, ...messages.slice(index + 1)];
}

/** The messages with the board picture read from `uri` attached; as they were when it cannot be read. */
export async function attachBoardImage(
  client: { readResource(args: { uri: string }): Promise<{ contents: ReadonlyArray<Record<string, unknown>> }> },
  uri: string,
  messages: ModelMessage[],
): Promise<ModelMessage[]> {
  try {
    const content = (await client.readResource({ uri })).contents[0];
    if (typeof content?.blob !== 'string') return messages;
    const mediaType = typeof content.mimeType === 'string' ? content.mimeType : 'image/png';
    return withBoardImage(messages, { data: content.blob, mediaType });
  } catch {
    // A picture that cannot be drawn is no reason to fail the turn: the model reads the canvas with its tools.
    return messages;
  }
}
