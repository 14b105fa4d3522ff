import type { Hono } from 'hono';
import { HealthBody, ReadyBody } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok } from '../route-parameters.js';

/** GET /healthz and /readyz: whether the process is up, and whether it can serve (docs/operations.md). */

const HEALTH = apiRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'health',
  summary: 'The process is up.',
  tag: 'service',
  auth: 'none',
  responses: { 200: ok('Up.', HealthBody) },
});

const READY = apiRoute({
  method: 'get',
  path: '/readyz',
  operationId: 'ready',
  summary: 'The store answers and no migration is pending.',
  tag: 'service',
  auth: 'none',
  responses: { 200: ok('Ready.', ReadyBody) },
});

export const HEALTH_ROUTES = [HEALTH, READY];

export function registerHealthRoutes(app: Hono<BackendHttpEnv>, store: Store): void {
  handle(app, HEALTH, (c) => c.json({ status: 'ok' }));
  handle(app, READY, async (c) => {
    try {
      await store.ping();
      const pending = await store.pendingMigrations();
      if (pending.length > 0) {
        throw new CanvasError('unavailable', 'Migrations are pending.', { pending_migrations: pending });
      }
    } catch (error) {
      if (error instanceof CanvasError) throw error;
      throw new CanvasError('unavailable', 'The store is unreachable.');
    }
    return c.json({ status: 'ready', store: store.dialect });
  });
}
