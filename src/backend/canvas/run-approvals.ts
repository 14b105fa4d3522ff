import type { CanvasRef, RunApprovalList, RunApprovalRequestBody, RunApprovalView } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { StoredRunApproval } from '../../store/run-approval-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from './backend.js';

/**
 * Run approvals (docs/contract.md, "Spend confirmation"): an external agent whose client cannot ask
 * its person in the call asks here; a person (never an agent: no token may answer) approves or declines in the canvas;
 * the agent's retry with the same idempotency key then submits the run. Nothing is charged before the yes.
 */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function runApprovalView(approval: StoredRunApproval): RunApprovalView {
  return {
    approval_id: approval.id,
    node_id: approval.node_id,
    agent: approval.agent_name,
    estimate: approval.estimate,
    status: approval.status,
    requested_at: iso(approval.requested_at)!,
    decided_by: approval.decided_by,
    decided_at: iso(approval.decided_at),
  };
}

export function createRunApprovalOperations(store: Store, backend: CanvasBackend) {
  return {
    /** An agent asks (or asks again): the approval of this submission, made pending on its first ask. */
    async ask(ctx: CallerContext, ref: CanvasRef, body: RunApprovalRequestBody): Promise<RunApprovalView> {
      if (ctx.principal.kind === 'session')
        throw new CanvasError('forbidden', 'People start runs themselves: approvals are asked for by agents.');
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const estimate = await backend.estimateRun(ctx, { ...ref, nodeId: body.node_id });
      const approval = await store.runApprovals.ask({
        id: newId('approval_'),
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        nodeId: body.node_id,
        tokenId: ctx.principal.tokenId,
        agentName: ctx.principal.tokenName,
        idempotencyKey: body.idempotency_key,
        estimate: estimate.cost.estimated,
      });
      return runApprovalView(approval);
    },

    async list(ctx: CallerContext, ref: CanvasRef, pendingOnly: boolean): Promise<RunApprovalList> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const approvals = await store.runApprovals.list(ref.projectId, ref.canvasId, pendingOnly ? 'pending' : null);
      return { approvals: approvals.map(runApprovalView) };
    },

    /** A person's yes or no; only people answer, with edit rights on the project. */
    async decide(
      ctx: CallerContext,
      ref: CanvasRef,
      approvalId: string,
      decision: 'approve' | 'decline',
    ): Promise<RunApprovalView> {
      if (ctx.principal.kind !== 'session')
        throw new CanvasError('forbidden', 'Only a person approves a paid run: agents and tokens cannot answer.');
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      const decided = await store.runApprovals.decide(
        ref.projectId,
        ref.canvasId,
        approvalId,
        decision === 'approve' ? 'approved' : 'declined',
        ctx.principal.person.subject,
      );
      const approval = (await store.runApprovals.list(ref.projectId, ref.canvasId, null)).find(
        (each) => each.id === approvalId,
      );
      if (!approval) throw new CanvasError('not_found', `No run approval ${approvalId} on canvas ${ref.canvasId}.`);
      if (!decided && approval.status === 'pending') throw new CanvasError('not_found', 'That approval is gone.');
      return runApprovalView(approval);
    },
  };
}

export type RunApprovalOperations = ReturnType<typeof createRunApprovalOperations>;
