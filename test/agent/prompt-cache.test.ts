import { describe, expect, it } from 'vitest';
import { scripted, type ModelAnswer } from '../support/model-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { newConversation, readTurn, send, startChatStage } from './chat-support.js';

/**
 * Fewer tokens per step (docs/chat.md, "Prompt caching"), measured with the Anthropic-shaped stand-in, which records
 * what it was sent: over a ten-step turn every request marks the system prompt (tools and prompt: the turn's shared
 * prefix) and, from the second step, the newest message, so the part of each request a provider may read from its cache
 * (everything up to the last mark) is nearly all of it. Before the marks nothing was cacheable on marks.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;
const STEPS = 10;

/** Bytes of a request in the order Anthropic reads it (tools, system, messages), and how many precede the last mark. */
function measure(raw: Record<string, unknown>): { bytes: number; cachedPrefix: number; marks: number } {
  const text = JSON.stringify({ tools: raw.tools, system: raw.system, messages: raw.messages });
  const last = text.lastIndexOf('"cache_control"');
  return {
    bytes: Buffer.byteLength(text),
    cachedPrefix: last < 0 ? 0 : Buffer.byteLength(text.slice(0, last)),
    marks: text.split('"cache_control"').length - 1,
  };
}

describe('prompt caching marks', () => {
  it('marks the shared prefix of every step of a ten-step turn, so nearly all of each request is cacheable', async () => {
    const reads: ModelAnswer[] = Array.from({ length: STEPS - 1 }, () => ({
      toolCalls: [{ name: 'get_canvas', args: { project_id: 'p', canvas_id: 'c' } }],
    }));
    const stage = await startChatStage(sqlite, 'anthropic', scripted(...reads, { text: 'Read it nine times.' }));
    try {
      const chat = await newConversation(stage);
      const { message } = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'Read the canvas nine times.' } }),
      );
      expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Read it nine times.' });
      const steps = stage.model.requests.map((request) => measure(request.raw));
      expect(steps).toHaveLength(STEPS);
      // Every step marks the system prompt; from the second, the newest message too.
      const system = stage.model.requests.map((request) => JSON.stringify(request.raw.system));
      expect(system.every((text) => text.includes('"cache_control":{"type":"ephemeral"}'))).toBe(true);
      expect(steps.slice(1).every((step) => step.marks === 2)).toBe(true);
      // The byte-stable prefix: each step's request starts with the previous step's whole request (up to its mark).
      const total = steps.reduce((sum, step) => sum + step.bytes, 0);
      const cached = steps.slice(1).reduce((sum, step) => sum + step.cachedPrefix, 0);
      const share = cached / total;
      expect(share).toBeGreaterThan(0.8);
      console.log(
        `prompt caching, ${STEPS}-step turn: ${total} bytes sent (${Math.round(total / 4)} tokens at ~4 bytes each); ` +
          `${cached} bytes (${Math.round(share * 100)} %) after the first step within a marked prefix; first step ${steps[0]!.bytes} bytes, last ${steps.at(-1)!.bytes}`,
      );
    } finally {
      await stage.close();
    }
  });
});
