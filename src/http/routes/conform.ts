import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ConformBody, ConformReport } from '../../contract/index.js';
import type { Conform } from '../../backend/storyboard/conform.js';
import { CanvasError } from '../../shared/errors.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { AgentRunHeader, CANVAS, canvasParams, canvasRef, ok } from '../route-parameters.js';

/**
 * POST /api/v2/projects/{project_id}/canvases/{canvas_id}/conform: an editor's timeline of a board's cut with the
 * base_revision to write at. A long cut's FCP 7 XML with its sound track passes the API's 1 MiB body limit: this route
 * takes up to 8 MiB.
 */

export const CONFORM_MAX_BYTES = 8 * 1024 * 1024;

const CONFORM = apiRoute({
  method: 'post',
  path: `${CANVAS}/conform`,
  operationId: 'conformBoard',
  summary:
    "Conform a storyboard to an editor's timeline of its cut (OTIO, FCP 7 XML, FCPXML or CMX 3600 EDL; editors) at base_revision: new durations and order, shots dropped from the cut marked omitted, clips that name no shot added, in one revision, with a report of exactly what changed (no revision when nothing did).",
  tag: 'canvas',
  auth: 'caller',
  params: canvasParams,
  headers: AgentRunHeader,
  body: ConformBody,
  responses: {
    200: ok('Conformed: the report, with the revision written (null when nothing changed).', ConformReport),
  },
});

export const CONFORM_ROUTES = [CONFORM];

/** Whether a request goes to the conform (which has its own body limit). */
export function isConformPath(path: string): boolean {
  return /^\/api\/v2\/projects\/[^/]+\/canvases\/[^/]+\/conform$/.test(path);
}

export function registerConformRoutes(app: Hono<BackendHttpEnv>, conform: Conform): void {
  const limit = bodyLimit({
    maxSize: CONFORM_MAX_BYTES,
    onError: () => {
      throw new CanvasError('payload_too_large', `A conform takes a timeline of at most ${CONFORM_MAX_BYTES} bytes.`);
    },
  });
  handle(
    app,
    CONFORM,
    async (c, input) => {
      const ref = canvasRef(input.params());
      const body = await input.body();
      return c.json(await conform.conform(c.get('caller'), ref, body), 200);
    },
    { before: [limit] },
  );
}
