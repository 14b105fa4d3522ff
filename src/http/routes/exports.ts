import type { Hono } from 'hono';
import { CanvasId, ProjectId, ResourceId } from '../../contract/index.js';
import { ExportCreateBody } from '../../contract/exports.js';
import type { ExportOperations } from '../../backend/exports.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** …/canvases/{canvas_id}/exports (issue 35): start, list, read and cancel exports of a board. */

export const EXPORTS_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/exports';
export const EXPORT_PATH = `${EXPORTS_PATH}/:export_id`;

export function registerExportRoutes(app: Hono<BackendHttpEnv>, exports: ExportOperations): void {
  const refOf = (params: { project_id: string; canvas_id: string }) => ({
    projectId: params.project_id,
    canvasId: params.canvas_id,
  });
  const canvas = { project_id: ProjectId, canvas_id: CanvasId };
  const one = { ...canvas, export_id: ResourceId };
  app.get(EXPORTS_PATH, async (c) => c.json(await exports.list(c.get('caller'), refOf(pathParams(c, canvas)))));
  app.post(EXPORTS_PATH, async (c) => {
    const params = pathParams(c, canvas);
    return c.json(await exports.create(c.get('caller'), refOf(params), await jsonBody(c, ExportCreateBody)), 201);
  });
  app.get(EXPORT_PATH, async (c) => {
    const params = pathParams(c, one);
    return c.json(await exports.get(c.get('caller'), refOf(params), params.export_id));
  });
  app.post(`${EXPORT_PATH}/cancel`, async (c) => {
    const params = pathParams(c, one);
    return c.json(await exports.cancel(c.get('caller'), refOf(params), params.export_id));
  });
}
