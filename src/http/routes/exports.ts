import type { Hono } from 'hono';
import { ErrorBody, ResourceId } from '../../contract/index.js';
import { ExportCreateBody, ExportList, ExportView } from '../../contract/exports.js';
import type { ExportOperations } from '../../backend/deliverables/exports.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/** …/canvases/{canvas_id}/exports: start, list, read and cancel exports of a board. */

const EXPORTS = `${CANVAS}/exports`;
const exportParams = canvasParams.extend({ export_id: ResourceId });

const LIST = apiRoute({
  method: 'get',
  path: EXPORTS,
  operationId: 'listExports',
  summary:
    "The canvas's exports (members), newest first: PDFs, animatics, shot lists and timelines, with download links.",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  responses: { 200: ok('The exports.', ExportList) },
});

const CREATE = apiRoute({
  method: 'post',
  path: EXPORTS,
  operationId: 'createExport',
  summary:
    'Export a storyboard node (editors): a job the workers run, costing no credits; follow it with GET or the change feed.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  body: ExportCreateBody,
  responses: {
    201: ok('Queued.', ExportView),
    429: ok(
      'The person (--exports-per-person) or the project (--exports-per-project) already has that many exports queued or running; details: scope, active, limit.',
      ErrorBody,
    ),
  },
});

const GET = apiRoute({
  method: 'get',
  path: `${EXPORTS}/:export_id`,
  operationId: 'getExport',
  summary: 'One export (members): its progress, and its file once made.',
  tag: 'canvas',
  auth: 'caller',
  params: exportParams,
  responses: { 200: ok('The export.', ExportView) },
});

const CANCEL = apiRoute({
  method: 'post',
  path: `${EXPORTS}/:export_id/cancel`,
  operationId: 'cancelExport',
  summary: 'Stop an export (editors): nothing of it is kept. An export already finished answers as it is.',
  tag: 'canvas',
  auth: 'caller',
  params: exportParams,
  responses: { 200: ok('Cancelled, or as it was.', ExportView) },
});

export const EXPORT_ROUTES = [LIST, CREATE, GET, CANCEL];

export function registerExportRoutes(app: Hono<BackendHttpEnv>, exports: ExportOperations): void {
  handle(app, LIST, async (c, input) => c.json(await exports.list(c.get('caller'), canvasRef(input.params()))));
  handle(app, CREATE, async (c, input) => {
    const ref = canvasRef(input.params());
    return c.json(await exports.create(c.get('caller'), ref, await input.body()), 201);
  });
  handle(app, GET, async (c, input) => {
    const params = input.params();
    return c.json(await exports.get(c.get('caller'), canvasRef(params), params.export_id));
  });
  handle(app, CANCEL, async (c, input) => {
    const params = input.params();
    return c.json(await exports.cancel(c.get('caller'), canvasRef(params), params.export_id));
  });
}
