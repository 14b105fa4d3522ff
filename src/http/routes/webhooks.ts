import type { Hono } from 'hono';
import { z } from 'zod';
import { ProjectId, ResourceId, WebhookChangeBody, WebhookCreateBody } from '../../contract/index.js';
import { parseOrThrow } from '../../shared/errors.js';
import type { WebhookOperations } from '../../backend/webhook-operations.js';
import type { BackendHttpEnv } from '../http-env.js';
import { jsonBody, pathParams } from '../request-parsing.js';

/** A project's webhook endpoints over HTTP (issue 22, docs/api.md "Webhooks"): owners only. */

const WEBHOOKS = '/api/v1/projects/:project_id/webhooks';
const WEBHOOK = `${WEBHOOKS}/:webhook_id`;
const params = { project_id: ProjectId, webhook_id: ResourceId };
const DeliveriesQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) });

export function registerWebhookRoutes(app: Hono<BackendHttpEnv>, webhooks: WebhookOperations): void {
  app.post(WEBHOOKS, async (c) => {
    const { project_id } = pathParams(c, { project_id: ProjectId });
    return c.json(await webhooks.create(c.get('caller'), project_id, await jsonBody(c, WebhookCreateBody)), 201);
  });
  app.get(WEBHOOKS, async (c) =>
    c.json(await webhooks.list(c.get('caller'), pathParams(c, { project_id: ProjectId }).project_id)),
  );
  app.patch(WEBHOOK, async (c) => {
    const { project_id, webhook_id } = pathParams(c, params);
    return c.json(await webhooks.change(c.get('caller'), project_id, webhook_id, await jsonBody(c, WebhookChangeBody)));
  });
  app.delete(WEBHOOK, async (c) => {
    const { project_id, webhook_id } = pathParams(c, params);
    return c.json(await webhooks.remove(c.get('caller'), project_id, webhook_id));
  });
  app.get(`${WEBHOOK}/deliveries`, async (c) => {
    const { project_id, webhook_id } = pathParams(c, params);
    const query = parseOrThrow(DeliveriesQuery, c.req.query());
    return c.json({ deliveries: await webhooks.deliveries(c.get('caller'), project_id, webhook_id, query.limit) });
  });
  app.post(`${WEBHOOK}/deliveries/:delivery_id/redeliver`, async (c) => {
    const { project_id, webhook_id, delivery_id } = pathParams(c, { ...params, delivery_id: ResourceId });
    return c.json(await webhooks.redeliver(c.get('caller'), project_id, webhook_id, delivery_id), 202);
  });
}

export const WEBHOOK_ROUTE_PATHS = [
  WEBHOOKS,
  WEBHOOK,
  `${WEBHOOK}/deliveries`,
  `${WEBHOOK}/deliveries/:delivery_id/redeliver`,
];
