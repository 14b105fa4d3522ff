import type { Context, Hono } from 'hono';
import {
  SnapshotQuery,
  UndoChatRunBody,
  CanvasId,
  ChangesBody,
  CreateEdgeBody,
  CreateNodeBody,
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyKey,
  NodeId,
  ProjectId,
  ResourceId,
  RevertBody,
  RevisionCheckedBody,
  RunChainId,
  RunId,
  SNAPSHOT_CONTRACT_VERSION,
  SNAPSHOT_VERSION_HEADER,
  UpdateNodeBody,
  PickVersionBody,
  RunVariantsBody,
} from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { Need } from '../../backend/auth/access.js';
import type { CanvasBackend } from '../../backend/backend.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams, type NodeEdits } from '../request-parsing.js';

/** Routes under /api/v2/projects/{project_id}/canvases/{canvas_id} (docs/api.md). */

const CANVAS = '/api/v2/projects/:project_id/canvases/:canvas_id';
const canvasParams = { project_id: ProjectId, canvas_id: CanvasId };

function requireSnapshotVersion(version: string | undefined): void {
  if (version === undefined) {
    throw new CanvasError(
      'contract_error',
      `An unversioned snapshot read is a contract error: send ${SNAPSHOT_VERSION_HEADER}: ${SNAPSHOT_CONTRACT_VERSION}.`,
      { expected_version: SNAPSHOT_CONTRACT_VERSION },
    );
  }
  if (version !== SNAPSHOT_CONTRACT_VERSION) {
    throw new CanvasError(
      'contract_error',
      `Snapshot contract version ${JSON.stringify(version)} is not served; this backend serves ${SNAPSHOT_CONTRACT_VERSION}.`,
      { expected_version: SNAPSHOT_CONTRACT_VERSION, received_version: version },
    );
  }
}

function writeArgs(
  params: { project_id: string; canvas_id: string },
  body: { base_revision: number; client_save_id: string | null },
) {
  return {
    projectId: params.project_id,
    canvasId: params.canvas_id,
    baseRevision: body.base_revision,
    clientSaveId: body.client_save_id,
  };
}

/** Path parameters of a canvas route, after the caller's project rights are checked for `need`. */
async function authorizedCanvas(c: BackendContext, backend: CanvasBackend, need: Need) {
  const params = pathParams(c, canvasParams);
  await backend.authorize(c.get('caller'), params.project_id, need);
  return params;
}

/** How a large body's edits learn the types of the nodes they edit (src/validation/edited-data.ts). */
function nodeEdits(
  c: BackendContext,
  backend: CanvasBackend,
  params: { project_id: string; canvas_id: string },
  nodeId?: string,
): NodeEdits {
  const ref = { projectId: params.project_id, canvasId: params.canvas_id };
  return {
    ...(nodeId === undefined ? {} : { nodeId }),
    typesOf: (nodeIds) => backend.nodeTypes(c.get('caller'), ref, nodeIds),
  };
}

/** A run submission's Idempotency-Key: required from a person, whose click can be sent twice (a double click, a retry). */
function idempotencyKeyOf(c: Context<BackendHttpEnv>): string | null {
  const rawKey = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (rawKey === undefined && c.get('caller').principal.kind === 'session') {
    throw new CanvasError(
      'invalid_arguments',
      'Send an Idempotency-Key header with a run submission (one new key per click).',
      {
        issues: [{ path: 'Idempotency-Key', message: 'is required' }],
      },
    );
  }
  return rawKey === undefined ? null : parseOrThrow(IdempotencyKey, rawKey, ['Idempotency-Key']);
}

export function registerCanvasRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend): void {
  app.get(`${CANVAS}/snapshot`, async (c) => {
    const params = pathParams(c, canvasParams);
    requireSnapshotVersion(c.req.header(SNAPSHOT_VERSION_HEADER));
    const query = parseOrThrow(SnapshotQuery, { include: c.req.query('include') }, ['query']);
    const snapshot = await backend.readSnapshot(
      c.get('caller'),
      { projectId: params.project_id, canvasId: params.canvas_id },
      {
        withElements: query.include?.split(',').includes('elements') ?? false,
        withFreeAreas: query.include?.split(',').includes('free_areas') ?? false,
      },
    );
    // The document's cached bytes with the extras' beside them: nothing large is flattened or encoded per read.
    return c.body(Buffer.concat(snapshot.payload.chunks('json')), 200, {
      'content-type': 'application/json; charset=utf-8',
    });
  });

  // Every write checks the caller's rights before it reads the body: no one without them makes us parse a large one.
  app.post(`${CANVAS}/nodes`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const body = await jsonBody(c, CreateNodeBody);
    const receipt = await backend.createNode(c.get('caller'), { ...writeArgs(params, body), node: body.node });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  app.patch(`${CANVAS}/nodes/:node_id`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { node_id } = pathParams(c, { node_id: NodeId });
    const body = await jsonBody(c, UpdateNodeBody, nodeEdits(c, backend, params, node_id));
    return c.json(
      await backend.updateNode(c.get('caller'), { ...writeArgs(params, body), nodeId: node_id, set: body.set }),
    );
  });

  app.delete(`${CANVAS}/nodes/:node_id`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { node_id } = pathParams(c, { node_id: NodeId });
    const body = await jsonBody(c, RevisionCheckedBody);
    return c.json(await backend.deleteNode(c.get('caller'), { ...writeArgs(params, body), nodeId: node_id }));
  });

  app.post(`${CANVAS}/edges`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const body = await jsonBody(c, CreateEdgeBody);
    const receipt = await backend.createEdge(c.get('caller'), { ...writeArgs(params, body), edge: body.edge });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  app.delete(`${CANVAS}/edges/:edge_id`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { edge_id } = pathParams(c, { edge_id: ResourceId });
    const body = await jsonBody(c, RevisionCheckedBody);
    return c.json(await backend.deleteEdge(c.get('caller'), { ...writeArgs(params, body), edgeId: edge_id }));
  });

  app.post(`${CANVAS}/changes`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const body = await jsonBody(c, ChangesBody, nodeEdits(c, backend, params));
    const receipt = await backend.applyBatch(c.get('caller'), {
      ...writeArgs(params, body),
      operations: body.operations,
    });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  app.post(`${CANVAS}/revert`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const body = await jsonBody(c, RevertBody);
    const receipt = await backend.revert(c.get('caller'), { ...writeArgs(params, body), toRevision: body.to_revision });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  app.post(`${CANVAS}/chat-runs/:chat_run_id/undo`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { chat_run_id } = pathParams(c, { chat_run_id: ResourceId });
    const body = await jsonBody(c, UndoChatRunBody);
    const receipt = await backend.undoChatRun(c.get('caller'), { ...writeArgs(params, body), agentRunId: chat_run_id });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  app.post(`${CANVAS}/nodes/:node_id/runs`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { node_id } = pathParams(c, { node_id: NodeId });
    const idempotencyKey = idempotencyKeyOf(c);
    const { run, replayed } = await backend.submitRun(c.get('caller'), {
      projectId: params.project_id,
      canvasId: params.canvas_id,
      nodeId: node_id,
      idempotencyKey,
    });
    if (replayed) c.header('idempotency-replayed', 'true');
    return c.json(run, replayed ? 200 : 202);
  });

  app.post(`${CANVAS}/nodes/:node_id/runs/variants`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { node_id } = pathParams(c, { node_id: NodeId });
    const idempotencyKey = idempotencyKeyOf(c);
    const body = await jsonBody(c, RunVariantsBody);
    const { runs, replayed } = await backend.submitRunVariants(c.get('caller'), {
      projectId: params.project_id,
      canvasId: params.canvas_id,
      nodeId: node_id,
      idempotencyKey,
      count: body.count,
    });
    if (replayed) c.header('idempotency-replayed', 'true');
    return c.json({ runs }, replayed ? 200 : 202);
  });

  app.post(`${CANVAS}/nodes/:node_id/runs/downstream`, async (c) => {
    const params = await authorizedCanvas(c, backend, 'editor');
    const { node_id } = pathParams(c, { node_id: NodeId });
    const idempotencyKey = idempotencyKeyOf(c);
    const { chain, replayed } = await backend.submitRunChain(c.get('caller'), {
      projectId: params.project_id,
      canvasId: params.canvas_id,
      nodeId: node_id,
      idempotencyKey,
    });
    if (replayed) c.header('idempotency-replayed', 'true');
    return c.json(chain, replayed ? 200 : 202);
  });

  app.get(`${CANVAS}/nodes/:node_id/downstream-estimate`, async (c) => {
    const params = pathParams(c, { ...canvasParams, node_id: NodeId });
    return c.json(
      await backend.estimateChain(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        nodeId: params.node_id,
      }),
    );
  });

  app.get(`${CANVAS}/chains/:chain_id`, async (c) => {
    const params = pathParams(c, { ...canvasParams, chain_id: RunChainId });
    return c.json(
      await backend.getChain(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        chainId: params.chain_id,
      }),
    );
  });

  app.post(`${CANVAS}/chains/:chain_id/cancel`, async (c) => {
    const params = pathParams(c, { ...canvasParams, chain_id: RunChainId });
    return c.json(
      await backend.cancelChain(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        chainId: params.chain_id,
      }),
    );
  });

  app.get(`${CANVAS}/nodes/:node_id/run-estimate`, async (c) => {
    const params = pathParams(c, { ...canvasParams, node_id: NodeId });
    return c.json(
      await backend.estimateRun(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        nodeId: params.node_id,
      }),
    );
  });

  app.get(`${CANVAS}/nodes/:node_id/versions`, async (c) => {
    const params = pathParams(c, { ...canvasParams, node_id: NodeId });
    return c.json(
      await backend.resultVersions(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        nodeId: params.node_id,
      }),
    );
  });

  app.post(`${CANVAS}/nodes/:node_id/versions/:run_id/pick`, async (c) => {
    const params = pathParams(c, { ...canvasParams, node_id: NodeId, run_id: RunId });
    const body = await jsonBody(c, PickVersionBody);
    return c.json(
      await backend.pickVersion(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        nodeId: params.node_id,
        runId: params.run_id,
        baseRevision: body.base_revision,
        clientSaveId: body.client_save_id ?? null,
      }),
    );
  });

  app.get(`${CANVAS}/runs/:run_id`, async (c) => {
    const params = pathParams(c, { ...canvasParams, run_id: RunId });
    return c.json(
      await backend.getRun(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        runId: params.run_id,
      }),
    );
  });

  app.post(`${CANVAS}/runs/:run_id/cancel`, async (c) => {
    const params = pathParams(c, { ...canvasParams, run_id: RunId });
    return c.json(
      await backend.cancelRun(c.get('caller'), {
        projectId: params.project_id,
        canvasId: params.canvas_id,
        runId: params.run_id,
      }),
    );
  });
}

/** Every path this module serves, for 405 answers to other methods. */
export const CANVAS_ROUTE_PATHS = [
  `${CANVAS}/snapshot`,
  `${CANVAS}/nodes`,
  `${CANVAS}/nodes/:node_id`,
  `${CANVAS}/edges`,
  `${CANVAS}/edges/:edge_id`,
  `${CANVAS}/changes`,
  `${CANVAS}/revert`,
  `${CANVAS}/chat-runs/:chat_run_id/undo`,
  `${CANVAS}/nodes/:node_id/runs`,
  `${CANVAS}/nodes/:node_id/run-estimate`,
  `${CANVAS}/nodes/:node_id/runs/variants`,
  `${CANVAS}/nodes/:node_id/runs/downstream`,
  `${CANVAS}/nodes/:node_id/downstream-estimate`,
  `${CANVAS}/chains/:chain_id`,
  `${CANVAS}/chains/:chain_id/cancel`,
  `${CANVAS}/nodes/:node_id/versions`,
  `${CANVAS}/nodes/:node_id/versions/:run_id/pick`,
  `${CANVAS}/runs/:run_id`,
  `${CANVAS}/runs/:run_id/cancel`,
];
