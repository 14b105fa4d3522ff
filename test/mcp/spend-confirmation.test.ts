import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { deploy, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas } from '../support/tokens.js';

/**
 * Spend confirmation for external agents with the official v2 client on the 2026-07-28 era, on both stores, in-process
 * and through a gateway: a paid run submitted through the `runs` tool set is first answered with an input_required form
 * elicitation naming its cost; the person's yes submits it, a no starts nothing; a requestState that was tampered with
 * is never trusted (the question comes again).
 */

const PAID_DATA = { prompt: 'a lighthouse at dusk', size: '2K', imageUrl: null, aspectRatio: '16:9' };
const SUBMIT = { project_id: 'p1', canvas_id: 'c1', node_id: 'paid', idempotency_key: 'one-click-0001' };

describe.each(STORE_TARGETS)('spend confirmation: $name', (target) => {
  describe.skipIf(!target.available).each(['in-process', 'gateway'] as const)('%s', (mode) => {
    let deployment: McpDeployment;
    let secret: string;
    let chatRunId: string;
    const runsOf = () => deployment.backend.store.driver.all("SELECT id FROM node_runs WHERE node_id = 'paid'");

    async function agent(answer: {
      action: 'accept' | 'decline';
      content?: Record<string, string | number | boolean>;
    }) {
      const asked: Array<{ message: string }> = [];
      const client = new ClientV2(
        { name: 'spend-test', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params as { message: string });
        return answer;
      });
      await client.connect(
        new TransportV2(new URL(deployment.mcpUrl), {
          requestInit: {
            headers: { Authorization: `Bearer ${secret}`, 'X-Agent-Run-Id': chatRunId },
          },
        }),
      );
      return { client, asked };
    }

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      await store.writes.createNode(
        { projectId: 'p1', canvasId: 'c1', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'paid',
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: PAID_DATA,
        }),
      );
      const token = await agentOnCanvas(store, {
        projectId: 'p1',
        canvasId: 'c1',
        name: 'agent that spends',
        toolSets: ['runs'],
      });
      secret = token.secret;
      chatRunId = token.chatRunId;
    }, 60_000);
    afterAll(async () => deployment?.close());

    it('starts nothing when the person says no', async () => {
      const { client, asked } = await agent({ action: 'decline' });
      const result = (await client.callTool({ name: 'submit_canvas_node_run', arguments: SUBMIT })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toMatch(/costs about \d+(\.\d+)? credits/);
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain('did not confirm the spend');
      expect(await runsOf()).toHaveLength(0);
      await client.close();
    });

    it('submits the run once the person confirms the cost in the call', async () => {
      const { client, asked } = await agent({ action: 'accept', content: { confirm: true } });
      const result = (await client.callTool({ name: 'submit_canvas_node_run', arguments: SUBMIT })) as {
        isError?: boolean;
        structuredContent: { run_id: string; status: string };
      };
      expect(asked).toHaveLength(1);
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(result.structuredContent.status).toBe('queued');
      expect((await runsOf()).length).toBe(1);
      await client.close();
    });

    /** A tools/call on the 2026-07-28 era as a client that answers elicitations would send it, without the SDK. */
    const post = (body: unknown) =>
      fetch(deployment.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'submit_canvas_node_run',
          authorization: `Bearer ${secret}`,
          'x-agent-run-id': chatRunId,
        },
        body: JSON.stringify(body),
      }).then((response) => response.json() as Promise<{ result: Record<string, unknown> }>);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };

    it('never trusts a requestState that was changed: it asks again and submits nothing', async () => {
      const other = { ...SUBMIT, idempotency_key: 'one-click-0002' };
      const first = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'submit_canvas_node_run', arguments: other, _meta: meta },
      });
      expect(first.result.resultType).toBe('input_required');
      const state = String(first.result.requestState);
      const forged = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
      const retried = await post({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'submit_canvas_node_run',
          arguments: other,
          _meta: meta,
          requestState: forged,
          inputResponses: { confirm_spend: { action: 'accept', content: { confirm: true } } },
        },
      });
      expect(retried.result.resultType).toBe('input_required');
      expect((await runsOf()).length).toBe(1);
    });

    it('holds a yes only for the cost the person saw: a node made dearer after it is asked about again', async () => {
      const { store } = deployment.backend;
      const args = { ...SUBMIT, idempotency_key: 'one-click-0003' };
      const call = (id: number, extra: Record<string, unknown> = {}) =>
        post({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'submit_canvas_node_run', arguments: args, _meta: meta, ...extra },
        });
      const yes = { confirm_spend: { action: 'accept', content: { confirm: true } } };
      const messageOf = (result: Record<string, unknown>) =>
        (result.inputRequests as { confirm_spend: { params: { message: string } } }).confirm_spend.params.message;
      const runs = (await runsOf()).length;

      const asked = await call(1);
      expect(asked.result.resultType).toBe('input_required');
      const cheap = messageOf(asked.result);
      // After the question, someone makes the picture 4K: four times the credits the person is about to agree to.
      const canvas = await store.layout.readCanvas('p1', 'c1');
      const write = { projectId: 'p1', canvasId: 'c1', clientSaveId: null, authorization: SYSTEM_WRITE };
      await store.writes.updateNode({ ...write, baseRevision: canvas!.revision }, 'paid', {
        data: { ...PAID_DATA, size: '4K' },
      });
      try {
        const again = await call(2, { requestState: asked.result.requestState, inputResponses: yes });
        expect(again.result.resultType).toBe('input_required');
        expect(messageOf(again.result)).not.toBe(cheap);
        expect(messageOf(again.result)).toMatch(/The cost rose from about \d+(\.\d+)? credits, which you confirmed/);
        expect((await runsOf()).length).toBe(runs);

        const confirmed = await call(3, { requestState: again.result.requestState, inputResponses: yes });
        expect(confirmed.result.resultType, JSON.stringify(confirmed.result)).toBe('complete');
        expect(confirmed.result.isError).toBeFalsy();
        expect((await runsOf()).length).toBe(runs + 1);
      } finally {
        const now = await store.layout.readCanvas('p1', 'c1');
        await store.writes.updateNode({ ...write, baseRevision: now!.revision }, 'paid', { data: PAID_DATA });
      }
    });
  });
});
