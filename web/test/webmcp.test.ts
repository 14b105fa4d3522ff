import { describe, expect, it } from 'vitest';
import type { CanvasNode, LayoutOperation } from '../../src/contract/index.js';
import { ApiError } from '../src/model/api.js';
import { createCanvasController } from '../src/model/canvas-store.js';
import { memoryCanvas } from './support/memory-canvas.js';
import { modelContextOf, registerCanvasTools, type WebMcpTool } from '../src/model/webmcp.js';

/**
 * The web canvas's WebMCP tools without a browser: found where each draft of the API puts them and registered the way
 * each draft takes them (taken away again when the page leaves), and a write that meets a canvas someone changed on
 * the server in the meantime refused as stale rather than merged. The browser test (test/web/webmcp.test.ts) drives
 * them in Chromium against a real server.
 */

const board: CanvasNode = {
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: { title: 'Opening', frames: [{ id: 'a', imageUrl: null, number: '1', caption: 'The bay' }] },
} as CanvasNode;

/** A server in memory: each batch is one revision (the caption of shot edits applied), and the feed tells the page. */
function server(role: 'viewer' | 'editor' = 'editor') {
  const canvas = memoryCanvas({ revision: 4, nodes: [board], edges: [] }, role);
  const sent: LayoutOperation[][] = [];
  const transport = canvas.transport(async (base, operations) => {
    if (base !== canvas.layout.revision) throw new ApiError(409, 'revision_conflict', 'The canvas changed.', {});
    sent.push(operations);
    canvas.layout = { ...canvas.layout, revision: canvas.layout.revision + 1 };
    setTimeout(() => canvas.tell());
    return { revision: canvas.layout.revision, operation: 'batch', results: [] };
  });
  return {
    transport,
    sent,
    /** Someone else's write the page has not heard of yet. */
    writeBehindThePage: () => (canvas.layout = { ...canvas.layout, revision: canvas.layout.revision + 1 }),
  };
}

async function openCanvas(role: 'viewer' | 'editor' = 'editor') {
  const backend = server(role);
  const controller = createCanvasController({ projectId: 'demo', canvasId: 'main' }, { transport: backend.transport });
  await controller.load();
  return { controller, backend };
}

/** The current draft: registerTool with an AbortSignal, answering a promise that rejects when the signal fires. */
function currentDraft() {
  const tools = new Map<string, WebMcpTool>();
  return {
    tools,
    registerTool(tool: WebMcpTool, options: { signal?: AbortSignal } = {}) {
      tools.set(tool.name, tool);
      return new Promise<void>((resolve, reject) => {
        options.signal?.addEventListener('abort', () => {
          tools.delete(tool.name);
          reject(new Error('unregistered'));
        });
        resolve();
      });
    },
  };
}

describe('where the browser offers WebMCP', () => {
  it('finds document.modelContext first, then navigator.modelContext, and nothing elsewhere', () => {
    const ours = { registerTool: () => undefined };
    const older = { provideContext: () => undefined };
    expect(modelContextOf({ modelContext: ours }, { modelContext: older })).toBe(ours);
    expect(modelContextOf({}, { modelContext: older })).toBe(older);
    expect(modelContextOf({}, {})).toBeNull();
    expect(modelContextOf({ modelContext: {} }, undefined)).toBeNull();
    expect(modelContextOf(undefined, undefined)).toBeNull();
  });
});

describe('registering the canvas tools', () => {
  it("registers the read and the writes for an editor, and a viewer's read alone; the signal takes them away", async () => {
    const { controller } = await openCanvas();
    const browser = currentDraft();
    const leave = registerCanvasTools(controller, {}, browser);
    expect([...browser.tools.keys()].sort()).toEqual([
      'add_node',
      'add_shot',
      'delete_node',
      'delete_shot',
      'read_canvas',
      'update_node',
      'update_shot',
    ]);
    expect(browser.tools.get('read_canvas')!.annotations).toEqual({ readOnlyHint: true });
    leave();
    expect(browser.tools.size).toBe(0);

    const { controller: viewer } = await openCanvas('viewer');
    const viewersBrowser = currentDraft();
    registerCanvasTools(viewer, {}, viewersBrowser);
    expect([...viewersBrowser.tools.keys()]).toEqual(['read_canvas']);
  });

  it('takes them away by handle or by name in earlier drafts, and uses provideContext where registerTool is absent', async () => {
    const { controller } = await openCanvas('viewer');
    const unregistered: string[] = [];
    registerCanvasTools(
      controller,
      {},
      {
        registerTool: (tool: WebMcpTool) => ({ unregister: () => unregistered.push(`handle:${tool.name}`) }),
      },
    )();
    registerCanvasTools(
      controller,
      {},
      {
        registerTool: () => undefined,
        unregisterTool: (name: string) => unregistered.push(`name:${name}`),
      },
    )();
    expect(unregistered).toEqual(['handle:read_canvas', 'name:read_canvas']);

    const provided: string[][] = [];
    registerCanvasTools(
      controller,
      {},
      {
        provideContext: ({ tools }: { tools: WebMcpTool[] }) => provided.push(tools.map((tool) => tool.name)),
      },
    )();
    expect(provided).toEqual([['read_canvas'], []]);
  });
});

describe('the tools', () => {
  it('reads the canvas as the page shows it, and refuses input naming the field', async () => {
    const { controller } = await openCanvas();
    const browser = currentDraft();
    registerCanvasTools(controller, {}, browser);
    const read = await browser.tools.get('read_canvas')!.execute({});
    expect(read.structuredContent).toMatchObject({
      revision: 4,
      node_count: 1,
      next_offset: null,
      nodes: [{ id: 'board', title: 'Opening', shots: [{ shot_id: 'a', number: '1', caption: 'The bay' }] }],
    });
    expect(read.structuredContent.nodes).toEqual([
      expect.not.objectContaining({ data: { frames: expect.anything() } }),
    ]);
    const wrong = await browser.tools.get('read_canvas')!.execute({ limit: 0 });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]!.text).toMatch(/^limit: /);
  });

  it('refuses a write whose revision the server has moved past, naming the revision now, and writes nothing', async () => {
    const { controller, backend } = await openCanvas();
    const browser = currentDraft();
    registerCanvasTools(controller, {}, browser);
    backend.writeBehindThePage();
    const answer = await browser.tools.get('update_shot')!.execute({
      base_revision: 4,
      node_id: 'board',
      shot_id: 'a',
      set: { caption: 'The bay at dawn' },
    });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({
      error: { code: 'revision_conflict', details: { current_revision: 5, base_revision: 4 } },
    });
    expect(backend.sent).toEqual([]);
    // A write with the revision now goes through, and goes onto the person's undo stack.
    const written = await browser.tools.get('update_shot')!.execute({
      base_revision: 5,
      node_id: 'board',
      shot_id: 'a',
      set: { caption: 'The bay at dawn' },
    });
    expect(written.structuredContent).toEqual({ revision: 6, node_id: 'board', shot_id: 'a' });
    expect(controller.store.getState().layout.revision).toBe(6);
    expect(controller.store.getState().undo.map((entry) => entry.label)).toEqual(['Browser agent: edit shot caption']);
  });
});
