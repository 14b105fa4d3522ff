import type { Hono } from 'hono';
import {
  CancelRunResult,
  ChainEstimate,
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyKey,
  NodeRun,
  PickVersionBody,
  ResultVersionList,
  RunChain,
  RunChainId,
  RunEstimate,
  RunId,
  RunModelList,
  RunVariants,
  SubmitRunQuery,
  RunVariantsBody,
  UpdateNodeReceipt,
} from '../../contract/index.js';
import { CanvasError, parseOrThrow } from '../../shared/errors.js';
import type { CanvasBackend } from '../../backend/canvas/backend.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { AgentRunHeader, CANVAS, canvasParams, canvasRef, nodeParams, ok, runParams } from '../route-parameters.js';
import { authorizedCanvas } from './canvas.js';

/** Node runs under a canvas: submitting them (one, ×N, downstream), their estimates, chains, versions (docs/runs.md). */

/** A submission's Idempotency-Key header, described for what it keys. */
const idempotencyHeader = (description: string) =>
  AgentRunHeader.extend({ 'idempotency-key': IdempotencyKey.optional().meta({ description }) });
const chainParams = canvasParams.extend({ chain_id: RunChainId });

const RUN_MODELS = apiRoute({
  method: 'get',
  path: '/api/v1/run-models',
  operationId: 'listRunModels',
  summary:
    'Which model each run operation goes to here, and what it accepts: a first frame, a last frame, how many reference pictures, camera control.',
  tag: 'runs',
  auth: 'caller',
  responses: { 200: ok('The models.', RunModelList) },
});

const SUBMIT = apiRoute({
  method: 'post',
  path: `${CANVAS}/nodes/:node_id/runs`,
  operationId: 'submitRun',
  summary: 'Run a node.',
  tag: 'runs',
  auth: 'caller',
  params: nodeParams,
  query: SubmitRunQuery,
  headers: idempotencyHeader('The same key and input return the same run (required for a session).'),
  responses: {
    202: ok('Queued.', NodeRun),
    200: { ...ok('A replay: the run this key already made.', NodeRun), headers: { 'idempotency-replayed': 'true' } },
  },
});

const SUBMIT_VARIANTS = apiRoute({
  method: 'post',
  path: `${CANVAS}/nodes/:node_id/runs/variants`,
  operationId: 'submitRunVariants',
  summary: 'Run ×N: N variants of a node, each its own run and version, all or none (the budget must cover all).',
  tag: 'runs',
  auth: 'caller',
  params: nodeParams,
  headers: idempotencyHeader(
    'Keys the variants K#1 … K#N: the same key and count return the same runs (required for a session).',
  ),
  body: RunVariantsBody,
  responses: {
    202: ok('Queued.', RunVariants),
    200: {
      ...ok('A replay: the runs this key already made.', RunVariants),
      headers: { 'idempotency-replayed': 'true' },
    },
  },
});

const SUBMIT_CHAIN = apiRoute({
  method: 'post',
  path: `${CANVAS}/nodes/:node_id/runs/downstream`,
  operationId: 'submitRunChain',
  summary:
    'Run from here: the node and every node downstream of it along edges, in dependency order, each its own run; a node whose inputs are unchanged since its last success is cached (not run, not charged). All or none: the budget must cover every step that runs.',
  tag: 'runs',
  auth: 'caller',
  params: nodeParams,
  headers: idempotencyHeader('The same key from the same node returns the same chain (required for a session).'),
  responses: {
    202: ok('Queued.', RunChain),
    200: {
      ...ok('A replay: the chain this key already made.', RunChain),
      headers: { 'idempotency-replayed': 'true' },
    },
  },
});

const CHAIN_ESTIMATE = apiRoute({
  method: 'get',
  path: `${CANVAS}/nodes/:node_id/downstream-estimate`,
  operationId: 'estimateRunChain',
  summary: 'What Run from here would run and skip (cached), its whole cost, and whether the budget covers it.',
  tag: 'runs',
  auth: 'caller',
  params: nodeParams,
  responses: { 200: ok('The estimate.', ChainEstimate) },
});

const CHAIN = apiRoute({
  method: 'get',
  path: `${CANVAS}/chains/:chain_id`,
  operationId: 'getRunChain',
  summary: 'A downstream chain: each step cached or its run status, and the cost.',
  tag: 'runs',
  auth: 'caller',
  params: chainParams,
  responses: { 200: ok('The chain.', RunChain) },
});

const CANCEL_CHAIN = apiRoute({
  method: 'post',
  path: `${CANVAS}/chains/:chain_id/cancel`,
  operationId: 'cancelRunChain',
  summary: 'One cancel for the whole chain: queued steps are cancelled at once, running ones asked to stop.',
  tag: 'runs',
  auth: 'caller',
  params: chainParams,
  responses: { 200: ok('The chain after the cancel.', RunChain) },
});

const RUN_ESTIMATE = apiRoute({
  method: 'get',
  path: `${CANVAS}/nodes/:node_id/run-estimate`,
  operationId: 'estimateRun',
  summary: 'What a run of the node would cost, and the budget left.',
  tag: 'runs',
  auth: 'caller',
  params: nodeParams,
  responses: { 200: ok('The estimate.', RunEstimate) },
});

const VERSIONS = apiRoute({
  method: 'get',
  path: `${CANVAS}/nodes/:node_id/versions`,
  operationId: 'listResultVersions',
  summary: "The node's result versions (its succeeded runs), oldest first, the current one marked.",
  tag: 'runs',
  auth: 'caller',
  params: nodeParams,
  responses: { 200: ok('The versions.', ResultVersionList) },
});

const PICK_VERSION = apiRoute({
  method: 'post',
  path: `${CANVAS}/nodes/:node_id/versions/:run_id/pick`,
  operationId: 'pickResultVersion',
  summary:
    "Make a version the node's current result: a layout write (history, feed, revert) naming the run in externalRunId and its output in the type's result field.",
  tag: 'runs',
  auth: 'caller',
  params: nodeParams.extend({ run_id: RunId }),
  headers: AgentRunHeader,
  body: PickVersionBody,
  responses: { 200: ok('The write.', UpdateNodeReceipt) },
});

const RUN = apiRoute({
  method: 'get',
  path: `${CANVAS}/runs/:run_id`,
  operationId: 'getRun',
  summary: 'The record of one node run.',
  tag: 'runs',
  auth: 'caller',
  params: runParams,
  responses: { 200: ok('The run.', NodeRun) },
});

const CANCEL_RUN = apiRoute({
  method: 'post',
  path: `${CANVAS}/runs/:run_id/cancel`,
  operationId: 'cancelRun',
  summary: 'Request cancellation of an active run.',
  tag: 'runs',
  auth: 'caller',
  params: runParams,
  responses: { 200: ok('cancel_requested, or the terminal status the run already had.', CancelRunResult) },
});

export const RUN_ROUTES = [
  RUN_MODELS,
  SUBMIT,
  RUN_ESTIMATE,
  SUBMIT_VARIANTS,
  SUBMIT_CHAIN,
  CHAIN_ESTIMATE,
  CHAIN,
  CANCEL_CHAIN,
  VERSIONS,
  PICK_VERSION,
  RUN,
  CANCEL_RUN,
];

/** A run submission's Idempotency-Key: required from a person, whose click can be sent twice (a double click, a retry). */
function idempotencyKeyOf(c: BackendContext): string | null {
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

export function registerRunRoutes(app: Hono<BackendHttpEnv>, backend: CanvasBackend): void {
  handle(app, RUN_MODELS, async (c) => c.json(await backend.listRunModels(c.get('caller'))));

  handle(app, SUBMIT, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { node_id } = input.params('node_id');
    const { start_from } = input.query();
    const idempotencyKey = idempotencyKeyOf(c);
    const { run, replayed } = await backend.submitRun(c.get('caller'), {
      ...canvasRef(params),
      nodeId: node_id,
      idempotencyKey,
      ...(start_from ? { startFrom: start_from } : {}),
    });
    if (replayed) c.header('idempotency-replayed', 'true');
    return c.json(run, replayed ? 200 : 202);
  });

  handle(app, SUBMIT_VARIANTS, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { node_id } = input.params('node_id');
    const idempotencyKey = idempotencyKeyOf(c);
    const body = await input.body();
    const { runs, replayed } = await backend.submitRunVariants(c.get('caller'), {
      ...canvasRef(params),
      nodeId: node_id,
      idempotencyKey,
      count: body.count,
    });
    if (replayed) c.header('idempotency-replayed', 'true');
    return c.json({ runs }, replayed ? 200 : 202);
  });

  handle(app, SUBMIT_CHAIN, async (c, input) => {
    const params = await authorizedCanvas(c, backend, input.params('project_id', 'canvas_id'), 'editor');
    const { node_id } = input.params('node_id');
    const idempotencyKey = idempotencyKeyOf(c);
    const { chain, replayed } = await backend.submitRunChain(c.get('caller'), {
      ...canvasRef(params),
      nodeId: node_id,
      idempotencyKey,
    });
    if (replayed) c.header('idempotency-replayed', 'true');
    return c.json(chain, replayed ? 200 : 202);
  });

  handle(app, CHAIN_ESTIMATE, async (c, input) => {
    const params = input.params();
    return c.json(await backend.estimateChain(c.get('caller'), { ...canvasRef(params), nodeId: params.node_id }));
  });

  handle(app, CHAIN, async (c, input) => {
    const params = input.params();
    return c.json(await backend.getChain(c.get('caller'), { ...canvasRef(params), chainId: params.chain_id }));
  });

  handle(app, CANCEL_CHAIN, async (c, input) => {
    const params = input.params();
    return c.json(await backend.cancelChain(c.get('caller'), { ...canvasRef(params), chainId: params.chain_id }));
  });

  handle(app, RUN_ESTIMATE, async (c, input) => {
    const params = input.params();
    return c.json(await backend.estimateRun(c.get('caller'), { ...canvasRef(params), nodeId: params.node_id }));
  });

  handle(app, VERSIONS, async (c, input) => {
    const params = input.params();
    return c.json(await backend.resultVersions(c.get('caller'), { ...canvasRef(params), nodeId: params.node_id }));
  });

  handle(app, PICK_VERSION, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(
      await backend.pickVersion(c.get('caller'), {
        ...canvasRef(params),
        nodeId: params.node_id,
        runId: params.run_id,
        baseRevision: body.base_revision,
        clientSaveId: body.client_save_id ?? null,
      }),
    );
  });

  handle(app, RUN, async (c, input) => {
    const params = input.params();
    return c.json(await backend.getRun(c.get('caller'), { ...canvasRef(params), runId: params.run_id }));
  });

  handle(app, CANCEL_RUN, async (c, input) => {
    const params = input.params();
    return c.json(await backend.cancelRun(c.get('caller'), { ...canvasRef(params), runId: params.run_id }));
  });
}
