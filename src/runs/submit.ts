import type { NodeRun } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import type { NewRun } from '../store/run-store.js';
import type { Store } from '../store/store.js';
import type { CanvasNode } from '../contract/index.js';
import { RunOutputs } from '../store/run-rows.js';
import { assetIdOfUrl, pendingResources, planRun, type RunContext } from './operations.js';
import { DEFAULT_PRICING, type RunPricing } from './pricing.js';
import { inputsHashOf, planChain, upstreamResults, type ChainPlan } from './chain-plan.js';
import type { RunChain } from '../contract/index.js';
import { ID_PREFIX, newId } from '../shared/ids.js';
import { runReferences } from './run-references.js';
import type { StartFrom } from '../contract/index.js';
import { LOCAL_RUN_MODELS, type RunModels } from './run-models.js';
import { shotFrames } from './shot-frames.js';

/** Submits a run for one node: the one path used by the backend route, the hidden tool and the admin CLI. */
export interface RunSubmission {
  projectId: string;
  canvasId: string;
  nodeId: string;
  idempotencyKey: string | null;
  triggeredBy: { kind: 'user' | 'agent' | 'system'; name: string | null };
  maxAttempts?: number;
  /** The estimate of a planned run (src/runs/pricing.ts); the node type's price when absent. */
  pricing?: RunPricing;
  /** The most this run may be estimated at: what a person confirmed; a dearer run is refused, nothing charged. */
  costCeiling?: number;
  /** What the models runs go to accept (src/runs/run-models.ts); every operation on the local provider when absent. */
  models?: RunModels;
  /** A video run of a shot: where it starts (docs/storyboards.md, "Continuity"). */
  startFrom?: StartFrom;
}

/** Refused when the canvas is gone or locked read-only: no run starts there. */
async function requireOpenCanvas(store: Store, projectId: string, canvasId: string): Promise<void> {
  const canvas = await store.layout.readCanvas(projectId, canvasId);
  if (!canvas) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
  if (canvas.locked)
    throw new CanvasError('canvas_locked', `Canvas ${canvasId} is locked read-only; no run can be submitted.`);
}

/** The node as stored now and the run its data asks for; refused when the canvas is locked or the node is gone. */
async function plannedRun(store: Store, submission: RunSubmission) {
  await requireOpenCanvas(store, submission.projectId, submission.canvasId);
  const stored = await store.layout.readNode(submission.projectId, submission.canvasId, submission.nodeId);
  if (!stored)
    throw new CanvasError('not_found', `No node with id ${JSON.stringify(submission.nodeId)} on this canvas.`);
  const plan = planRun(
    stored.node,
    await runContextFor(store, submission.projectId, submission.canvasId, stored.node, {
      models: submission.models,
      startFrom: submission.startFrom,
    }),
  );
  const cost = (submission.pricing ?? DEFAULT_PRICING)(plan);
  if (submission.costCeiling !== undefined && cost > submission.costCeiling)
    throw new CanvasError(
      'forbidden',
      `This run now costs about ${cost} credits, more than the ${submission.costCeiling} a person confirmed: nothing was started or charged. Submit again to ask them.`,
      { reason: 'spend_not_confirmed', estimate: cost, confirmed: submission.costCeiling },
    );
  const upstream = await upstreamResults(store, submission.projectId, submission.canvasId, submission.nodeId);
  const newRun = (input: Record<string, unknown>, idempotencyKey: string | null): NewRun => ({
    projectId: submission.projectId,
    canvasId: submission.canvasId,
    nodeId: submission.nodeId,
    nodeSeq: stored.seq,
    operation: plan.operation,
    skillId: plan.skillId,
    input,
    costEstimated: cost,
    triggeredBy: submission.triggeredBy,
    idempotencyKey,
    resources: pendingResources(plan),
    maxAttempts: submission.maxAttempts ?? 3,
    inputsHash: inputsHashOf({ ...plan, input }, upstream),
  });
  return { plan, newRun };
}

export async function submitNodeRun(
  store: Store,
  submission: RunSubmission,
): Promise<{ run: NodeRun; replayed: boolean }> {
  const { plan, newRun } = await plannedRun(store, submission);
  return store.runs.createRun(newRun(plan.input, submission.idempotencyKey));
}

/**
 * N variants of one node in one request (docs/runs.md, "Run ×N"): N runs, each its own record and version, created
 * together or not at all (the budget must cover all of them). Each variant's input names its number, so they differ
 * (the local provider's output is derived from the input) and so do their input hashes; with an idempotency key K,
 * the variants are keyed K#1 … K#N, and the same request again answers the same runs.
 */
export async function submitNodeRunVariants(
  store: Store,
  submission: RunSubmission & { count: number },
): Promise<{ runs: NodeRun[]; replayed: boolean }> {
  const { plan, newRun } = await plannedRun(store, submission);
  const key = submission.idempotencyKey;
  if (
    key !== null &&
    (await store.runs.keyUsed(submission.projectId, submission.canvasId, `${key}#${submission.count + 1}`))
  ) {
    throw new CanvasError(
      'idempotency_mismatch',
      'This Idempotency-Key was already used for more variants; use a new key for a new request.',
      { idempotency_key: key },
    );
  }
  const created = await store.runs.createRuns(
    Array.from({ length: submission.count }, (_, index) =>
      newRun({ ...plan.input, variant: index + 1 }, key === null ? null : `${key}#${index + 1}`),
    ),
  );
  return { runs: created.map((entry) => entry.run), replayed: created.every((entry) => entry.replayed) };
}

/**
 * The assets a run reads besides its node's data: for an audio trim, the audio of the node connected to it; for a
 * generation, its elements' reference pictures (as many as its model takes) and, for a video run of a shot, its
 * frames.
 */
export async function runContextFor(
  store: Store,
  projectId: string,
  canvasId: string,
  node: CanvasNode,
  options: { models?: RunModels | undefined; startFrom?: StartFrom | undefined } = {},
): Promise<RunContext> {
  const existing = async (assetId: string | null) =>
    assetId && (await store.assets.getAsset(assetId)) ? assetId : null;
  const assetIdOf = (url: string | null | undefined) => assetIdOfUrl(url);
  if (node.type !== 'audioTrimNode') {
    const model = (options.models ?? LOCAL_RUN_MODELS).of(planRun(node).operation);
    const references = await runReferences(store, projectId, canvasId, node);
    // A model that takes references is sent at most as many as it takes, and the record says so.
    const most = model.accepts.references;
    return {
      assetIdOf,
      sourceAudioAssetId: null,
      references:
        references && most > 0 ? { ...references, asset_ids: references.asset_ids.slice(0, most) } : references,
      frames: await shotFrames(store, projectId, canvasId, node, model, options.startFrom),
    };
  }
  const latestRuns = new Map((await store.runs.latestRunsByNode(projectId, canvasId)).map((row) => [row.node_id, row]));
  for (const sourceId of await store.layout.edgeSources(projectId, canvasId, node.id)) {
    const source = (await store.layout.readNode(projectId, canvasId, sourceId))?.node;
    if (!source || (source.type !== 'audioNode' && source.type !== 'audioTrimNode')) continue;
    const fromData = assetIdOfUrl(source.type === 'audioNode' ? source.data.audioUrl : source.data.resultAudioUrl);
    const run = latestRuns.get(sourceId);
    const fromRun =
      run?.status === 'succeeded'
        ? (RunOutputs.parse(JSON.parse(run.outputs)).find((output) => output.kind === 'audio')?.asset_id ?? null)
        : null;
    const sourceAudioAssetId = (await existing(fromData)) ?? (await existing(fromRun));
    if (sourceAudioAssetId) return { assetIdOf, sourceAudioAssetId };
  }
  return { assetIdOf, sourceAudioAssetId: null };
}

/**
 * "Run from here" (docs/runs.md, "Downstream chains"): the node and everything downstream of it, each step its own run,
 * cached steps skipped; written whole or refused whole (the budget must cover every step that runs). With an
 * idempotency key, the same request again answers the same chain.
 */
export async function submitRunChain(
  store: Store,
  submission: RunSubmission,
): Promise<{ chain: RunChain; replayed: boolean }> {
  // A repeated request answers its chain even if the canvas changed since (locked, the root deleted).
  const replayed = await store.chains.replay({ ...submission, rootNodeId: submission.nodeId });
  if (replayed) return { chain: replayed, replayed: true };
  await requireOpenCanvas(store, submission.projectId, submission.canvasId);
  const plan = await planChain(
    store,
    submission.projectId,
    submission.canvasId,
    submission.nodeId,
    submission.pricing ?? DEFAULT_PRICING,
    submission.models,
  );
  const chainId = newId(ID_PREFIX.runChain);
  return store.chains.create(
    {
      id: chainId,
      projectId: submission.projectId,
      canvasId: submission.canvasId,
      rootNodeId: submission.nodeId,
      steps: plan.steps.map((step) => ({
        node_id: step.nodeId,
        run_id: step.runId,
        cached_run_id: step.cachedRunId,
        waits_for: step.waitsForNodes,
      })),
      idempotencyKey: submission.idempotencyKey,
      triggeredBy: submission.triggeredBy,
    },
    chainRuns(plan, chainId, submission),
  );
}

function chainRuns(plan: ChainPlan, chainId: string, submission: RunSubmission): NewRun[] {
  return plan.steps.flatMap((step) =>
    step.runId === null
      ? []
      : [
          {
            id: step.runId,
            projectId: submission.projectId,
            canvasId: submission.canvasId,
            nodeId: step.nodeId,
            nodeSeq: step.nodeSeq,
            operation: step.plan.operation,
            skillId: step.plan.skillId,
            input: step.plan.input,
            costEstimated: step.cost,
            triggeredBy: submission.triggeredBy,
            idempotencyKey: null,
            resources: step.resources,
            maxAttempts: submission.maxAttempts ?? 3,
            chainId,
            dependsOn: step.waitsForRuns,
            inputsHash: step.inputsHash,
          },
        ],
  );
}
