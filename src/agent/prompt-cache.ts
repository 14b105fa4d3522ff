import type { LanguageModel, ModelMessage, SystemModelMessage } from 'ai';

/**
 * Fewer tokens per step (docs/chat.md, "Prompt caching"): each step of a turn sends the model the tools, the system
 * prompt and the conversation again. Anthropic caches a prompt's prefix up to a marked block (cache_control) and bills
 * a cached read at a tenth; OpenAI caches prefixes by itself. So for Anthropic the system prompt is marked (tools and
 * prompt: the part every turn shares), and on each step the newest message is marked too (the conversation so far: the
 * part the next step shares), two of the four marks a request may carry. Everything before the marks is byte-stable:
 * the prompt has no clock or revision in it (where the person is rides on their message), and tools come in the
 * server's order. Other providers get the same request without marks.
 */

const MARK = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

function isAnthropic(model: LanguageModel): boolean {
  return typeof model !== 'string' && model.provider.startsWith('anthropic');
}

/** The system prompt, marked as a cache prefix where the provider caches on marks. */
export function cachedSystem(model: LanguageModel, system: string): string | SystemModelMessage {
  return isAnthropic(model) ? { role: 'system', content: system, providerOptions: MARK } : system;
}

/** A step's messages with the newest one marked, so the next step reads all before it from the cache. */
export function markNewest(model: LanguageModel, messages: ModelMessage[]): ModelMessage[] {
  if (!isAnthropic(model) || messages.length === 0) return messages;
  const newest = messages.at(-1)!;
  return [
    ...messages.slice(0, -1),
    { ...newest, providerOptions: { ...newest.providerOptions, ...MARK } } as ModelMessage,
  ];
}
