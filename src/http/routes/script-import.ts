import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { CanvasId, ProjectId, ScriptImportBody } from '../../contract/index.js';
import type { ScriptImport } from '../../backend/script-import.js';
import { CanvasError } from '../../shared/errors.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/**
 * POST /api/v2/projects/{project_id}/canvases/{canvas_id}/script-import (issue 32): a screenplay's text with the
 * base_revision to write at. A 120-page Final Draft file is larger than the API's 1 MiB body limit: this route takes
 * up to 8 MiB.
 */

export const SCRIPT_IMPORT_PATH = '/api/v2/projects/:project_id/canvases/:canvas_id/script-import';
export const SCRIPT_IMPORT_MAX_BYTES = 8 * 1024 * 1024;

/** Whether a request goes to the script import (which has its own body limit). */
export function isScriptImportPath(path: string): boolean {
  return /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/script-import$/.test(path);
}

export function registerScriptImportRoutes(app: Hono<BackendHttpEnv>, scripts: ScriptImport): void {
  app.post(
    SCRIPT_IMPORT_PATH,
    bodyLimit({
      maxSize: SCRIPT_IMPORT_MAX_BYTES,
      onError: () => {
        throw new CanvasError('payload_too_large', `A script import takes at most ${SCRIPT_IMPORT_MAX_BYTES} bytes.`);
      },
    }),
    async (c) => {
      const params = pathParams(c, { project_id: ProjectId, canvas_id: CanvasId });
      const body = await jsonBody(c, ScriptImportBody);
      const receipt = await scripts.importScript(
        c.get('caller'),
        { projectId: params.project_id, canvasId: params.canvas_id },
        body,
      );
      return c.json(receipt, 201);
    },
  );
}
