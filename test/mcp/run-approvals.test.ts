import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, RunApprovalList, RunApprovalView } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { signedInPerson } from '../support/canvas-reads.js';
import { connectClient, deploy, structured, toolError, type McpDeployment } from '../support/mcp.js';
import { api } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas } from '../support/tokens.js';
import { IDP } from '../backend/world.js';

/**
 * Run approvals for an agent whose client cannot ask its person in the call (the v1 client on the 2025 era), on both
 * stores, in-process and through a gateway: its paid run waits for a person's yes in the canvas and nothing is charged;
 * a person approves (an agent's token cannot), and the agent's retry with the same key submits the run; a declined one
 * is refused, and starts nothing.
 */

const BASE = '/api/v2/projects/p1/canvases/c1/run-approvals';

describe.each(STORE_TARGETS)('run approvals: $name', (target) => {
  describe.skipIf(!target.available).each(['in-process', 'gateway'] as const)('%s', (mode) => {
    let deployment: McpDeployment;
    let agent: Client;
    let agentSecret: string;
    const submit = (key: string) =>
      agent.callTool({
        name: 'submit_canvas_node_run',
        arguments: { project_id: 'p1', canvas_id: 'c1', node_id: 'paid', idempotency_key: key },
      });
    const runsOf = () => deployment.backend.store.driver.all("SELECT id FROM node_runs WHERE node_id = 'paid'");

    beforeAll(async () => {
      deployment = await deploy(mode, target);
      const { store } = deployment.backend;
      await store.writes.createNode(
        { projectId: 'p1', canvasId: 'c1', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({
          id: 'paid',
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: { displayName: 'Frame 1', prompt: 'a lighthouse', size: '1K', imageUrl: null, aspectRatio: '16:9' },
        }),
      );
      const token = await agentOnCanvas(store, {
        projectId: 'p1',
        canvasId: 'c1',
        name: 'studio agent',
        toolSets: ['runs'],
      });
      agentSecret = token.secret;
      const chatRunId = token.chatRunId;
      agent = await connectClient(deployment.mcpUrl, {
        Authorization: `Bearer ${token.secret}`,
        'X-Agent-Run-Id': chatRunId,
      });
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      await deployment?.close();
    });

    it('holds a paid run for a person’s yes, then submits it on the agent’s retry with the same key', async () => {
      const first = toolError(await submit('key-approve-0001'));
      expect(first).toMatchObject({ isError: true, code: 'forbidden', details: { reason: 'approval_required' } });
      expect(first.message).toMatch(/waits for a person's approval in the canvas/);
      expect(await runsOf()).toHaveLength(0);

      const backend = deployment.backend;
      const asAlice = await signedInPerson(backend, { issuer: IDP, subject: 'alice' });
      const listed = RunApprovalList.parse((await api(backend.url, `${BASE}?status=pending`, asAlice())).body);
      expect(listed.approvals).toHaveLength(1);
      const approval = listed.approvals[0]!;
      expect(approval).toMatchObject({ node_id: 'paid', agent: 'studio agent', status: 'pending' });

      // Only a person answers: the agent's own token is refused.
      const byAgent = await api(backend.url, `${BASE}/${approval.approval_id}`, {
        token: agentSecret,
        method: 'POST',
        body: { decision: 'approve' },
      });
      // An agent token does not even open the REST API (401); a backend token acting for no one is refused too.
      expect([401, 403]).toContain(byAgent.status);
      const approved = await api(
        backend.url,
        `${BASE}/${approval.approval_id}`,
        asAlice({ method: 'POST', body: { decision: 'approve' } }),
      );
      expect(RunApprovalView.parse(approved.body)).toMatchObject({ status: 'approved', decided_by: 'alice' });

      const run = structured<{ status: string }>(await submit('key-approve-0001'));
      expect(run.status).toBe('queued');
      expect(await runsOf()).toHaveLength(1);
    });

    it('refuses a declined run and starts nothing', async () => {
      expect(toolError(await submit('key-decline-0001'))).toMatchObject({ details: { reason: 'approval_required' } });
      const backend = deployment.backend;
      const asAlice = await signedInPerson(backend, { issuer: IDP, subject: 'alice' });
      const pending = RunApprovalList.parse((await api(backend.url, `${BASE}?status=pending`, asAlice())).body);
      await api(
        backend.url,
        `${BASE}/${pending.approvals[0]!.approval_id}`,
        asAlice({ method: 'POST', body: { decision: 'decline' } }),
      );
      const refused = toolError(await submit('key-decline-0001'));
      expect(refused).toMatchObject({ code: 'forbidden', details: { reason: 'declined' } });
      expect(refused.message).toContain('alice declined this run');
      expect(await runsOf()).toHaveLength(1);
    });

    it('holds a yes only for the estimate approved: a node made dearer after it waits for a person again', async () => {
      const backend = deployment.backend;
      const { store } = backend;
      const asAlice = await signedInPerson(backend, { issuer: IDP, subject: 'alice' });
      const runs = (await runsOf()).length;
      expect(toolError(await submit('key-dearer-0001'))).toMatchObject({ details: { reason: 'approval_required' } });
      const pending = RunApprovalList.parse((await api(backend.url, `${BASE}?status=pending`, asAlice())).body);
      const approval = pending.approvals.find((each) => each.status === 'pending')!;
      await api(
        backend.url,
        `${BASE}/${approval.approval_id}`,
        asAlice({ method: 'POST', body: { decision: 'approve' } }),
      );

      // Approved at 1K; then someone makes the picture 4K before the agent retries.
      const data = { displayName: 'Frame 1', prompt: 'a lighthouse', size: '4K', imageUrl: null, aspectRatio: '16:9' };
      const canvas = await store.layout.readCanvas('p1', 'c1');
      const write = { projectId: 'p1', canvasId: 'c1', clientSaveId: null, authorization: SYSTEM_WRITE };
      await store.writes.updateNode({ ...write, baseRevision: canvas!.revision }, 'paid', { data });
      try {
        const again = toolError(await submit('key-dearer-0001'));
        expect(again).toMatchObject({ code: 'forbidden', details: { reason: 'approval_required' } });
        expect(await runsOf()).toHaveLength(runs);
        const listed = RunApprovalList.parse((await api(backend.url, BASE, asAlice())).body);
        const asked = listed.approvals.find((each) => each.approval_id === approval.approval_id)!;
        expect(asked.status).toBe('pending');
        expect(asked.estimate).toBeGreaterThan(approval.estimate);
      } finally {
        const now = await store.layout.readCanvas('p1', 'c1');
        await store.writes.updateNode({ ...write, baseRevision: now!.revision }, 'paid', {
          data: { ...data, size: '1K' },
        });
      }
    });
  });
});
