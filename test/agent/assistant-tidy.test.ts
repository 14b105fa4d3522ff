import { describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { scripted } from '../support/model-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { newConversation, readTurn, send, startChatStage } from './chat-support.js';

/**
 * The assistant tidies a messy board: asked to, it calls tidy_canvas, and the cards piled on each other are laid out as
 * one revision in which no two overlap.
 */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('the assistant tidies', () => {
  it('lays out a pile of cards with tidy_canvas, as one revision, none overlapping', async () => {
    const stage = await startChatStage(sqlite, 'openai');
    try {
      const { store } = stage.server;
      const start = (await store.layout.readCanvas('p', 'c'))!.revision;
      await store.writes.applyBatch(
        { projectId: 'p', canvasId: 'c', baseRevision: start, clientSaveId: null, authorization: SYSTEM_WRITE },
        ['a', 'b', 'c', 'd'].map((letter, index) => ({
          op: 'create_node' as const,
          node: CanvasNode.parse({
            id: `pile-${letter}`,
            type: 'textAnnotationNode',
            position: { x: 10 * index, y: 8 * index },
            data: { content: letter },
          }),
        })),
      );
      stage.model.setBrain(
        scripted(
          {
            toolCalls: [
              {
                name: 'tidy_canvas',
                args: { project_id: 'p', canvas_id: 'c', base_revision: start + 1, client_save_id: null, mode: 'grid' },
              },
            ],
          },
          { text: 'Tidied.' },
        ),
      );
      const chat = await newConversation(stage);
      const { message } = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'The canvas is messy: tidy it.' } }),
      );
      expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Tidied.' });
      expect(stage.model.requests[0]!.tools).toContain('tidy_canvas');
      const canvas = (await store.layout.loadLayout('p', 'c'))!;
      expect(canvas.canvas.revision).toBe(start + 2);
      const boxes = canvas.nodes
        .map((row) => CanvasNode.parse(JSON.parse(row.body)))
        .filter((node) => node.id.startsWith('pile-'))
        .map((node) => ({ x: node.position.x, y: node.position.y }));
      for (const [index, box] of boxes.entries())
        for (const other of boxes.slice(index + 1))
          expect(Math.abs(box.x - other.x) >= 280 || Math.abs(box.y - other.y) >= 200).toBe(true);
    } finally {
      await stage.close();
    }
  });
});
