import { describe, expect, it } from 'vitest';
import type { CanvasNode, LayoutOperation } from '../../src/contract/index.js';
import { createCanvasController } from '../src/model/canvas-store.js';
import { memoryCanvas } from './support/memory-canvas.js';

/**
 * Undo against a server whose answers come late: the feed can show a person's change before the answer to their own
 * request reaches the page, and the answer is what puts the change on the undo list. A person who presses Ctrl+Z as
 * soon as the card disappears must get it back, not "Nothing of yours to undo" (seen in Chromium on a busy machine).
 */

const note: CanvasNode = {
  id: 'note',
  type: 'textAnnotationNode',
  position: { x: 0, y: 0 },
  data: { content: 'Keep the lamp warm' },
} as CanvasNode;

/** A server in memory whose answers to writes wait until `answer()`; the feed tells the page at once. */
function slowServer() {
  const canvas = memoryCanvas({ revision: 1, nodes: [note], edges: [] });
  const sent: LayoutOperation[][] = [];
  const waiting: Array<() => void> = [];
  const apply = (operations: LayoutOperation[]) => {
    let nodes = canvas.layout.nodes;
    for (const operation of operations) {
      if (operation.op === 'delete_node') nodes = nodes.filter((node) => node.id !== operation.node_id);
      if (operation.op === 'create_node') nodes = [...nodes, operation.node];
    }
    canvas.layout = { revision: canvas.layout.revision + 1, nodes, edges: [] };
  };
  const transport = canvas.transport((_base, operations) => {
    sent.push(operations);
    apply(operations);
    canvas.tell();
    const revision = canvas.layout.revision;
    return new Promise<{ revision: number }>((resolve) => waiting.push(() => resolve({ revision })));
  });
  return {
    transport,
    sent,
    /** Lets every write waiting for its answer have it. */
    answer: () => waiting.splice(0).forEach((resolve) => resolve()),
    waitingAnswers: () => waiting.length,
  };
}

describe('undo while the answer to the change is still on its way', () => {
  it('undoes a delete whose card the feed already took away, once its answer comes', async () => {
    const server = slowServer();
    const controller = createCanvasController({ projectId: 'demo', canvasId: 'main' }, { transport: server.transport });
    await controller.load();

    const deleting = controller.submit({ label: 'Delete', build: () => [{ op: 'delete_node', node_id: 'note' }] });
    // The feed already shows the card gone; the page has no answer yet, so nothing is on its undo list.
    expect(controller.store.getState().layout.nodes).toEqual([]);
    expect(controller.store.getState().undo).toEqual([]);

    const undoing = controller.undoLast();
    server.answer();
    expect(await deleting).toBe(true);
    // The undo's own write waits for its answer like any other.
    await expect.poll(() => server.waitingAnswers()).toBe(1);
    server.answer();
    await undoing;

    expect(server.sent.at(-1)).toEqual([{ op: 'create_node', node: note }]);
    expect(controller.store.getState().layout.nodes).toEqual([note]);
    const notices = controller.store.getState().notices.map((notice) => notice.text);
    expect(notices).toContain('Undone: delete.');
    expect(notices).not.toContain('Nothing of yours to undo.');
    controller.close();
  });
});
