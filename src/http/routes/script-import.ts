import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ScriptImportBody, ScriptImportReceipt } from '../../contract/index.js';
import type { ScriptImport } from '../../backend/storyboard/script-import.js';
import { CanvasError } from '../../shared/errors.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { AgentRunHeader, CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/**
 * POST /api/v2/projects/{project_id}/canvases/{canvas_id}/script-import: a screenplay's text with the base_revision to
 * write at. A 120-page Final Draft file is larger than the API's 1 MiB body limit: this route takes up to 8 MiB.
 */

export const SCRIPT_IMPORT_MAX_BYTES = 8 * 1024 * 1024;

const SCRIPT_IMPORT = apiRoute({
  method: 'post',
  path: `${CANVAS}/script-import`,
  operationId: 'importScript',
  summary:
    'Import a screenplay (Fountain, Final Draft .fdx or plain text; editors) at base_revision: its scenes become a board of shots bound to the script lines; imported again into the same script node, a revision reports what changed and keeps every shot.',
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  headers: AgentRunHeader,
  body: ScriptImportBody,
  responses: { 201: ok('Imported, in one revision.', ScriptImportReceipt) },
});

export const SCRIPT_IMPORT_ROUTES = [SCRIPT_IMPORT];

/** Whether a request goes to the script import (which has its own body limit). */
export function isScriptImportPath(path: string): boolean {
  return /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/script-import$/.test(path);
}

export function registerScriptImportRoutes(app: Hono<BackendHttpEnv>, scripts: ScriptImport): void {
  const limit = bodyLimit({
    maxSize: SCRIPT_IMPORT_MAX_BYTES,
    onError: () => {
      throw new CanvasError('payload_too_large', `A script import takes at most ${SCRIPT_IMPORT_MAX_BYTES} bytes.`);
    },
  });
  handle(
    app,
    SCRIPT_IMPORT,
    async (c, input) => {
      const ref = canvasRef(input.params());
      const body = await input.body();
      return c.json(await scripts.importScript(c.get('caller'), ref, body), 201);
    },
    { before: [limit] },
  );
}
