import type { Hono } from 'hono';
import { z } from 'zod';
import {
  IssuedWebhook,
  ResourceId,
  WebhookChangeBody,
  WebhookCreateBody,
  WebhookDeleted,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookView,
} from '../../contract/index.js';
import type { WebhookOperations } from '../../backend/team/webhook-operations.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { ok, PROJECT, projectParams } from '../route-parameters.js';

/** A project's webhook endpoints over HTTP (docs/api.md, "Webhooks"): owners only. */

const WEBHOOKS = `${PROJECT}/webhooks`;
const WEBHOOK = `${WEBHOOKS}/:webhook_id`;
const webhookParams = projectParams.extend({ webhook_id: ResourceId });

const CREATE = apiRoute({
  method: 'post',
  path: WEBHOOKS,
  operationId: 'createWebhook',
  summary: 'Register a webhook endpoint for run events and layout revisions (owners); answers its signing secret once.',
  tag: 'webhooks',
  auth: 'caller',
  params: projectParams,
  body: WebhookCreateBody,
  responses: { 201: ok('The endpoint, with its whsec_ secret.', IssuedWebhook) },
});

const LIST = apiRoute({
  method: 'get',
  path: WEBHOOKS,
  operationId: 'listWebhooks',
  summary: "The project's webhook endpoints (owners).",
  tag: 'webhooks',
  auth: 'caller',
  params: projectParams,
  responses: { 200: ok('The endpoints.', WebhookList) },
});

const CHANGE = apiRoute({
  method: 'patch',
  path: WEBHOOK,
  operationId: 'changeWebhook',
  summary: 'Change an endpoint, or rotate its secret (answered once; the old one signs for 24 more hours); owners.',
  tag: 'webhooks',
  auth: 'caller',
  params: webhookParams,
  body: WebhookChangeBody,
  responses: {
    200: ok('The endpoint as now (with `secret` after a rotation).', z.union([IssuedWebhook, WebhookView])),
  },
});

const DELETE = apiRoute({
  method: 'delete',
  path: WEBHOOK,
  operationId: 'deleteWebhook',
  summary: 'Delete an endpoint: nothing more is sent to it, its pending deliveries are given up (owners).',
  tag: 'webhooks',
  auth: 'caller',
  params: webhookParams,
  responses: { 200: ok('Deleted.', WebhookDeleted) },
});

const DELIVERIES = apiRoute({
  method: 'get',
  path: `${WEBHOOK}/deliveries`,
  operationId: 'listWebhookDeliveries',
  summary: "An endpoint's deliveries, newest first: status, attempts, the receiver's last answer and latency (owners).",
  tag: 'webhooks',
  auth: 'caller',
  params: webhookParams,
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
  responses: { 200: ok('The deliveries.', WebhookDeliveryList) },
});

const REDELIVER = apiRoute({
  method: 'post',
  path: `${WEBHOOK}/deliveries/:delivery_id/redeliver`,
  operationId: 'redeliverWebhook',
  summary: 'Send a delivery again, under the same webhook-id (owners).',
  tag: 'webhooks',
  auth: 'caller',
  params: webhookParams.extend({ delivery_id: ResourceId }),
  responses: { 202: ok('The delivery, pending again.', WebhookDelivery) },
});

export const WEBHOOK_ROUTES = [CREATE, LIST, CHANGE, DELETE, DELIVERIES, REDELIVER];

export function registerWebhookRoutes(app: Hono<BackendHttpEnv>, webhooks: WebhookOperations): void {
  handle(app, CREATE, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await webhooks.create(c.get('caller'), project_id, await input.body()), 201);
  });
  handle(app, LIST, async (c, input) => c.json(await webhooks.list(c.get('caller'), input.params().project_id)));
  handle(app, CHANGE, async (c, input) => {
    const { project_id, webhook_id } = input.params();
    return c.json(await webhooks.change(c.get('caller'), project_id, webhook_id, await input.body()));
  });
  handle(app, DELETE, async (c, input) => {
    const { project_id, webhook_id } = input.params();
    return c.json(await webhooks.remove(c.get('caller'), project_id, webhook_id));
  });
  handle(app, DELIVERIES, async (c, input) => {
    const { project_id, webhook_id } = input.params();
    const query = input.query();
    return c.json({ deliveries: await webhooks.deliveries(c.get('caller'), project_id, webhook_id, query.limit) });
  });
  handle(app, REDELIVER, async (c, input) => {
    const { project_id, webhook_id, delivery_id } = input.params();
    return c.json(await webhooks.redeliver(c.get('caller'), project_id, webhook_id, delivery_id), 202);
  });
}
