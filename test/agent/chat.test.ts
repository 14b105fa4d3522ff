import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CanvasNode,
  SNAPSHOT_CONTRACT_VERSION,
  type ConversationView,
  type HistoryPage,
  type StoredChatMessage,
} from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { connectClient, toolError } from '../support/mcp.js';
import { scripted, type ModelAnswer } from '../support/model-standin.js';
import { api, startTestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import {
  CANVAS,
  fromPage,
  newConversation,
  plannedAgent,
  readTurn,
  send,
  startChatStage,
  type ChatStage,
} from './chat-support.js';

const textOf = (chunks: Array<{ type: string }>) =>
  chunks
    .filter((chunk) => chunk.type === 'text-delta')
    .map((chunk) => (chunk as unknown as { delta: string }).delta)
    .join('');

/**
 * The canvas chat's agent works through the six tools over /mcp/ like any other agent, with the person's chat run,
 * every check an external agent gets, and the stand-in model playing the model's part (on both stores).
 */

const frame = (id: string, name: string, x = 400) => ({
  id,
  type: 'imageGenNode',
  position: { x, y: 0 },
  data: { displayName: name, prompt: `${name}, storyboard frame`, size: '1K', imageUrl: null, aspectRatio: '16:9' },
});
const note = (id: string, name: string) => ({
  id,
  type: 'textAnnotationNode',
  position: { x: 0, y: 0 },
  data: { displayName: name, content: name },
});

/** The model's part in an edit: one batch of changes at `baseRevision` on canvas c, then its answer. */
const changesThenSay = (baseRevision: number, operations: unknown[], text: string) =>
  scripted(
    {
      toolCalls: [
        {
          name: 'apply_canvas_changes',
          args: { project_id: 'p', canvas_id: 'c', base_revision: baseRevision, operations },
        },
      ],
    },
    { text },
  );

describe.each(STORE_TARGETS)('the canvas chat: $name', (target) => {
  describe.skipIf(!target.available)('with the model stand-in', () => {
    let stage: ChatStage;
    beforeAll(async () => {
      stage = await startChatStage(target, 'openai', undefined, { chatApprovalMinutes: 1 });
    });
    afterAll(async () => stage?.close());

    const snapshot = async () =>
      (
        await api(stage.server.url, `${CANVAS}/snapshot`, {
          headers: { cookie: stage.cookies.ana, 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
        })
      ).body as {
        layout: { revision: number; nodes: Array<{ id: string }> };
        node_states: Record<string, { lastRunStatus: string }>;
      };
    const history = async (limit = 10) =>
      (await api(stage.server.url, `${CANVAS}/history?limit=${limit}`, { headers: { cookie: stage.cookies.ana } }))
        .body as HistoryPage;
    const conversation = async (id: string) =>
      (await api(stage.server.url, `${CANVAS}/conversations/${id}`, { headers: { cookie: stage.cookies.ana } }))
        .body as ConversationView;
    const transcript = async (id: string, who: 'ana' | 'vic' = 'ana') =>
      (
        (
          await api(stage.server.url, `${CANVAS}/conversations/${id}/messages`, {
            headers: { cookie: stage.cookies[who] },
          })
        ).body as { messages: StoredChatMessage[] }
      ).messages;

    it('adds frames the person asked for, as "Assistant for ana" on the chat run, and keeps the transcript', async () => {
      stage.model.setBrain(
        plannedAgent(
          [
            { create: frame('beat-1', 'Arrival') },
            { create: frame('beat-2', 'Storm', 720) },
            { create: frame('beat-3', 'Rescue', 1040) },
            { connect: { id: 'e-1-2', source: 'beat-1', target: 'beat-2' } },
            { connect: { id: 'e-2-3', source: 'beat-2', target: 'beat-3' } },
          ],
          'Added three frames and connected them.',
        ),
      );
      const chat = await newConversation(stage);
      expect(chat.can_edit).toBe(true);
      const before = (await snapshot()).layout.revision;
      const requestsBefore = stage.model.requests.length;
      const { message } = await readTurn(
        await send(stage, chat.conversation_id, {
          message: { id: 'u1', text: 'add three storyboard frames for this beat and connect them' },
          context: { selection: ['beat'] },
        }),
      );
      expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Added three frames and connected them.' });
      const after = await snapshot();
      expect(after.layout.revision).toBe(before + 5);
      expect((after.layout as unknown as { edges: Array<{ source: string; target: string }> }).edges).toEqual([
        expect.objectContaining({ source: 'beat-1', target: 'beat-2' }),
        expect.objectContaining({ source: 'beat-2', target: 'beat-3' }),
      ]);
      expect(after.layout.nodes.map((node) => node.id)).toEqual(expect.arrayContaining(['beat-1', 'beat-2', 'beat-3']));
      const authors = (await history(5)).revisions.map((entry) => entry.author);
      for (const author of authors)
        expect(author).toMatchObject({
          kind: 'agent',
          token_name: 'Assistant for ana',
          agent_run_id: chat.agent_run_id,
        });

      // What the model was given: the rules, the canvas, the person's selection, and only the tools it may use.
      const first = stage.model.requests[requestsBefore]!;
      expect(first.system).toContain('Refer to nodes only by the exact id listed in layout.nodes');
      expect(first.messages.at(-1)!.text).toContain('Selected nodes (what "this" or "these" means): beat.');
      expect(first.tools.sort()).toEqual([
        'apply_canvas_changes',
        'cancel_canvas_node_run',
        'create_canvas_edge',
        'create_canvas_node',
        'delete_canvas_node',
        'get_canvas',
        'get_canvas_node_run',
        'list_zone_skills',
        'submit_canvas_node_run',
        'tidy_canvas',
      ]);

      const stored = await transcript(chat.conversation_id);
      expect(stored.map((entry) => entry.role)).toEqual(['user', 'assistant']);
      expect(stored[0]!.parts).toEqual([
        { type: 'text', text: 'add three storyboard frames for this beat and connect them' },
      ]);
      const calls = stored[1]!.parts.filter((part) => part.type === 'dynamic-tool') as unknown as Array<{
        toolName: string;
        output: { revision?: number };
      }>;
      expect(calls.map((call) => call.toolName)).toEqual([
        'get_canvas',
        'create_canvas_node',
        'create_canvas_node',
        'create_canvas_node',
        'create_canvas_edge',
        'create_canvas_edge',
      ]);
      expect(calls.at(-1)!.output.revision).toBe(before + 5);
      expect(JSON.stringify(stored)).not.toContain('"nodes":[');
      expect(await conversation(chat.conversation_id)).toMatchObject({
        status: 'idle',
        title: 'add three storyboard frames for this beat and connect them',
        owner: { subject: 'ana' },
      });
    });

    it('deletes a node by the name the person used, after reading its id from the canvas', async () => {
      const chat = await newConversation(stage);
      stage.model.setBrain(plannedAgent([{ create: note('note-lighthouse', 'Lighthouse idea') }]));
      await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'note the lighthouse idea' } }),
      );
      stage.model.setBrain(plannedAgent([{ deleteNamed: 'Lighthouse idea' }], 'Deleted the note.'));
      const requestsBefore = stage.model.requests.length;
      await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u2', text: 'delete the lighthouse idea note' } }),
      );
      const calls = stage.model.requests.slice(requestsBefore);
      expect(calls[0]!.messages.at(-1)!.text).toContain('delete the lighthouse idea note');
      expect((await snapshot()).layout.nodes.map((node) => node.id)).not.toContain('note-lighthouse');
      expect((await history(1)).revisions[0]).toMatchObject({
        operation: 'delete_node',
        changes: [{ id: 'note-lighthouse', change: 'delete' }],
      });
    });

    it("meets a person's concurrent drag with a conflict, reads again and keeps the person's move", async () => {
      const chat = await newConversation(stage);
      let dragged = false;
      const agent = plannedAgent([{ create: frame('after-drag', 'After the drag', 2000) }]);
      stage.model.setBrain(async (request) => {
        const answer = await agent(request);
        // Between the agent's read and its write, the person drags beat-1.
        if (!dragged && 'toolCalls' in answer && answer.toolCalls[0]!.name === 'create_canvas_node') {
          dragged = true;
          const base = (await snapshot()).layout.revision;
          const moved = await api(stage.server.url, `${CANVAS}/nodes/beat-1`, {
            method: 'PATCH',
            headers: fromPage(stage, 'ben'),
            body: { base_revision: base, set: { position: { x: 400, y: 600 } } },
          });
          expect(moved.status).toBe(200);
        }
        return answer;
      });
      const { message } = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'add a frame' } }),
      );
      const calls = message!.parts.filter((part) => part.type === 'dynamic-tool') as Array<{
        toolName: string;
        output: { error?: { code?: string } };
      }>;
      expect(calls.map((call) => [call.toolName, call.output.error?.code ?? 'ok'])).toEqual([
        ['get_canvas', 'ok'],
        ['create_canvas_node', 'revision_conflict'],
        ['get_canvas', 'ok'],
        ['create_canvas_node', 'ok'],
      ]);
      const layout = (await snapshot()).layout as unknown as { nodes: Array<{ id: string; position: { y: number } }> };
      expect(layout.nodes.find((node) => node.id === 'beat-1')!.position.y).toBe(600);
      expect(layout.nodes.map((node) => node.id)).toContain('after-drag');
    });

    it('asks before a paid run: nothing is charged before Approve, the run starts after it', async () => {
      const chat = await newConversation(stage);
      stage.model.setBrain(plannedAgent([{ run: 'Arrival' }], 'Started the run.'));
      const asked = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'render the arrival frame' } }),
      );
      const request = asked.chunks.find((chunk) => chunk.type === 'tool-approval-request') as
        { approvalId: string } | undefined;
      expect(request).toBeDefined();
      expect(await conversation(chat.conversation_id)).toMatchObject({
        status: 'awaiting_approval',
        approval_expires_at: expect.any(String),
      });
      expect((await snapshot()).node_states['beat-1']).toBeUndefined();
      expect(Number((await stage.server.store.runs.budget('p')).reserved)).toBe(0);

      const approved = await readTurn(
        await send(stage, chat.conversation_id, { approvals: [{ approval_id: request!.approvalId, approved: true }] }),
      );
      // A continuation streams onto the assistant message the person already has: its text is in the chunks.
      expect(textOf(approved.chunks)).toBe('Started the run.');
      const run = approved.chunks.find((chunk) => chunk.type === 'tool-output-available') as {
        output: { run_id?: string; triggered_by?: unknown };
      };
      expect(run.output.run_id).toMatch(/^run_/);
      expect((await snapshot()).node_states['beat-1']).toMatchObject({ lastRunStatus: 'queued' });
      expect(await conversation(chat.conversation_id)).toMatchObject({ status: 'idle', approval_expires_at: null });
    });

    it('tells the model a declined approval, and starts nothing', async () => {
      const chat = await newConversation(stage);
      stage.model.setBrain(plannedAgent([{ run: 'Storm' }], 'Understood, not running it.'));
      const asked = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'render the storm frame' } }),
      );
      const request = asked.chunks.find((chunk) => chunk.type === 'tool-approval-request') as { approvalId: string };
      const before = stage.model.requests.length;
      const declined = await readTurn(
        await send(stage, chat.conversation_id, {
          approvals: [{ approval_id: request.approvalId, approved: false, reason: 'too expensive today' }],
        }),
      );
      expect(declined.chunks.some((chunk) => chunk.type === 'tool-output-denied')).toBe(true);
      const toldModel = JSON.stringify(stage.model.requests.slice(before).map((entry) => entry.raw));
      expect(toldModel).toContain('too expensive today');
      expect((await snapshot()).node_states['beat-2']).toBeUndefined();
    });

    it('refuses a second send while a turn runs, and Stop ends the turn at once: the write made before stays', async () => {
      const chat = await newConversation(stage);
      const agent = plannedAgent([{ create: note('before-stop', 'Before stop') }, { create: note('never', 'Never') }]);
      stage.model.setBrain((request) => {
        // After the first write, the model goes silent mid-answer.
        if (request.messages.some((message) => message.role === 'tool' && message.text.includes('before-stop')))
          return { stall: true } as ModelAnswer;
        return agent(request);
      });
      const turn = send(stage, chat.conversation_id, { message: { id: 'u1', text: 'add two notes' } });
      await waitFor(
        async () => (await snapshot()).layout.nodes.some((node) => node.id === 'before-stop'),
        Boolean,
        10_000,
        50,
      );
      const busy = await send(stage, chat.conversation_id, { message: { id: 'u2', text: 'and another' } });
      expect([busy.status, ((await busy.json()) as { error: { code: string } }).error.code]).toEqual([
        409,
        'conversation_busy',
      ]);
      const started = performance.now();
      const stopped = await api(stage.server.url, `${CANVAS}/conversations/${chat.conversation_id}/stop`, {
        method: 'POST',
        headers: fromPage(stage, 'ana'),
      });
      expect(stopped.status).toBe(200);
      await readTurn(await turn);
      expect(performance.now() - started).toBeLessThan(3000);
      await waitFor(
        () => conversation(chat.conversation_id),
        (view) => view.status === 'idle',
        5000,
        50,
      );
      const last = (await transcript(chat.conversation_id)).at(-1)!;
      expect(last.parts.some((part) => part.type === 'data-turn-stopped')).toBe(true);
      const ids = (await snapshot()).layout.nodes.map((node) => node.id);
      expect(ids).toContain('before-stop');
      expect(ids).not.toContain('never');
    });

    it('ends a turn on a provider 429 or a stream cut mid tool call with a clear message, and the canvas stays whole', async () => {
      const chat = await newConversation(stage);
      const revision = (await snapshot()).layout.revision;
      stage.model.setBrain(scripted({ fail: 429, retryAfterSeconds: 0 }));
      const limited = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'anything' } }),
      );
      const error = limited.chunks.find((chunk) => chunk.type === 'error') as { errorText: string };
      expect(error.errorText).toContain('HTTP 429');
      await waitFor(
        () => conversation(chat.conversation_id),
        (view) => view.status === 'idle',
        5000,
        50,
      );

      stage.model.setBrain(scripted({ cutMidToolCall: 'create_canvas_node' }));
      const cut = await readTurn(await send(stage, chat.conversation_id, { message: { id: 'u2', text: 'again' } }));
      expect((cut.chunks.find((chunk) => chunk.type === 'error') as { errorText: string }).errorText).toContain(
        'cut off',
      );
      await waitFor(
        () => conversation(chat.conversation_id),
        (view) => view.status === 'idle',
        5000,
        50,
      );
      expect((await snapshot()).layout.revision).toBe(revision);
      const stored = await transcript(chat.conversation_id);
      expect(stored.filter((entry) => entry.parts.some((part) => part.type === 'data-turn-error'))).toHaveLength(2);
    });

    it('makes a frame moodier in place: the same id, its connection and its run kept, one revision by the assistant', async () => {
      const { store } = stage.server;
      const start = (await snapshot()).layout.revision;
      const write = { projectId: 'p', canvasId: 'c', clientSaveId: null, authorization: SYSTEM_WRITE };
      const moody = frame('moody', 'Harbour at dawn', 1600);
      await store.writes.createNode({ ...write, baseRevision: start }, CanvasNode.parse(moody));
      await store.writes.createNode(
        { ...write, baseRevision: start + 1 },
        CanvasNode.parse(note('moody-note', 'Harbour')),
      );
      await store.writes.applyBatch({ ...write, baseRevision: start + 2 }, [
        { op: 'create_edge', edge: { id: 'moody-edge', source: 'moody-note', target: 'moody' } },
      ]);
      const { run } = await submitNodeRun(store, {
        projectId: 'p',
        canvasId: 'c',
        nodeId: 'moody',
        idempotencyKey: null,
        triggeredBy: { kind: 'user', name: 'ana' },
      });
      const chat = await newConversation(stage);
      const darker = { ...moody.data, prompt: 'Harbour at dawn, storm light, low clouds, moody' };
      stage.model.setBrain(
        changesThenSay(
          start + 3,
          [{ op: 'update_node', node_id: 'moody', set: { data: darker } }],
          'Made “Harbour at dawn” moodier.',
        ),
      );
      const before = stage.model.requests.length;
      await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'make the harbour frame moodier' } }),
      );
      expect(stage.model.requests[before]!.system).toContain('Never delete a node and create another to change it');
      const after = await snapshot();
      expect(after.layout.revision).toBe(start + 4);
      const nodes = after.layout.nodes as Array<{ id: string; data?: unknown }>;
      expect(nodes.find((node) => node.id === 'moody')?.data).toEqual(darker);
      expect((after.layout as unknown as { edges: Array<{ id: string }> }).edges.map((edge) => edge.id)).toContain(
        'moody-edge',
      );
      expect((after.node_states as Record<string, { externalRunId?: string }>).moody?.externalRunId).toBe(run.run_id);
      const [entry] = (await history(1)).revisions;
      expect(entry!.author).toMatchObject({ kind: 'agent', agent_run_id: chat.agent_run_id });
      expect(entry!.changes).toEqual([expect.objectContaining({ change: 'update', kind: 'node', id: 'moody' })]);
    });

    it("undoes a conversation's changes in one revision, keeping what a person changed after it", async () => {
      const start = (await snapshot()).layout.revision;
      const chat = await newConversation(stage);
      stage.model.setBrain(
        changesThenSay(
          start,
          [
            { op: 'create_node', node: frame('undo-a', 'Dawn', 2400) },
            { op: 'create_node', node: frame('undo-b', 'Dusk', 2800) },
          ],
          'Added two frames.',
        ),
      );
      await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'two frames, dawn and dusk' } }),
      );
      expect((await snapshot()).layout.revision).toBe(start + 1);
      // Ana renames the dawn frame afterwards: her work is not the assistant's to undo.
      const renamed = { ...frame('undo-a', 'Dawn', 2400).data, displayName: 'Dawn, ana’s' };
      const edit = await api(stage.server.url, `${CANVAS}/nodes/undo-a`, {
        method: 'PATCH',
        headers: fromPage(stage, 'ana'),
        body: { base_revision: start + 1, client_save_id: null, set: { data: renamed } },
      });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);

      const undo = (baseRevision: number) =>
        api(stage.server.url, `${CANVAS}/chat-runs/${chat.agent_run_id}/undo`, {
          method: 'POST',
          headers: fromPage(stage, 'ana'),
          body: { base_revision: baseRevision, client_save_id: null },
        });
      const undone = await undo(start + 2);
      expect(undone.status, JSON.stringify(undone.body)).toBe(201);
      expect(undone.body).toMatchObject({
        operation: 'undo_chat_run',
        revision: start + 3,
        changed_node_ids: ['undo-b'],
        kept: [{ kind: 'node', id: 'undo-a', revision: start + 2, by: 'ana' }],
      });
      const after = await snapshot();
      const nodes = after.layout.nodes as Array<{ id: string; data?: unknown }>;
      expect(nodes.some((node) => node.id === 'undo-b')).toBe(false);
      expect(nodes.find((node) => node.id === 'undo-a')?.data).toEqual(renamed);
      // Nothing is left to undo, and saying so writes nothing.
      const again = await undo(start + 3);
      expect(again.status).toBe(400);
      expect(JSON.stringify(again.body)).toContain('was changed since by ana');
      expect((await snapshot()).layout.revision).toBe(start + 3);
    });

    it('leaves a checkpoint before a turn that changed more than a handful of nodes, and none for a small one', async () => {
      const start = (await snapshot()).layout.revision;
      const checkpoints = async () =>
        (
          (await api(stage.server.url, `${CANVAS}/checkpoints`, { headers: { cookie: stage.cookies.ana } })).body as {
            checkpoints: Array<{ name: string; revision: number; kind: string; created_by: string }>;
          }
        ).checkpoints;
      const before = (await checkpoints()).length;
      const chat = await newConversation(stage);
      stage.model.setBrain(
        changesThenSay(
          start,
          Array.from({ length: 6 }, (_, index) => ({
            op: 'create_node',
            node: frame(`many-${index}`, `Beat ${index + 1}`, 3200 + index * 340),
          })),
          'Added six frames.',
        ),
      );
      await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'six frames for the storm sequence' } }),
      );
      const [newest] = await checkpoints();
      expect((await checkpoints()).length).toBe(before + 1);
      expect(newest).toMatchObject({
        name: "Before the assistant's turn: six frames for the storm sequence",
        revision: start,
        kind: 'auto',
        created_by: 'Assistant for ana',
      });

      stage.model.setBrain(
        changesThenSay(start + 1, [{ op: 'create_node', node: frame('one-more', 'One more', 5400) }], 'Added one.'),
      );
      await readTurn(await send(stage, chat.conversation_id, { message: { id: 'u2', text: 'one more frame' } }));
      expect((await checkpoints()).length).toBe(before + 1);
    });

    it("changes a board's shots when asked (a lens, the order), in one revision as the assistant", async () => {
      const { store } = stage.server;
      const start = (await snapshot()).layout.revision;
      const board = {
        title: 'Pier',
        frames: [
          { id: 'wide', imageUrl: null, number: '1', shotSize: 'EWS', caption: 'The pier' },
          { id: 'close', imageUrl: null, number: '2', shotSize: 'CU', caption: 'Mara', cast: ['Mara'] },
        ],
      };
      await store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: start, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({ id: 'pier-board', type: 'storyboardNode', position: { x: 0, y: 900 }, data: board }),
      );
      const chat = await newConversation(stage);
      const changed = {
        ...board,
        frames: [
          { ...board.frames[1], number: '1', lensMm: 85 },
          { ...board.frames[0], number: '2' },
        ],
      };
      stage.model.setBrain(
        changesThenSay(
          start + 1,
          [{ op: 'update_node', node_id: 'pier-board', set: { data: changed } }],
          'Mara’s close-up now opens the board, on an 85 mm lens.',
        ),
      );
      const before = stage.model.requests.length;
      await readTurn(
        await send(stage, chat.conversation_id, {
          message: { id: 'u1', text: 'open on the close-up of Mara, with an 85 mm lens' },
        }),
      );
      expect(stage.model.requests[before]!.system).toContain('call apply_canvas_changes with one update_node');
      const after = await snapshot();
      expect(after.layout.revision).toBe(start + 2);
      const stored = (after.layout.nodes as Array<{ id: string; data?: unknown }>).find(
        (node) => node.id === 'pier-board',
      );
      expect(stored?.data).toEqual(changed);
      const [entry] = (await history(1)).revisions;
      expect(entry!.author).toMatchObject({ kind: 'agent', agent_run_id: chat.agent_run_id });
    });

    it("lets a viewer chat read-only: no write tools, and a viewer cannot write in another person's conversation", async () => {
      const mine = await newConversation(stage, 'vic');
      expect(mine.can_edit).toBe(false);
      stage.model.setBrain(
        scripted(
          { toolCalls: [{ name: 'get_canvas', args: { project_id: 'p', canvas_id: 'c' } }] },
          { text: 'It has frames.' },
        ),
      );
      const before = stage.model.requests.length;
      await readTurn(
        await send(stage, mine.conversation_id, { message: { id: 'u1', text: 'what is on the canvas?' } }, 'vic'),
      );
      expect(stage.model.requests[before]!.tools.sort()).toEqual([
        'get_canvas',
        'get_canvas_node_run',
        'list_zone_skills',
      ]);
      expect(stage.model.requests[before]!.system).toContain('You may only read this canvas');

      const anas = await newConversation(stage, 'ana');
      const intrusion = await send(
        stage,
        anas.conversation_id,
        { message: { id: 'x', text: 'delete everything' } },
        'vic',
      );
      expect(intrusion.status).toBe(403);
      expect(await transcript(anas.conversation_id, 'vic')).toEqual([]);
      const deleted = await api(stage.server.url, `${CANVAS}/conversations/${anas.conversation_id}`, {
        method: 'DELETE',
        headers: fromPage(stage, 'vic'),
      });
      expect(deleted.status).toBe(403);
    });

    it("revokes each turn's token when the turn ends, and ending the conversation ends its chat run", async () => {
      const chat = await newConversation(stage);
      stage.model.setBrain(scripted({ text: 'Hello.' }));
      await readTurn(await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'hi' } }));
      const chatRun = (await stage.server.store.chatRuns.getChatRun(chat.agent_run_id))!;
      const turnToken = (await stage.server.store.tokens.getToken(chatRun.tokenId!))!;
      expect(turnToken).toMatchObject({
        kind: 'agent',
        name: 'Assistant for ana',
        purpose: 'assistant',
        issuedBy: { subject: 'ana' },
      });
      expect(turnToken.revokedAt).not.toBeNull();

      const ended = await api(stage.server.url, `${CANVAS}/conversations/${chat.conversation_id}/end`, {
        method: 'POST',
        headers: fromPage(stage, 'ana'),
      });
      expect(ended.body).toMatchObject({ status: 'ended' });
      // An agent presenting the ended chat run is refused, whatever token it holds.
      const { tokenId, secret } = await stage.server.store.tokens.createToken({
        name: 'other',
        kind: 'agent',
        role: 'editor',
        projects: ['p'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      await stage.server.store.chatRuns.bindChatRunToken(chat.agent_run_id, tokenId).catch(() => undefined);
      const client = await connectClient(stage.server.server.mcpUrl, {
        Authorization: `Bearer ${secret}`,
        'X-Agent-Run-Id': chat.agent_run_id,
      });
      try {
        const refused = await client.callTool({
          name: 'create_canvas_node',
          arguments: {
            project_id: 'p',
            canvas_id: 'c',
            base_revision: (await snapshot()).layout.revision,
            node: note('late', 'Late'),
          },
        });
        expect(toolError(refused).code).toBe('edit_not_authorized');
      } finally {
        await client.close();
      }
      const again = await send(stage, chat.conversation_id, { message: { id: 'u2', text: 'still there?' } });
      expect(again.status).toBe(403);
    });

    it("lists the canvas's conversations with their owners, pages and deletes a transcript (its owner only)", async () => {
      const chat = await newConversation(stage, 'ben');
      stage.model.setBrain(scripted({ text: 'One.' }));
      for (let index = 0; index < 3; index += 1)
        await readTurn(
          await send(stage, chat.conversation_id, { message: { id: `u${index}`, text: `message ${index}` } }, 'ben'),
        );
      const listed = (
        await api(stage.server.url, `${CANVAS}/conversations`, { headers: { cookie: stage.cookies.vic } })
      ).body as { conversations: ConversationView[] };
      expect(listed.conversations.find((entry) => entry.conversation_id === chat.conversation_id)).toMatchObject({
        owner: { subject: 'ben' },
        title: 'message 0',
      });
      const page = (
        await api(stage.server.url, `${CANVAS}/conversations/${chat.conversation_id}/messages?limit=2`, {
          headers: { cookie: stage.cookies.vic },
        })
      ).body as {
        messages: StoredChatMessage[];
        next_before: number;
      };
      expect(page.messages.map((entry) => entry.role)).toEqual(['user', 'assistant']);
      const older = (
        await api(
          stage.server.url,
          `${CANVAS}/conversations/${chat.conversation_id}/messages?limit=10&before=${page.next_before}`,
          { headers: { cookie: stage.cookies.vic } },
        )
      ).body as {
        messages: StoredChatMessage[];
      };
      expect(older.messages).toHaveLength(4);
      expect(
        (
          await api(stage.server.url, `${CANVAS}/conversations/${chat.conversation_id}`, {
            method: 'DELETE',
            headers: fromPage(stage, 'ben'),
          })
        ).status,
      ).toBe(204);
      expect(
        (
          await api(stage.server.url, `${CANVAS}/conversations/${chat.conversation_id}`, {
            headers: { cookie: stage.cookies.ben },
          })
        ).status,
      ).toBe(404);
      expect((await stage.server.store.chatRuns.getChatRun(chat.agent_run_id))!.endedAt).not.toBeNull();
    });

    it("runs two people's conversations on one canvas at once, each writing through its own chat run", async () => {
      const ana = await newConversation(stage, 'ana');
      const ben = await newConversation(stage, 'ben');
      stage.model.setBrain(async (request) => {
        const text = request.messages.find((message) => message.role === 'user')?.text ?? '';
        const who = text.includes('ana') ? 'ana' : 'ben';
        return plannedAgent([
          { create: note(`both-${who}-1`, `${who} 1`) },
          { create: note(`both-${who}-2`, `${who} 2`) },
        ])(request);
      });
      await Promise.all([
        readTurn(await send(stage, ana.conversation_id, { message: { id: 'a1', text: 'notes for ana' } }, 'ana')),
        readTurn(await send(stage, ben.conversation_id, { message: { id: 'b1', text: 'notes for ben' } }, 'ben')),
      ]);
      const ids = (await snapshot()).layout.nodes.map((node) => node.id);
      expect(ids).toEqual(expect.arrayContaining(['both-ana-1', 'both-ana-2', 'both-ben-1', 'both-ben-2']));
      const runs = new Set(
        (await history(4)).revisions.map((entry) => (entry.author as { agent_run_id: string }).agent_run_id),
      );
      expect(runs).toEqual(new Set([ana.agent_run_id, ben.agent_run_id]));
    });
  });
});

/** A conversation whose turn created a frame "Late", then asked the person to approve rendering it. */
async function awaitingApproval(stage: ChatStage) {
  const node = {
    id: 'late',
    type: 'imageGenNode',
    position: { x: 0, y: 0 },
    data: { displayName: 'Late', prompt: 'p', size: '1K', imageUrl: null, aspectRatio: '16:9' },
  };
  stage.model.setBrain(plannedAgent([{ create: node }]));
  const chat = await newConversation(stage);
  await readTurn(await send(stage, chat.conversation_id, { message: { id: 'u0', text: 'add a frame' } }));
  stage.model.setBrain(plannedAgent([{ run: 'Late' }], 'Noted.'));
  const asked = await readTurn(await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'render it' } }));
  return { chat, asked };
}

describe('an approval nobody answers in time', () => {
  it('tells the model the approval expired, starts nothing, and an Approve that comes too late changes nothing', async () => {
    let offsetMs = 0;
    const stage = await startChatStage(
      STORE_TARGETS[0]!,
      'openai',
      undefined,
      { chatApprovalMinutes: 10 },
      () => Date.now() + offsetMs,
    );
    try {
      const { chat, asked } = await awaitingApproval(stage);
      const request = asked.chunks.find((chunk) => chunk.type === 'tool-approval-request') as { approvalId: string };
      offsetMs = 11 * 60_000;
      const before = stage.model.requests.length;
      const late = await readTurn(
        await send(stage, chat.conversation_id, { approvals: [{ approval_id: request.approvalId, approved: true }] }),
      );
      expect(late.chunks.some((chunk) => chunk.type === 'tool-output-denied')).toBe(true);
      expect(JSON.stringify(stage.model.requests.slice(before).map((entry) => entry.raw))).toContain(
        'Nobody approved within 10 minutes',
      );
      expect((await stage.server.store.runs.latestRunsByNode('p', 'c')).length).toBe(0);
    } finally {
      await stage.close();
    }
  });
});

describe.each(STORE_TARGETS)('an approval left waiting by a server that stopped: $name', (target) => {
  it.skipIf(!target.available)(
    'is expired by the servers that remain, once: the model is told, nothing is charged',
    async () => {
      let offsetMs = 0;
      const clock = () => Date.now() + offsetMs;
      const first = await startChatStage(target, 'openai', undefined, { chatApprovalMinutes: 10 }, clock);
      const { database } = first.server;
      const others: Array<Awaited<ReturnType<typeof startTestServer>>> = [];
      try {
        const { chat } = await awaitingApproval(first);
        // The server that asked stops (its timer with it); nobody answers; ten minutes pass.
        await first.server.server.close();
        const before = first.model.requests.length;
        offsetMs = 11 * 60_000;
        const config = {
          modelProvider: 'openai-compatible',
          model: 'standin-model',
          modelBaseUrl: first.model.baseUrl,
          modelApiKey: 'sk-standin',
          chatApprovalMinutes: 10,
        };
        others.push(...(await Promise.all([0, 1].map(() => startTestServer(target, config, { clock, database })))));
        const conversation = () => others[0]!.store.chats.get(chat.conversation_id);
        await waitFor(conversation, (stored) => stored?.status === 'idle', 15_000, 50);
        // A continuation's first model request ends with the expired approval; two servers continuing would send two.
        const lastMessage = (raw: unknown) => JSON.stringify((raw as { messages: unknown[] }).messages.at(-1));
        const told = first.model.requests
          .slice(before)
          .filter((entry) => lastMessage(entry.raw).includes('Nobody approved within 10 minutes'));
        expect(told).toHaveLength(1);
        expect((await conversation())!.approvalExpiresAt).toBeNull();
        expect((await others[1]!.store.runs.latestRunsByNode('p', 'c')).length).toBe(0);
        const transcript = await others[1]!.store.chats.transcript(chat.conversation_id);
        expect(JSON.stringify(transcript)).toContain('Nobody approved within 10 minutes');
      } finally {
        for (const server of others) await server.server.close();
        await first.model.close();
        await database.cleanup();
      }
    },
  );
});

describe('the canvas chat through the Anthropic Messages protocol, and across a restart', () => {
  const sqlite = STORE_TARGETS[0]!;

  it('runs a turn with tool use against an Anthropic-shaped provider', async () => {
    const stage = await startChatStage(
      sqlite,
      'anthropic',
      plannedAgent([{ create: note('from-claude', 'From Claude') }], 'Added it.'),
    );
    try {
      const chat = await newConversation(stage);
      const { message } = await readTurn(
        await send(stage, chat.conversation_id, { message: { id: 'u1', text: 'add a note' } }),
      );
      expect(message?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Added it.' });
      expect((await stage.server.store.layout.readNode('p', 'c', 'from-claude'))?.node.type).toBe('textAnnotationNode');
      expect(stage.model.requests[0]!.raw).toMatchObject({ stream: true, tools: expect.any(Array) });
    } finally {
      await stage.close();
    }
  });

  it('marks a turn cut by a server shutdown as interrupted, never stuck running', async () => {
    const stage = await startChatStage(sqlite, 'openai', scripted({ stall: true }));
    const chat = await newConversation(stage);
    const turn = send(stage, chat.conversation_id, { message: { id: 'u1', text: 'think hard' } });
    await waitFor(
      async () => stage.model.requests.length,
      (count) => count > 0,
      10_000,
      20,
    );
    await stage.server.server.close();
    await turn.then((response) => response.text()).catch(() => undefined);
    const stored = await stage.server.store.chats.get(chat.conversation_id).catch(() => undefined);
    // The store is closed with the server: read what was recorded from a fresh one.
    const { openStore } = await import('../../src/store/store.js');
    const reopened = await openStore(stage.server.database.location);
    try {
      expect(stored === undefined || stored.status !== 'running').toBe(true);
      expect((await reopened.chats.get(chat.conversation_id))!.status).toBe('interrupted');
    } finally {
      await reopened.close();
      await stage.model.close();
      await stage.server.database.cleanup();
    }
  });
});

describe('the canvas chat without a model', () => {
  it('says in one sentence what to set, and refuses to send', async () => {
    const { startTestServer, signInWithLink } = await import('../support/servers.js');
    const server = await startTestServer(STORE_TARGETS[0]!);
    try {
      await server.store.projects.createWorkspace('w');
      await server.store.projects.createProject('p', 'w');
      await server.store.projects.createCanvas('p', 'c', false);
      await server.store.projects.addMember('p', { issuer: 'https://idp.example', subject: 'ana' }, 'editor');
      const secret = await server.store.sessions.createLoginLink(
        { issuer: 'https://idp.example', subject: 'ana' },
        { expiresInMs: 60_000 },
      );
      const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${secret}`);
      const status = await api(server.url, '/api/v1/chat/model', { headers: { cookie } });
      expect(status.body).toMatchObject({
        configured: false,
        message: expect.stringContaining('CANVAS_MCP_MODEL_PROVIDER'),
      });
      const headers = {
        cookie,
        origin: server.url,
        'x-requested-by': 'canvas-mcp',
        'content-type': 'application/json',
      };
      const created = (await (
        await fetch(`${server.url}${CANVAS}/conversations`, { method: 'POST', headers, body: '{}' })
      ).json()) as { conversation_id: string };
      const refused = await fetch(`${server.url}${CANVAS}/conversations/${created.conversation_id}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ message: { id: 'u', text: 'hi' } }),
      });
      expect([refused.status, ((await refused.json()) as { error: { message: string } }).error.message]).toEqual([
        503,
        expect.stringContaining('CANVAS_MCP_MODEL'),
      ]);
    } finally {
      await server.close();
    }
  });
});
