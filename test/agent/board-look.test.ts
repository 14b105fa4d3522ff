import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { acceptsImages, asksToLook } from '../../src/agent/board-look.js';
import { CanvasNode } from '../../src/contract/index.js';
import { MAX_BYTES, MAX_EDGE } from '../../src/render/rasterise.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { scripted } from '../support/model-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { newConversation, readTurn, send, startChatStage } from './chat-support.js';

/**
 * The assistant looks at the board: when the person asks it to look and the model takes pictures, the request carries
 * the board picture as an image part of their message (the stand-in records what it was sent); a message that does not
 * ask to look carries none.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

type Block = { type: string; source?: { type: string; media_type: string; data: string } };

const lastUserBlocks = (raw: Record<string, unknown>): Block[] => {
  const messages = raw.messages as Array<{ role: string; content: string | Block[] }>;
  const user = messages.filter((message) => message.role === 'user').at(-1)!;
  return typeof user.content === 'string' ? [{ type: 'text' }] : user.content;
};

describe('the assistant looks at the board', () => {
  it('knows when a message asks to look, and which models take pictures', () => {
    for (const text of [
      'look at the board',
      'Compare shot 2 and shot 3',
      'does it match the script?',
      'which shots break continuity?',
      'the layout is messy',
    ])
      expect(asksToLook(text), text).toBe(true);
    for (const text of ['add a note saying hello', 'run frame 1', 'delete the empty group'])
      expect(asksToLook(text), text).toBe(false);
    expect(acceptsImages({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' })).toBe(true);
    expect(acceptsImages({ provider: 'openai', modelId: 'gpt-4.1' })).toBe(true);
    expect(acceptsImages({ provider: 'openai-compatible', modelId: 'llama3.1:8b' })).toBe(false);
    expect(acceptsImages({ provider: 'openai-compatible', modelId: 'qwen2.5-vl:7b' })).toBe(true);
  });

  it('attaches the board picture when the person writes "look at the board", and not otherwise', async () => {
    const stage = await startChatStage(
      sqlite,
      'anthropic',
      scripted({ text: 'Shot 3 breaks it.' }, { text: 'Added.' }),
    );
    try {
      const { store } = stage.server;
      const revision = (await store.layout.readCanvas('p', 'c'))!.revision;
      await store.writes.applyBatch(
        { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
        [
          CanvasNode.parse({
            id: 'board',
            type: 'storyboardNode',
            position: { x: 0, y: 0 },
            data: {
              displayName: 'Opening',
              frames: Array.from({ length: 6 }, (_, index) => ({
                id: `s${index}`,
                imageUrl: null,
                caption: `Shot ${index + 1}`,
              })),
            },
          }),
        ].map((node) => ({ op: 'create_node' as const, node })),
      );
      const chat = await newConversation(stage);
      const { message } = await readTurn(
        await send(stage, chat.conversation_id, {
          message: { id: 'u1', text: 'Look at the board: which shots break continuity?' },
        }),
      );
      expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Shot 3 breaks it.' });
      const looked = lastUserBlocks(stage.model.requests[0]!.raw);
      const image = looked.find((block) => block.type === 'image');
      expect(image?.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
      const bytes = Buffer.from(image!.source!.data, 'base64');
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format).toBe('png');
      expect(Math.max(metadata.width!, metadata.height!)).toBeLessThanOrEqual(MAX_EDGE);
      expect(bytes.length).toBeLessThanOrEqual(MAX_BYTES);

      await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u2', text: 'add a note saying hello' } }),
      );
      const plain = lastUserBlocks(stage.model.requests.at(-1)!.raw);
      expect(plain.some((block) => block.type === 'image')).toBe(false);
      // The transcript keeps the person's words only: the picture is not stored with the conversation.
      const transcript = await store.chats.transcript(chat.conversation_id);
      expect(JSON.stringify(transcript)).not.toContain('base64');
    } finally {
      await stage.close();
    }
  }, 60_000);
});
