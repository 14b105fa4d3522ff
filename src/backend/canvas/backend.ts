import type {
  BatchReceipt,
  CancelRunResult,
  CanvasEdge,
  ChainEstimate,
  CanvasNode,
  CreateEdgeReceipt,
  CreateNodeReceipt,
  DeleteEdgeReceipt,
  DeleteNodeReceipt,
  LayoutOperation,
  NodeRun,
  NodeUpdate,
  ResultVersionList,
  RevertReceipt,
  UndoChatRunReceipt,
  RunChain,
  RunEstimate,
  SkillCatalog,
  UpdateNodeReceipt,
  CanvasRef,
  RunModelList,
  StartFrom,
} from '../../contract/index.js';
import type { AssetSigner } from '../../assets/url-signing.js';
import { editAuthorizationRefusal } from '../../store/edit-authorization.js';
import { cachedPayload, withMembers, type JsonPayload } from '../../shared/json-payload.js';
import { CanvasError } from '../../shared/errors.js';
import { ID_PREFIX } from '../../shared/ids.js';
import { planRun } from '../../runs/operations.js';
import { runContextFor, submitNodeRun, submitNodeRunVariants, submitRunChain } from '../../runs/submit.js';
import { planChain } from '../../runs/chain-plan.js';
import { DEFAULT_PRICING, type RunPricing } from '../../runs/pricing.js';
import { LOCAL_RUN_MODELS, type RunModels } from '../../runs/run-models.js';
import type { WriteTarget } from '../../store/layout-writes/index.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, editAuthorizationOf, requireCanvas, type Need } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { pickedData, versionList } from './result-versions.js';
import { skillCatalog } from './skill-catalog.js';
import type { ElementOperations } from '../storyboard/elements.js';
import { freeAreas } from '../../canvas/free-areas.js';
import { boardImageUri } from '../../shared/canvas-resource-uri.js';
import { createSnapshotReader, type SnapshotRead } from './snapshot/snapshot-reader.js';

/**
 * The canvas backend's operations. Every one checks the caller's rights first; writes also need a canvas edit
 * authorization. The HTTP API and the in-process tool server both call these, so both enforce the same rules.
 */

export interface WriteArgs extends CanvasRef {
  baseRevision: number;
  clientSaveId: string | null;
}

export interface RunRef extends CanvasRef {
  runId: string;
}

/** How the run engine hears about runs it must start (a no-op until an engine is attached). */
export interface RunSignals {
  runQueued(runId: string): void;
  cancelRequested(runId: string): void;
}

export interface BackendOptions {
  store: Store;
  /** Signs the asset URLs of canvas reads and run records (src/assets/url-signing.ts); none: they stay bare paths. */
  signer?: AssetSigner;
  clock?: () => number;
  runSignals?: RunSignals;
  maxCachedCanvases?: number;
  maxRunAttempts?: number;
  /** Run estimates (`--run-prices`, src/runs/pricing.ts); the node types' prices when absent. */
  pricing?: RunPricing;
  /** The models runs go to and what they accept (src/runs/run-models.ts); the local provider's when absent. */
  models?: RunModels;
  /** The project's elements, read into get_canvas (src/backend/services.ts builds them once). */
  elements: ElementOperations;
}

export function createBackend(options: BackendOptions) {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const snapshots = createSnapshotReader(store, { maxCanvases: options.maxCachedCanvases });
  const signals: RunSignals = options.runSignals ?? { runQueued: () => undefined, cancelRequested: () => undefined };
  const signer = options.signer;
  const elementViews = options.elements;
  // Free areas of the canvases agents read, per revision: computed once from the layout, not on every read.
  const freeAreaCache = new Map<string, { revision: number; json: string }>();
  function freeAreasJson(ref: CanvasRef, read: SnapshotRead): string {
    const key = `${ref.projectId}\u0000${ref.canvasId}`;
    const cached = freeAreaCache.get(key);
    if (cached?.revision === read.revision) return cached.json;
    const { layout } = JSON.parse(read.payload.json) as { layout: { nodes: CanvasNode[] } };
    const json = JSON.stringify(freeAreas(layout.nodes));
    freeAreaCache.delete(key);
    freeAreaCache.set(key, { revision: read.revision, json });
    while (freeAreaCache.size > 64) freeAreaCache.delete(freeAreaCache.keys().next().value!);
    return json;
  }
  const withExtras = new WeakMap<
    JsonPayload,
    { freeAreas: string | null; elements: string | null; payload: JsonPayload }
  >();
  const pricing = options.pricing ?? DEFAULT_PRICING;
  const models = options.models ?? LOCAL_RUN_MODELS;
  // A cached canvas document is the same payload on every read: its URLs are signed once per signing window.
  const signedDocuments = new WeakMap<JsonPayload, { expiry: number; payload: JsonPayload }>();
  function signedDocument(payload: JsonPayload): JsonPayload {
    if (!signer) return payload;
    const expiry = signer.expiry();
    const known = signedDocuments.get(payload);
    if (known?.expiry === expiry) return known.payload;
    const json = signer.signJson(payload.json);
    const signed = json === payload.json ? payload : cachedPayload(json);
    signedDocuments.set(payload, { expiry, payload: signed });
    return signed;
  }
  /** A run record with its outputs' URLs signed. */
  const signedRun = (run: NodeRun): NodeRun =>
    signer ? { ...run, outputs: run.outputs.map((output) => ({ ...output, url: signer.sign(output.asset_id) })) } : run;

  /** Project rights here; canvas existence, lock, edit authorization and revision inside the write transaction. */
  async function authorizeWrite(ctx: CallerContext, args: WriteArgs): Promise<WriteTarget> {
    await authorizeProject(store, ctx, args.projectId, 'editor');
    return {
      projectId: args.projectId,
      canvasId: args.canvasId,
      baseRevision: args.baseRevision,
      clientSaveId: args.clientSaveId,
      authorization: editAuthorizationOf(ctx, clock()),
    };
  }

  function runNotFound(ref: RunRef): CanvasError {
    const hint = ref.runId.startsWith(ID_PREFIX.chatRun)
      ? ' It looks like a chat run id (X-Agent-Run-Id); pass the node run id returned when the run was submitted.'
      : '';
    return new CanvasError(
      'not_found',
      `No node run ${ref.runId} on canvas ${ref.canvasId} of project ${ref.projectId}.${hint}`,
    );
  }

  /** Who a run's record says started it: a person (or a token acting for one without a chat run), else an agent. */
  function triggeredByOf(ctx: CallerContext): { kind: 'user' | 'agent'; name: string } {
    const person = ctx.principal.kind === 'session' ? ctx.principal.person : null;
    return {
      kind: person || (ctx.principal.kind === 'backend' && ctx.actor && !ctx.agentRunId) ? 'user' : 'agent',
      name:
        ctx.actor?.subject ??
        (ctx.principal.kind === 'session' ? ctx.principal.person.subject : ctx.principal.tokenName),
    };
  }

  /** A run spends credits: an agent needs the same edit authorization as a layout write (docs/security.md). */
  async function checkRunAuthorization(ctx: CallerContext, ref: CanvasRef): Promise<void> {
    const authorization = editAuthorizationOf(ctx, clock());
    if (authorization.kind !== 'agent') return;
    const chatRun = authorization.agentRunId ? await store.chatRuns.getChatRun(authorization.agentRunId) : undefined;
    const openerRole = chatRun?.openedBy
      ? ((await store.projects.getMemberRole(ref.projectId, chatRun.openedBy)) ?? null)
      : null;
    const refusal = editAuthorizationRefusal(chatRun, authorization, ref.projectId, ref.canvasId, openerRole);
    if (refusal) throw new CanvasError('edit_not_authorized', `No canvas edit authorization: ${refusal}`);
  }

  return {
    store,

    /** Checks the caller's project rights; edges call it before parsing a large body. */
    authorize(ctx: CallerContext, projectId: string, need: Need) {
      return authorizeProject(store, ctx, projectId, need);
    },

    /** The types of those of these nodes that exist: an edge checks the data of a large edit against them. */
    async nodeTypes(ctx: CallerContext, ref: CanvasRef, nodeIds: string[]): Promise<Record<string, string>> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      return store.layout.nodeTypes(ref.projectId, ref.canvasId, nodeIds);
    },

    /** The global skill catalog; a project-scoped caller sees exactly this catalog too. */
    async listSkills(_ctx: CallerContext): Promise<SkillCatalog> {
      return skillCatalog();
    },

    /**
     * The canvas document; with `withElements` (get_canvas), the project's elements beside it. They are not part of
     * the cached document: they change without a canvas revision.
     */
    async readSnapshot(
      ctx: CallerContext,
      ref: CanvasRef,
      options: { withElements?: boolean; withFreeAreas?: boolean } = {},
    ): Promise<SnapshotRead> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      const read = await snapshots.read(ref.projectId, ref.canvasId);
      const payload = signedDocument(read.payload);
      const freeAreas = options.withFreeAreas ? freeAreasJson(ref, read) : null;
      const elements = options.withElements ? await elementViews.listJson(ref.projectId) : null;
      // Added beside the cached document, never by copying it: its escaped text and bytes are reused as they are. The
      // extras are cached strings themselves, so the same extras on the same document are found by identity, and the
      // joined payload is made once.
      const known = withExtras.get(payload);
      if (known && known.freeAreas === freeAreas && known.elements === elements)
        return { ...read, payload: known.payload };
      const extras: string[] = [];
      if (freeAreas !== null)
        extras.push(
          `"free_areas":${freeAreas}`,
          // get_canvas's other extra (docs/contract.md, "The board as a picture"): where to read that picture.
          `"board_image_uri":${JSON.stringify(boardImageUri(ref.projectId, ref.canvasId))}`,
        );
      if (elements !== null) extras.push(`"elements":${elements}`);
      const joined = withMembers(payload, extras.join(','));
      withExtras.set(payload, { freeAreas, elements, payload: joined });
      return { ...read, payload: joined };
    },

    async createNode(ctx: CallerContext, args: WriteArgs & { node: CanvasNode }): Promise<CreateNodeReceipt> {
      return store.writes.createNode(await authorizeWrite(ctx, args), args.node);
    },

    async updateNode(
      ctx: CallerContext,
      args: WriteArgs & { nodeId: string; set: NodeUpdate },
    ): Promise<UpdateNodeReceipt> {
      return store.writes.updateNode(await authorizeWrite(ctx, args), args.nodeId, args.set);
    },

    async deleteNode(ctx: CallerContext, args: WriteArgs & { nodeId: string }): Promise<DeleteNodeReceipt> {
      return store.writes.deleteNode(await authorizeWrite(ctx, args), args.nodeId);
    },

    async createEdge(ctx: CallerContext, args: WriteArgs & { edge: CanvasEdge }): Promise<CreateEdgeReceipt> {
      return store.writes.createEdge(await authorizeWrite(ctx, args), args.edge);
    },

    async deleteEdge(ctx: CallerContext, args: WriteArgs & { edgeId: string }): Promise<DeleteEdgeReceipt> {
      return store.writes.deleteEdge(await authorizeWrite(ctx, args), args.edgeId);
    },

    async applyBatch(ctx: CallerContext, args: WriteArgs & { operations: LayoutOperation[] }): Promise<BatchReceipt> {
      return store.writes.applyBatch(await authorizeWrite(ctx, args), args.operations);
    },

    /** Undoes one chat run's changes on the canvas: a chat run of this canvas only. */
    async undoChatRun(ctx: CallerContext, args: WriteArgs & { agentRunId: string }): Promise<UndoChatRunReceipt> {
      const target = await authorizeWrite(ctx, args);
      const chatRun = await store.chatRuns.getChatRun(args.agentRunId);
      if (!chatRun || chatRun.projectId !== args.projectId || chatRun.canvasId !== args.canvasId)
        throw new CanvasError('not_found', `No chat run ${args.agentRunId} on canvas ${args.canvasId}.`, {
          agent_run_id: args.agentRunId,
        });
      return store.writes.undoChatRun(target, args.agentRunId);
    },

    async revert(ctx: CallerContext, args: WriteArgs & { toRevision: number }): Promise<RevertReceipt> {
      return store.writes.revert(await authorizeWrite(ctx, args), args.toRevision);
    },

    /** Which model each operation runs on here and what it accepts (docs/runs.md, "Model declarations"). */
    async listRunModels(_ctx: CallerContext): Promise<RunModelList> {
      return { models: models.list() };
    },

    async submitRun(
      ctx: CallerContext,
      args: CanvasRef & { nodeId: string; idempotencyKey: string | null; costCeiling?: number; startFrom?: StartFrom },
    ): Promise<{ run: NodeRun; replayed: boolean }> {
      await authorizeProject(store, ctx, args.projectId, 'editor');
      await checkRunAuthorization(ctx, args);
      const result = await submitNodeRun(store, {
        ...args,
        triggeredBy: triggeredByOf(ctx),
        maxAttempts: options.maxRunAttempts,
        pricing,
        models,
      });
      if (!result.replayed) signals.runQueued(result.run.run_id);
      return { ...result, run: signedRun(result.run) };
    },

    /** N variants of a node in one request, all or none (docs/runs.md, "Run ×N"). */
    async submitRunVariants(
      ctx: CallerContext,
      args: CanvasRef & { nodeId: string; idempotencyKey: string | null; count: number },
    ): Promise<{ runs: NodeRun[]; replayed: boolean }> {
      await authorizeProject(store, ctx, args.projectId, 'editor');
      await checkRunAuthorization(ctx, args);
      const result = await submitNodeRunVariants(store, {
        ...args,
        triggeredBy: triggeredByOf(ctx),
        maxAttempts: options.maxRunAttempts,
        pricing,
        models,
      });
      if (!result.replayed) for (const run of result.runs) signals.runQueued(run.run_id);
      return { runs: result.runs.map(signedRun), replayed: result.replayed };
    },

    /** What "Run from here" would run and skip, and what it would cost against the budget (no run is created). */
    async estimateChain(ctx: CallerContext, args: CanvasRef & { nodeId: string }): Promise<ChainEstimate> {
      await authorizeProject(store, ctx, args.projectId, 'viewer');
      const plan = await planChain(store, args.projectId, args.canvasId, args.nodeId, pricing, models);
      const budget = await store.runs.budget(args.projectId);
      const total = plan.steps.reduce((sum, step) => sum + step.cost, 0);
      return {
        root_node_id: args.nodeId,
        steps: plan.steps.map((step) => ({
          node_id: step.nodeId,
          operation: step.plan.operation,
          cached: step.cachedRunId !== null,
          cached_run_id: step.cachedRunId,
          cost: step.cost,
          waits_for: step.waitsForNodes,
        })),
        cost: { unit: 'credits', estimated: total },
        budget: { credits: budget.budget, spent: budget.spent, reserved: budget.reserved, left: budget.left },
        fits_budget: budget.left === null || total <= budget.left,
      };
    },

    /** "Run from here": the node and everything downstream, each its own run, cached steps skipped. */
    async submitRunChain(
      ctx: CallerContext,
      args: CanvasRef & { nodeId: string; idempotencyKey: string | null },
    ): Promise<{ chain: RunChain; replayed: boolean }> {
      await authorizeProject(store, ctx, args.projectId, 'editor');
      await checkRunAuthorization(ctx, args);
      const result = await submitRunChain(store, {
        ...args,
        triggeredBy: triggeredByOf(ctx),
        maxAttempts: options.maxRunAttempts,
        pricing,
        models,
      });
      if (!result.replayed) for (const step of result.chain.steps) if (step.run_id) signals.runQueued(step.run_id);
      return result;
    },

    async getChain(ctx: CallerContext, args: CanvasRef & { chainId: string }): Promise<RunChain> {
      await authorizeProject(store, ctx, args.projectId, 'viewer');
      const chain = await store.chains.read(args.projectId, args.canvasId, args.chainId);
      if (!chain)
        throw new CanvasError(
          'not_found',
          `No chain ${args.chainId} on canvas ${args.canvasId} of project ${args.projectId}.`,
        );
      return chain;
    },

    /** One cancel stops every step of the chain not yet ended; allowed on a locked canvas, like a run's cancel. */
    async cancelChain(ctx: CallerContext, args: CanvasRef & { chainId: string }): Promise<RunChain> {
      await authorizeProject(store, ctx, args.projectId, 'editor');
      await requireCanvas(store, args.projectId, args.canvasId);
      const outcome = await store.chains.cancel(args.projectId, args.canvasId, args.chainId);
      if (!outcome)
        throw new CanvasError(
          'not_found',
          `No chain ${args.chainId} on canvas ${args.canvasId} of project ${args.projectId}.`,
        );
      for (const runId of outcome.signalRuns) signals.cancelRequested(runId);
      return outcome.chain;
    },

    /** A node's result versions, oldest first, with the current one marked (docs/runs.md, "Result versions"). */
    async resultVersions(ctx: CallerContext, args: CanvasRef & { nodeId: string }): Promise<ResultVersionList> {
      await authorizeProject(store, ctx, args.projectId, 'viewer');
      const stored = await store.layout.readNode(args.projectId, args.canvasId, args.nodeId);
      if (!stored) throw new CanvasError('not_found', `No node with id ${JSON.stringify(args.nodeId)} on this canvas.`);
      const runs = await store.versions.ofNode(args.projectId, args.canvasId, args.nodeId);
      // Every node type carries the common fields: externalRunId is the picked version's run.
      const picked = stored.node.data.externalRunId;
      return versionList(args.nodeId, runs, typeof picked === 'string' ? picked : null, signedRun);
    },

    /** Makes a version the node's current result: a layout write, checked like any other. */
    async pickVersion(
      ctx: CallerContext,
      args: WriteArgs & { nodeId: string; runId: string },
    ): Promise<UpdateNodeReceipt> {
      const target = await authorizeWrite(ctx, args);
      const stored = await store.layout.readNode(args.projectId, args.canvasId, args.nodeId);
      if (!stored) throw new CanvasError('not_found', `No node with id ${JSON.stringify(args.nodeId)} on this canvas.`);
      const run = (await store.versions.ofNode(args.projectId, args.canvasId, args.nodeId)).find(
        (candidate) => candidate.id === args.runId,
      );
      if (!run) {
        throw new CanvasError(
          'not_found',
          `Run ${args.runId} is not a version of node ${args.nodeId}: only its succeeded runs are (GET …/nodes/${args.nodeId}/versions).`,
          { field: 'run_id' },
        );
      }
      return store.writes.updateNode(target, args.nodeId, { data: pickedData(stored.node, run, new Date(clock())) });
    },

    /** What running a node would cost and what the project has left (no run is created). */
    async estimateRun(ctx: CallerContext, args: CanvasRef & { nodeId: string }): Promise<RunEstimate> {
      await authorizeProject(store, ctx, args.projectId, 'viewer');
      const stored = await store.layout.readNode(args.projectId, args.canvasId, args.nodeId);
      if (!stored) throw new CanvasError('not_found', `No node with id ${JSON.stringify(args.nodeId)} on this canvas.`);
      const plan = planRun(
        stored.node,
        await runContextFor(store, args.projectId, args.canvasId, stored.node, { models }),
      );
      const budget = await store.runs.budget(args.projectId);
      return {
        node_id: args.nodeId,
        operation: plan.operation,
        cost: { unit: 'credits', estimated: pricing(plan) },
        budget: { credits: budget.budget, spent: budget.spent, reserved: budget.reserved, left: budget.left },
      };
    },

    async getRun(ctx: CallerContext, ref: RunRef): Promise<NodeRun> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const run = await store.runs.getRun(ref.projectId, ref.canvasId, ref.runId);
      if (!run) throw runNotFound(ref);
      // Which result version of its node it produced: a succeeded run of the node that holds the id now.
      const versions =
        run.status === 'succeeded' ? await store.versions.ofNode(ref.projectId, ref.canvasId, run.node_id) : [];
      const index = versions.findIndex((version) => version.id === run.run_id);
      return { ...signedRun(run), version: index === -1 ? null : index + 1 };
    },

    /**
     * Allowed on a locked canvas too, and without a chat run: stopping spend must always be possible
     * (docs/security.md).
     */
    async cancelRun(ctx: CallerContext, ref: RunRef): Promise<CancelRunResult> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const outcome = await store.runs.requestCancel(ref.projectId, ref.canvasId, ref.runId);
      if (!outcome) throw runNotFound(ref);
      if (outcome.signalWorker) signals.cancelRequested(ref.runId);
      return { run_id: ref.runId, status: outcome.status, run: signedRun(outcome.run) };
    },
  };
}

export type CanvasBackend = ReturnType<typeof createBackend>;
