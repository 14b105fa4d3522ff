import type { Hono } from 'hono';
import { ShotListQuery } from '../../contract/index.js';
import { exportShotList } from '../../backend/storyboard/shot-list.js';
import type { Store } from '../../store/store.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { CANVAS, canvasRef, FileBytes, nodeParams } from '../route-parameters.js';

/** GET …/nodes/{node_id}/shot-list?format=csv|xlsx: a storyboard's shots as a file to download. */

const SHOT_LIST = apiRoute({
  method: 'get',
  path: `${CANVAS}/nodes/:node_id/shot-list`,
  operationId: 'downloadShotList',
  summary: "A storyboard's shot list (viewers): one row per shot in the board's order, as CSV or XLSX.",
  tag: 'canvas',
  auth: 'caller',
  params: nodeParams,
  query: ShotListQuery,
  responses: {
    200: {
      description: 'The file, as an attachment.',
      content: {
        'text/csv': FileBytes,
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': FileBytes,
      },
    },
  },
});

export const SHOT_LIST_ROUTES = [SHOT_LIST];

export function registerShotListRoutes(app: Hono<BackendHttpEnv>, store: Store): void {
  handle(app, SHOT_LIST, async (c, input) => {
    const params = input.params();
    const { format } = input.query();
    const file = await exportShotList(store, c.get('caller'), canvasRef(params), params.node_id, format);
    c.header('content-type', file.contentType);
    c.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
    c.header('cache-control', 'private, no-store');
    c.header('x-content-type-options', 'nosniff');
    return c.body(new Uint8Array(file.bytes));
  });
}
