import type { NodeRun } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import type { Store } from '../store/store.js';
import { pendingResources, planRun } from './operations.js';

/** Submits a run for one node: the one path used by the backend route, the hidden tool and the admin CLI. */
export interface RunSubmission {
  projectId: string;
  canvasId: string;
  nodeId: string;
  idempotencyKey: string | null;
  triggeredBy: { kind: 'user' | 'agent' | 'system'; name: string | null };
  maxAttempts?: number;
}

export async function submitNodeRun(store: Store, submission: RunSubmission): Promise<{ run: NodeRun; replayed: boolean }> {
  const canvas = await store.layout.readCanvas(submission.projectId, submission.canvasId);
  if (!canvas) throw new CanvasError('not_found', `No canvas ${submission.canvasId} in project ${submission.projectId}.`);
  if (canvas.locked) {
    throw new CanvasError('canvas_locked', `Canvas ${submission.canvasId} is locked read-only; no run can be submitted.`);
  }
  const stored = await store.layout.readNode(submission.projectId, submission.canvasId, submission.nodeId);
  if (!stored) throw new CanvasError('not_found', `No node with id ${JSON.stringify(submission.nodeId)} on this canvas.`);
  const plan = planRun(stored.node);
  return store.runs.createRun({
    projectId: submission.projectId,
    canvasId: submission.canvasId,
    nodeId: submission.nodeId,
    nodeSeq: stored.seq,
    operation: plan.operation,
    skillId: plan.skillId,
    input: plan.input,
    costEstimated: plan.costEstimated,
    triggeredBy: submission.triggeredBy,
    idempotencyKey: submission.idempotencyKey,
    resources: pendingResources(plan),
    maxAttempts: submission.maxAttempts ?? 3,
  });
}
