import type { Hono } from 'hono';
import { IntrospectionRequest, IntrospectionResponse } from '../../contract/index.js';
import type { Store } from '../../store/store.js';
import { tokenRejection } from '../../backend/auth/principal.js';
import { authenticate } from '../authenticate.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok } from '../route-parameters.js';

/** POST /api/v1/auth/introspect: a gateway asks who an agent token it was presented is (docs/security.md). */

const INTROSPECT = apiRoute({
  method: 'post',
  path: '/api/v1/auth/introspect',
  operationId: 'introspectToken',
  summary: 'Who a presented agent token is (gateways only).',
  tag: 'auth',
  auth: 'gateway',
  body: IntrospectionRequest,
  responses: { 200: ok("The token's principal, or why it is not active.", IntrospectionResponse) },
});

export const INTROSPECT_ROUTES = [INTROSPECT];

export function registerIntrospectRoute(app: Hono<BackendHttpEnv>, store: Store, clock: () => number): void {
  handle(
    app,
    INTROSPECT,
    async (c, input) => {
      const { token_sha256 } = await input.body();
      const token = await store.tokens.findTokenBySecretHash(token_sha256);
      const rejection = tokenRejection(token, clock(), ['agent']);
      const response: IntrospectionResponse = rejection
        ? { active: false, reason: rejection }
        : {
            active: true,
            principal: {
              token_id: token!.id,
              token_name: token!.name,
              kind: token!.kind,
              role: token!.role,
              projects: token!.projects,
              workspaces: token!.workspaces,
              required_actor: token!.actor,
              issued_by: token!.issuedBy,
              purpose: token!.purpose,
              canvases: token!.canvases?.map((ref) => ({ project_id: ref.projectId, canvas_id: ref.canvasId })) ?? null,
              tool_sets: token!.toolSets,
            },
          };
      return c.json(response);
    },
    { before: [authenticate(store, clock, { gatewayOnly: true })] },
  );
}
