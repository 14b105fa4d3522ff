import type { Hono } from 'hono';
import { CanvasId, NodeId, ProjectId, ShotListQuery } from '../../contract/index.js';
import { exportShotList } from '../../backend/shot-list.js';
import type { Store } from '../../store/store.js';
import type { BackendHttpEnv } from '../http-env.js';
import { parseOrThrow } from '../../shared/errors.js';
import { pathParams } from '../request-parsing.js';

/** GET …/nodes/{node_id}/shot-list?format=csv|xlsx: a storyboard's shots as a file to download (issue 32). */

export const SHOT_LIST_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/nodes/:node_id/shot-list';

export function registerShotListRoutes(app: Hono<BackendHttpEnv>, store: Store): void {
  app.get(SHOT_LIST_PATH, async (c) => {
    const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId, node_id: NodeId });
    const { format } = parseOrThrow(ShotListQuery, c.req.query());
    const file = await exportShotList(
      store,
      c.get('caller'),
      { projectId: params.project_id, canvasId: params.canvas_id },
      params.node_id,
      format,
    );
    c.header('content-type', file.contentType);
    c.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
    c.header('cache-control', 'private, no-store');
    c.header('x-content-type-options', 'nosniff');
    return c.body(new Uint8Array(file.bytes));
  });
}
