import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type CanvasLayout } from '../../src/contract/index.js';
import { DEMO_OWNER } from '../../src/server/demo-seed.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { launchBrowser, signIn } from '../support/browser.js';
import { readLayout } from '../support/canvas-reads.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';

/**
 * WebMCP in Chromium: a shim injected before the page's scripts stands in for the browser's `navigator.modelContext`
 * (records what the page registers, and calls the tools as a browser's agent does: JSON in, JSON out). The agent reads
 * the canvas, edits a shot's caption with the revision it read, and the server has it; the person presses Ctrl+Z and
 * the caption is back; a write with a stale revision is refused, naming the revision now. A viewer's page offers the
 * read alone, and a page whose browser has no WebMCP registers nothing and works as before.
 */

interface Answer {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent: Record<string, unknown> & {
    revision?: number;
    error?: { code: string; message: string; details: Record<string, unknown> };
  };
}

interface Read {
  revision: number;
  nodes: Array<{
    id: string;
    type: string;
    title: string;
    shots?: Array<{ shot_id: string; number: string; caption: string | null }>;
  }>;
}

/** The browser's side of WebMCP, registerTool with an AbortSignal as the current draft has it. */
const SHIM = `(() => {
  const tools = new Map();
  Object.defineProperty(navigator, 'modelContext', {
    configurable: true,
    value: {
      registerTool(tool, options = {}) {
        if (tools.has(tool.name)) return Promise.reject(new DOMException('taken', 'InvalidStateError'));
        tools.set(tool.name, tool);
        options.signal?.addEventListener('abort', () => tools.delete(tool.name));
        return Promise.resolve();
      },
    },
  });
  window.browserAgent = {
    tools: () => [...tools.values()].map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
    call: async (name, input) => {
      const tool = tools.get(name);
      if (!tool) throw new Error('no tool ' + name);
      return JSON.parse(JSON.stringify(await tool.execute(JSON.parse(JSON.stringify(input)))));
    },
  };
})();`;

function call(page: Page, name: string, input: Record<string, unknown> = {}): Promise<Answer> {
  return page.evaluate(
    ({ name, input }) =>
      (globalThis as unknown as { browserAgent: { call(n: string, i: unknown): Promise<Answer> } }).browserAgent.call(
        name,
        input,
      ),
    { name, input },
  );
}

function toolNames(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { browserAgent: { tools(): Array<{ name: string }> } }).browserAgent
      .tools()
      .map((tool) => tool.name)
      .sort(),
  );
}

const WRITE_TOOLS = ['add_node', 'add_shot', 'delete_node', 'delete_shot', 'update_node', 'update_shot'];

describe.each(STORE_TARGETS)('WebMCP tools of the web canvas: $name', (target) => {
  describe.skipIf(!target.available)('in Chromium', () => {
    let server: TestServer;
    let browser: Browser;
    let reader: string;

    beforeAll(async () => {
      server = await startTestServer(target, { seedDemo: true });
      await server.store.projects.createCanvas('demo', 'agent', false);
      const board = CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Opening',
          frames: [
            { id: 'a', imageUrl: null, number: '1', caption: 'The bay' },
            { id: 'b', imageUrl: null, number: '2', caption: 'Mara turns' },
            { id: 'c', imageUrl: null, number: '3', caption: 'The lamp' },
          ],
        },
      });
      await server.store.writes.createNode(
        { projectId: 'demo', canvasId: 'agent', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        board,
      );
      reader = await projectToken(server.store, 'demo', 'viewer');
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const read = () => readLayout(server, 'demo', 'agent', reader);
    const shotsOf = (layout: CanvasLayout) =>
      (layout.nodes.find((node) => node.id === 'board')!.data as { frames: Array<{ id: string; caption?: string }> })
        .frames;

    /** The person's page with the shim in place before any of its scripts runs. */
    async function openWithWebMcp(person: { issuer: string; subject: string }) {
      const opened = await signIn(browser, server, person, { projectId: 'demo', canvasId: 'agent' });
      await opened.page.addInitScript(SHIM);
      await opened.page.reload();
      await opened.page.locator('.feed-live').waitFor();
      return opened;
    }

    it("an agent edits a shot with the revision it read, the person's Ctrl+Z undoes it, and a stale write is refused", async () => {
      const { context, page, errors } = await openWithWebMcp(DEMO_OWNER);
      try {
        await waitFor(
          () => toolNames(page),
          (names) => names.length === 7,
        );
        expect(await toolNames(page)).toEqual([...WRITE_TOOLS, 'read_canvas'].sort());
        const schema = await page.evaluate(
          () =>
            (
              globalThis as unknown as { browserAgent: { tools(): Array<{ name: string; inputSchema: unknown }> } }
            ).browserAgent
              .tools()
              .find((tool) => tool.name === 'update_shot')!.inputSchema,
        );
        expect(schema).toMatchObject({
          type: 'object',
          required: expect.arrayContaining(['base_revision', 'shot_id']),
        });

        // The read: the canvas as the page shows it, with its revision and the board's shots.
        const first = await call(page, 'read_canvas');
        expect(first.isError).toBeFalsy();
        const canvas = first.structuredContent as unknown as Read;
        const start = (await read()).revision;
        expect(canvas.revision).toBe(start);
        const board = canvas.nodes.find((node) => node.id === 'board')!;
        expect(board).toMatchObject({ type: 'storyboardNode', title: 'Opening' });
        expect(board.shots!.map((shot) => [shot.shot_id, shot.number, shot.caption])).toEqual([
          ['a', '1', 'The bay'],
          ['b', '2', 'Mara turns'],
          ['c', '3', 'The lamp'],
        ]);

        // The write, with the revision read: one revision on the server, and the card shows it.
        const edited = await call(page, 'update_shot', {
          base_revision: canvas.revision,
          node_id: 'board',
          shot_id: 'c',
          set: { caption: 'The lamp goes out' },
        });
        expect(edited.isError).toBeFalsy();
        expect(edited.structuredContent).toEqual({ revision: start + 1, node_id: 'board', shot_id: 'c' });
        let layout = await read();
        expect(layout.revision).toBe(start + 1);
        expect(shotsOf(layout).find((shot) => shot.id === 'c')!.caption).toBe('The lamp goes out');
        const frame = page.locator('.react-flow__node[data-id="board"] figure[data-shot-id="c"]');
        await frame.getByText('The lamp goes out').waitFor();
        // The person's own write, as their session makes it.
        const [entry] = await server.store.history.history('demo', 'agent', 1e9, 1);
        expect(entry).toMatchObject({ revision: start + 1, author: { kind: 'person', subject: DEMO_OWNER.subject } });

        // The person undoes it with Ctrl+Z: the caption is back, in one more revision.
        await page.keyboard.press('Control+z');
        layout = await waitFor(read, (now) => now.revision === start + 2);
        expect(shotsOf(layout).find((shot) => shot.id === 'c')!.caption).toBe('The lamp');
        await waitFor(
          () => frame.locator('figcaption').textContent(),
          (caption) => caption?.trim() === '3 The lamp',
        );

        // The agent writes again with the revision it read: the canvas changed since, so it is refused, naming the
        // revision now, and nothing is written.
        await waitFor(
          () => page.locator('.topbar .chip', { hasText: /^revision / }).textContent(),
          (shown) => shown === `revision ${start + 2}`,
        );
        const stale = await call(page, 'update_shot', {
          base_revision: canvas.revision,
          node_id: 'board',
          shot_id: 'c',
          set: { caption: 'Written over the undo' },
        });
        expect(stale.isError).toBe(true);
        expect(stale.structuredContent.error).toMatchObject({
          code: 'revision_conflict',
          details: { current_revision: start + 2, base_revision: start },
        });
        expect(stale.content[0]!.text).toContain(`revision ${start + 2}`);
        expect((await read()).revision).toBe(start + 2);

        // A fresh read, then shots and nodes added, edited and deleted, each write building on the last one's revision.
        const again = (await call(page, 'read_canvas')).structuredContent as unknown as Read;
        expect(again.revision).toBe(start + 2);
        const added = await call(page, 'add_shot', {
          base_revision: again.revision,
          node_id: 'board',
          after_shot_id: 'a',
          fields: { caption: 'An insert', shotSize: 'CU' },
        });
        expect(added.isError).toBeFalsy();
        const shotId = added.structuredContent.shot_id as string;
        layout = await read();
        expect(shotsOf(layout).map((shot) => shot.id)).toEqual(['a', shotId, 'b', 'c']);
        expect(shotsOf(layout)[1]).toMatchObject({ caption: 'An insert', shotSize: 'CU', number: '2' });
        const removed = await call(page, 'delete_shot', {
          base_revision: added.structuredContent.revision,
          node_id: 'board',
          shot_id: 'b',
        });
        expect(removed.isError).toBeFalsy();
        const note = await call(page, 'add_node', {
          base_revision: removed.structuredContent.revision,
          type: 'textAnnotationNode',
          data: { content: 'Check the lamp' },
        });
        expect(note.isError).toBeFalsy();
        const noteId = note.structuredContent.node_id as string;
        const moved = await call(page, 'update_node', {
          base_revision: note.structuredContent.revision,
          node_id: noteId,
          data: { content: 'Check the lamp twice' },
        });
        expect(moved.isError).toBeFalsy();
        layout = await read();
        expect(layout.nodes.find((node) => node.id === noteId)!.data).toMatchObject({
          content: 'Check the lamp twice',
        });
        const gone = await call(page, 'delete_node', {
          base_revision: moved.structuredContent.revision,
          node_id: noteId,
        });
        expect(gone.isError).toBeFalsy();
        layout = await read();
        expect(layout.nodes.some((node) => node.id === noteId)).toBe(false);
        expect(layout.revision).toBe(start + 7);

        // Input that is not valid is refused naming the field, before anything is sent.
        const wrong = await call(page, 'update_shot', {
          base_revision: layout.revision,
          node_id: 'board',
          shot_id: 'c',
          set: { shotSize: 'HUGE' },
        });
        expect(wrong.isError).toBe(true);
        expect(wrong.structuredContent.error).toMatchObject({ code: 'invalid_arguments' });
        expect(wrong.content[0]!.text).toMatch(/^set\.shotSize: /);
        const missing = await call(page, 'delete_shot', {
          base_revision: layout.revision,
          node_id: 'board',
          shot_id: 'zz',
        });
        expect(missing.structuredContent.error).toMatchObject({ code: 'not_found' });
        expect((await read()).revision).toBe(start + 7);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("offers a viewer's browser the read alone, with the viewer's rights", async () => {
      const viewer = { issuer: 'https://idp.example', subject: 'vera-webmcp' };
      await server.store.projects.addMember('demo', viewer, 'viewer');
      const { context, page, errors } = await openWithWebMcp(viewer);
      try {
        await waitFor(
          () => toolNames(page),
          (names) => names.length > 0,
        );
        expect(await toolNames(page)).toEqual(['read_canvas']);
        const canvas = (await call(page, 'read_canvas')).structuredContent as unknown as Read;
        expect(canvas.revision).toBe((await read()).revision);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('registers nothing, and the canvas works as before, where the browser has no WebMCP', async () => {
      const { context, page, errors } = await signIn(browser, server, DEMO_OWNER, {
        projectId: 'demo',
        canvasId: 'agent',
      });
      try {
        await page.locator('.feed-live').waitFor();
        await page.locator('.react-flow__node[data-id="board"]').waitFor();
        const offered = await page.evaluate(() => {
          const page = globalThis as unknown as { navigator: object; document: object };
          return 'modelContext' in page.navigator || 'modelContext' in page.document;
        });
        expect(offered).toBe(false);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
