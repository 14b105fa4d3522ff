import type { Hono } from 'hono';
import {
  BatchReceipt,
  ChangesBody,
  CreateEdgeBody,
  CreateEdgeReceipt,
  CreateNodeBody,
  CreateNodeReceipt,
  CanvasSnapshot,
  DeleteEdgeReceipt,
  DeleteNodeReceipt,
  ResourceId,
  RevertBody,
  RevertReceipt,
  RevisionCheckedBody,
  SkillCatalog,
  SNAPSHOT_CONTRACT_VERSION,
  SNAPSHOT_VERSION_HEADER,
  SnapshotQuery,
  UndoChatRunBody,
  UndoChatRunReceipt,
  UpdateNodeBody,
  UpdateNodeReceipt,
} from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Need } from '../../backend/auth/access.js';
import type { CanvasBackend } from '../../backend/canvas/backend.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import type { NodeEdits } from '../request-parsing.js';
import { apiRoute, handle } from '../route-declaration.js';
import {
  AgentRunHeader,
  CANVAS,
  canvasParams,
  canvasRef,
  nodeParams,
  ok,
  SnapshotVersionHeader,
} from '../route-parameters.js';

/** Reading and writing a canvas's layout, under /api/v2/projects/{project_id}/canvases/{canvas_id} (docs/api.md). */

const SKILLS = apiRoute({
  method: 'get',
  path: '/api/v1/zone/skills',
  operationId: 'listSkills',
  summary: 'The skill catalog.',
  tag: 'canvas',
  auth: 'caller',
  responses: { 200: ok('The catalog.', SkillCatalog) },
});

const SNAPSHOT = apiRoute({
  method: 'get',
  path: `${CANVAS}/snapshot`,
  operationId: 'getSnapshot',
  summary: 'The layout and node states of a canvas.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  query: SnapshotQuery,
  headers: SnapshotVersionHeader,
  responses: { 200: ok('The snapshot.', CanvasSnapshot) },
});

const CREATE_NODE = apiRoute({
  method: 'post',
  path: `${CANVAS}/nodes`,
  operationId: 'createNode',
  summary: 'Add one node at base_revision.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  headers: AgentRunHeader,
  body: CreateNodeBody,
  responses: {
    201: ok('Created.', CreateNodeReceipt),
    200: ok('A replay of an identical earlier request.', CreateNodeReceipt),
  },
});

const UPDATE_NODE = apiRoute({
  method: 'patch',
  path: `${CANVAS}/nodes/:node_id`,
  operationId: 'updateNode',
  summary: 'Edit one node.',
  tag: 'canvas',
  auth: 'caller',
  params: nodeParams,
  headers: AgentRunHeader,
  body: UpdateNodeBody,
  responses: { 200: ok('Updated.', UpdateNodeReceipt) },
});

const DELETE_NODE = apiRoute({
  method: 'delete',
  path: `${CANVAS}/nodes/:node_id`,
  operationId: 'deleteNode',
  summary: 'Delete one node and its edges.',
  tag: 'canvas',
  auth: 'caller',
  params: nodeParams,
  headers: AgentRunHeader,
  body: RevisionCheckedBody,
  responses: { 200: ok('Deleted.', DeleteNodeReceipt) },
});

const CREATE_EDGE = apiRoute({
  method: 'post',
  path: `${CANVAS}/edges`,
  operationId: 'createEdge',
  summary: 'Add one edge.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  headers: AgentRunHeader,
  body: CreateEdgeBody,
  responses: {
    201: ok('Created.', CreateEdgeReceipt),
    200: ok('A replay of an identical earlier request.', CreateEdgeReceipt),
  },
});

const DELETE_EDGE = apiRoute({
  method: 'delete',
  path: `${CANVAS}/edges/:edge_id`,
  operationId: 'deleteEdge',
  summary: 'Delete one edge.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams.extend({ edge_id: ResourceId }),
  headers: AgentRunHeader,
  body: RevisionCheckedBody,
  responses: { 200: ok('Deleted.', DeleteEdgeReceipt) },
});

const CHANGES = apiRoute({
  method: 'post',
  path: `${CANVAS}/changes`,
  operationId: 'applyChanges',
  summary: 'An atomic batch of up to 200 operations, as one revision.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  headers: AgentRunHeader,
  body: ChangesBody,
  responses: {
    201: ok('Applied.', BatchReceipt),
    200: ok('A replay of an identical earlier request.', BatchReceipt),
  },
});

const REVERT = apiRoute({
  method: 'post',
  path: `${CANVAS}/revert`,
  operationId: 'revert',
  summary: 'A new revision whose layout equals an earlier one.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  headers: AgentRunHeader,
  body: RevertBody,
  responses: {
    201: ok('Reverted.', RevertReceipt),
    200: ok('A replay of an identical earlier request.', RevertReceipt),
  },
});

const UNDO_CHAT_RUN = apiRoute({
  method: 'post',
  path: `${CANVAS}/chat-runs/:chat_run_id/undo`,
  operationId: 'undoChatRun',
  summary:
    'Undo what one chat run (a conversation, a connection) changed on the canvas (editors), as one revision; what others changed after it is kept and listed.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams.extend({ chat_run_id: ResourceId }),
  body: UndoChatRunBody,
  responses: {
    201: ok('Undone.', UndoChatRunReceipt),
    200: ok('A replay of an identical earlier request.', UndoChatRunReceipt),
  },
});

export const CANVAS_ROUTES = [
  SKILLS,
  SNAPSHOT,
  CREATE_NODE,
  UPDATE_NODE,
  DELETE_NODE,
  CREATE_EDGE,
  DELETE_EDGE,
  CHANGES,
  REVERT,
  UNDO_CHAT_RUN,
];

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
  return { ...canvasRef(params), baseRevision: body.base_revision, clientSaveId: body.client_save_id };
}

/** A route's canvas, once the caller's project rights are checked for `need` (before anything else is read). */
export async function authorizedCanvas<P extends { project_id: string; canvas_id: string }>(
  c: BackendContext,
  backend: CanvasBackend,
  params: P,
  need: Need,
): Promise<P> {
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
  const ref = canvasRef(params);
  return {
    ...(nodeId === undefined ? {} : { nodeId }),
    typesOf: (nodeIds) => backend.nodeTypes(c.get('caller'), ref, nodeIds),
  };
}

export function registerCanvasRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend): void {
  handle(app, SKILLS, async (c) => c.json(await backend.listSkills(c.get('caller'))));

  handle(app, SNAPSHOT, async (c, input) => {
    const params = input.params();
    requireSnapshotVersion(c.req.header(SNAPSHOT_VERSION_HEADER));
    const query = input.namedQuery();
    const snapshot = await backend.readSnapshot(c.get('caller'), canvasRef(params), {
      withElements: query.include?.split(',').includes('elements') ?? false,
      withFreeAreas: query.include?.split(',').includes('free_areas') ?? false,
    });
    // The document's cached bytes with the extras' beside them, written as they are: nothing large is flattened,
    // encoded or copied per read (joining a 10 MB layout's chunks into one buffer held the event loop 45 ms).
    const chunks = snapshot.payload.chunks('json');
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return c.body(body, 200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(length),
    });
  });

  // Every write checks the caller's rights before it reads the body: no one without them makes us parse a large one.
  handle(app, CREATE_NODE, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params(), 'editor');
    const body = await input.body();
    const receipt = await backend.createNode(c.get('caller'), { ...writeArgs(params, body), node: body.node });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  handle(app, UPDATE_NODE, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { node_id } = input.params('node_id');
    const body = await input.body(nodeEdits(c, backend, params, node_id));
    return c.json(
      await backend.updateNode(c.get('caller'), { ...writeArgs(params, body), nodeId: node_id, set: body.set }),
    );
  });

  handle(app, DELETE_NODE, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { node_id } = input.params('node_id');
    const body = await input.body();
    return c.json(await backend.deleteNode(c.get('caller'), { ...writeArgs(params, body), nodeId: node_id }));
  });

  handle(app, CREATE_EDGE, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params(), 'editor');
    const body = await input.body();
    const receipt = await backend.createEdge(c.get('caller'), { ...writeArgs(params, body), edge: body.edge });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  handle(app, DELETE_EDGE, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { edge_id } = input.params('edge_id');
    const body = await input.body();
    return c.json(await backend.deleteEdge(c.get('caller'), { ...writeArgs(params, body), edgeId: edge_id }));
  });

  handle(app, CHANGES, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params(), 'editor');
    const body = await input.body(nodeEdits(c, backend, params));
    const receipt = await backend.applyBatch(c.get('caller'), {
      ...writeArgs(params, body),
      operations: body.operations,
    });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  handle(app, REVERT, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params(), 'editor');
    const body = await input.body();
    const receipt = await backend.revert(c.get('caller'), { ...writeArgs(params, body), toRevision: body.to_revision });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });

  handle(app, UNDO_CHAT_RUN, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { chat_run_id } = input.params('chat_run_id');
    const body = await input.body();
    const receipt = await backend.undoChatRun(c.get('caller'), { ...writeArgs(params, body), agentRunId: chat_run_id });
    return c.json(receipt, receipt.replayed ? 200 : 201);
  });
}
