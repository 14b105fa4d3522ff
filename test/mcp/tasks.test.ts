import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, RunApprovalList } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { MODES, connectClient, deploy, structured, toolError, type McpDeployment } from '../support/mcp.js';
import { api } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas } from '../support/tokens.js';
import { IDP } from '../backend/world.js';

/**
 * Runs and exports as tasks (MCP 2025-11-25, "Tasks") through the official v1 SDK client's task support
 * (`client.experimental.tasks`), in-process and through a gateway, on both stores: an export started as a task is
 * polled to its end and its result is the export record; a run started as a task is cancelled with tasks/cancel and
 * the run record says the same. Clients that do not ask for a task, or speak 2026-07-28 (where tasks moved to an
 * extension no official client speaks yet), get exactly today's answers.
 */

const ids = { project_id: 'p1', canvas_id: 'c1' };
const APPROVALS = '/api/v2/projects/p1/canvases/c1/run-approvals';
const cases = MODES.flatMap((mode) =>
  STORE_TARGETS.map((target) => ({ mode, target, name: `${mode} on ${target.name}` })),
);

describe.each(cases)('tasks: $name', ({ mode, target }) => {
  describe.skipIf(!target.available)('with the official SDK client', () => {
    let deployment: McpDeployment;
    let agent: Client;
    let token: string;
    let chatRun: string;
    const runsOfOwl = () => deployment.backend.store.driver.all("SELECT id FROM node_runs WHERE node_id = 'owl'");

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      await store.writes.createNode(
        { projectId: 'p1', canvasId: 'c1', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: { title: 'Cold open', frames: [{ id: 'a', imageUrl: null, durationMs: 1000, action: 'Fog.' }] },
        }),
      );
      await store.writes.createNode(
        { projectId: 'p1', canvasId: 'c1', baseRevision: 1, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'owl',
          type: 'imageGenNode',
          position: { x: 0, y: 600 },
          data: { prompt: 'owl', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
        }),
      );
      const studio = await agentOnCanvas(store, {
        projectId: 'p1',
        canvasId: 'c1',
        name: 'studio agent',
        toolSets: ['runs', 'exports'],
      });
      token = studio.secret;
      chatRun = studio.chatRunId;
      // The official v1 client offers 2025-11-25, the revision that defines tasks.
      agent = await connectClient(deployment.mcpUrl, { Authorization: `Bearer ${token}`, 'X-Agent-Run-Id': chatRun });
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
    });

    it('declares tasks for tools/call at 2025-11-25, and marks only the run and export tools as task-capable', async () => {
      expect(agent.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
      const { tools } = await agent.listTools();
      const capable = tools.filter((tool) => tool.execution?.taskSupport === 'optional').map((tool) => tool.name);
      expect(capable.sort()).toEqual(['export_board', 'submit_canvas_node_run']);
    });

    it('runs an export as a task the client polls to its end, whose result is the export record', async () => {
      const messages: Array<{ type: string; task?: { taskId: string; status: string }; result?: unknown }> = [];
      const stream = agent.experimental.tasks.callToolStream(
        { name: 'export_board', arguments: { ...ids, export: { kind: 'shot_list_csv', node_id: 'board' } } },
        CallToolResultSchema,
        { task: { ttl: 60_000 } },
      );
      for await (const message of stream) messages.push(message as (typeof messages)[number]);
      expect(messages[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
      const taskId = messages[0]!.task!.taskId;
      expect(messages.at(-1)!.type).toBe('result');
      const record = structured<{ export_id: string; status: string }>(
        messages.at(-1)!.result as Record<string, unknown>,
      );
      expect(record.status).toBe('succeeded');
      // One task, one export: the task id names the very record, which the store holds.
      expect(taskId).toBe(`export/p1/c1/${record.export_id}`);
      const task = await agent.experimental.tasks.getTask(taskId);
      expect(task).toMatchObject({ taskId, status: 'completed' });
      const exported = await agent.callTool({ name: 'get_export', arguments: { ...ids, export_id: record.export_id } });
      expect(structured(exported)).toMatchObject({ export_id: record.export_id, status: 'succeeded' });
      // A task that ended cannot be cancelled (-32602), and the record stays as it was.
      const refusal = await agent.experimental.tasks.cancelTask(taskId).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(McpError);
      expect((refusal as McpError).code).toBe(-32602);
    });

    /** A person's yes to the agent's pending paid run (the run approvals of docs/runs.md). */
    async function approvePending(): Promise<void> {
      const { backend } = deployment;
      const asAlice = await signedInPerson(backend, { issuer: IDP, subject: 'alice' });
      const listed = RunApprovalList.parse((await api(backend.url, `${APPROVALS}?status=pending`, asAlice())).body);
      expect(listed.approvals).toHaveLength(1);
      const answer = await api(
        backend.url,
        `${APPROVALS}/${listed.approvals[0]!.approval_id}`,
        asAlice({ method: 'POST', body: { decision: 'approve' } }),
      );
      expect(answer.status).toBe(200);
    }

    const runAsTask = (key: string) =>
      agent.experimental.tasks.callToolStream(
        { name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'owl', idempotency_key: key } },
        CallToolResultSchema,
        { task: { ttl: 60_000 } },
      );

    it('starts a paid run as a task and cancels it with tasks/cancel: the run record shows the same cancel', async () => {
      // A run waiting for a person's yes is refused as the tool refuses it: no task, no run, nothing charged.
      const refused = [];
      for await (const message of runAsTask('as-a-task')) refused.push(message);
      expect(refused).toEqual([expect.objectContaining({ type: 'error' })]);
      expect(await runsOfOwl()).toHaveLength(0);
      await approvePending();

      const stream = runAsTask('as-a-task');
      const first = (await stream.next()).value as { type: string; task: { taskId: string; status: string } };
      await stream.return(undefined); // stop the client's own polling: this test polls by hand
      expect(first).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
      const { taskId } = first.task;
      const [, , , runId] = taskId.split('/');
      const running = await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId! } });
      expect(structured(running)).toMatchObject({ run_id: runId, node_id: 'owl', status: 'queued' });
      expect(await agent.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'working' });

      const cancelled = await agent.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      const record = await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: runId! } });
      expect(structured(record)).toMatchObject({ run_id: runId, status: 'cancelled' });
      expect(structured(record)).toHaveProperty('cancel_requested_at', expect.any(String));
      expect(await agent.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
    });

    it('answers a call that asks for no task exactly as before: the run record', async () => {
      const submit = () =>
        agent.callTool({
          name: 'submit_canvas_node_run',
          arguments: { ...ids, node_id: 'owl', idempotency_key: 'no-task' },
        });
      expect(toolError(await submit())).toMatchObject({ details: { reason: 'approval_required' } });
      await approvePending();
      const plain = await submit();
      expect(structured(plain)).toMatchObject({ node_id: 'owl', status: 'queued' });
      expect(plain).not.toHaveProperty('task');
    });

    it('refuses a task id that names nothing, or a run of a project the token cannot open', async () => {
      for (const taskId of ['nonsense', 'run/p2/c1/run_1', 'run/p1/c1/a/b']) {
        const refusal = await agent.experimental.tasks.getTask(taskId).catch((error: unknown) => error);
        expect(refusal, taskId).toBeInstanceOf(McpError);
      }
    });

    it('keeps 2026-07-28 calls as they are: a `task` member starts the run and answers its record', async () => {
      const client = new ClientV2(
        { name: 'tasks-modern', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new TransportV2(new URL(deployment.mcpUrl), {
          requestInit: { headers: { Authorization: `Bearer ${token}`, 'X-Agent-Run-Id': chatRun } },
        }),
      );
      try {
        const created = await client.request(
          {
            method: 'tools/call',
            params: {
              name: 'export_board',
              arguments: { ...ids, export: { kind: 'edl', node_id: 'board' } },
              task: { ttl: 60_000 },
            },
          },
          CallToolResultSchema as never,
        );
        expect(CreateTaskResultSchema.safeParse(created).success).toBe(false);
        expect((created as { structuredContent: { kind: string } }).structuredContent).toMatchObject({ kind: 'edl' });
      } finally {
        await client.close();
      }
    });
  });
});
