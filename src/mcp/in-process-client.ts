import { resolveCaller } from '../backend/auth/caller.js';
import { authenticateSecret } from '../backend/auth/principal.js';
import { reachableProjects } from '../backend/team/reachable-projects.js';
import { CanvasError } from '../shared/errors.js';
import { tidyCanvas } from '../backend/canvas/tidy.js';
import { readBoardImage } from '../backend/deliverables/board-image.js';
import type { Services } from '../backend/services.js';
import { jsonPayload } from '../shared/json-payload.js';
import type { BackendClient, ToolCaller } from './backend-client.js';

/**
 * The tool server and the backend in one process: tool calls go straight to the process's services
 * (src/backend/services.ts), the same objects the REST API registers.
 */
export function createInProcessClient(services: Services, clock: () => number = Date.now): BackendClient {
  const { canvas: backend, exports, boardImages, review, runApprovals: approvals } = services;
  const threads = () => review.threads;
  const { store } = backend;
  const context = (caller: ToolCaller) => resolveCaller(caller.principal, caller.identity, caller.requestId);
  /**
   * The review tools' caller: through an OAuth connection, the tool sets are the connection's (an owner enables them on
   * it), which the dispatcher already checked; the backend checks the same ones again.
   */
  const reviewContext = (caller: ToolCaller) =>
    caller.connector
      ? resolveCaller(
          { ...caller.principal, toolSets: caller.connector.grant.toolSets ?? [] },
          caller.identity,
          caller.requestId,
        )
      : context(caller);
  const canvas = (args: { project_id: string; canvas_id: string }) => ({
    projectId: args.project_id,
    canvasId: args.canvas_id,
  });
  const revisionChecked = (args: {
    project_id: string;
    canvas_id: string;
    base_revision: number;
    client_save_id: string | null;
  }) => ({
    ...canvas(args),
    baseRevision: args.base_revision,
    clientSaveId: args.client_save_id,
  });

  return {
    mode: 'in-process',
    // Only agent tokens, the ones issued for the tool server, open /mcp (spec: Authentication 2).
    authenticate: (token) => authenticateSecret(store, token, clock(), ['agent']),
    authorize: async (caller, projectId, need) => {
      await backend.authorize(context(caller), projectId, need);
    },
    listSkills: async (caller) => jsonPayload(await backend.listSkills(context(caller))),
    reachableProjects: (caller) => reachableProjects(store, context(caller)),
    getCanvas: async (caller, args) =>
      (await backend.readSnapshot(context(caller), canvas(args), { withElements: true, withFreeAreas: true })).payload,
    createNode: async (caller, args) =>
      jsonPayload(await backend.createNode(context(caller), { ...revisionChecked(args), node: args.node })),
    createEdge: async (caller, args) =>
      jsonPayload(await backend.createEdge(context(caller), { ...revisionChecked(args), edge: args.edge })),
    applyChanges: async (caller, args) =>
      jsonPayload(await backend.applyBatch(context(caller), { ...revisionChecked(args), operations: args.operations })),
    exportBoard: async (caller, args) => jsonPayload(await exports.create(context(caller), canvas(args), args.export)),
    getExport: async (caller, args) => jsonPayload(await exports.get(context(caller), canvas(args), args.export_id)),
    cancelExport: async (caller, args) =>
      jsonPayload(await exports.cancel(context(caller), canvas(args), args.export_id)),
    askRunApproval: (caller, args) =>
      approvals.ask(context(caller), canvas(args), { node_id: args.node_id, idempotency_key: args.idempotency_key }),
    tidyCanvas: async (caller, args) => {
      const { project_id: _project, canvas_id: _canvas, ...body } = args;
      return jsonPayload(await tidyCanvas(backend, context(caller), canvas(args), body));
    },
    replyToComment: async (caller, args) =>
      jsonPayload(await threads().reply(reviewContext(caller), canvas(args), args.thread_id, { body: args.body })),
    resolveCommentThread: async (caller, args) =>
      jsonPayload(await threads().setStatus(reviewContext(caller), canvas(args), args.thread_id, args.status)),
    listThreads: (caller, args) =>
      threads().list(context(caller), canvas(args), {
        filter: args.filter,
        ...(args.node_id === undefined ? {} : { node_id: args.node_id }),
      }),
    estimateRun: async (caller, args) =>
      jsonPayload(await backend.estimateRun(context(caller), { ...canvas(args), nodeId: args.node_id })),
    deleteNode: async (caller, args) =>
      jsonPayload(await backend.deleteNode(context(caller), { ...revisionChecked(args), nodeId: args.node_id })),
    getRun: async (caller, args) =>
      jsonPayload(await backend.getRun(context(caller), { ...canvas(args), runId: args.run_id })),
    cancelRun: async (caller, args) =>
      jsonPayload(await backend.cancelRun(context(caller), { ...canvas(args), runId: args.run_id })),
    submitRun: async (caller, args) =>
      jsonPayload(
        (
          await backend.submitRun(context(caller), {
            ...canvas(args),
            nodeId: args.node_id,
            idempotencyKey: args.idempotency_key ?? null,
            ...(caller.spendCeiling !== undefined ? { costCeiling: caller.spendCeiling } : {}),
          })
        ).run,
      ),
    async canvasHistory(caller, args) {
      await backend.authorize(context(caller), args.project_id, 'viewer');
      const revisions = await store.history.history(args.project_id, args.canvas_id, args.before, args.limit);
      const oldest = revisions.at(-1)?.revision ?? null;
      return {
        revisions,
        next_before: oldest !== null && oldest > 1 && revisions.length === args.limit ? oldest : null,
      };
    },
    shotDrawing: (caller, args) => services.drawings.read(context(caller), canvas(args), args.node_id, args.shot_id),
    async boardImage(caller, args) {
      return readBoardImage(backend, boardImages, context(caller), canvas(args), args.view);
    },
    async assetSizes(outputs) {
      const sizes = new Map<string, number>();
      for (const { assetId } of outputs) {
        const asset = await store.assets.getAsset(assetId);
        if (asset) sizes.set(assetId, asset.byteSize);
      }
      return sizes;
    },
    async ready() {
      try {
        await store.ping();
      } catch {
        throw new CanvasError('unavailable', 'The store is unreachable.');
      }
    },
  };
}
