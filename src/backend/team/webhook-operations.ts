import {
  WEBHOOK_EVENT_TYPES,
  type IssuedWebhook,
  type WebhookChangeBody,
  type WebhookCreateBody,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookList,
  type WebhookView,
} from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Actor } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { DeliveryRecord, WebhookRecord } from '../../store/webhook-store.js';
import { endpointRefusal } from '../../webhooks/network-rule.js';
import { newWebhookSecret, type SecretSeal } from '../../webhooks/secrets.js';
import { authorizeProject } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { requirePerson } from './people-operations.js';

/**
 * A project's webhook endpoints (docs/api.md, "Webhooks"): owners register, change, rotate and delete them,
 * read their delivery log and send a delivery again. Each change is in the project's audit log; the secret is
 * answered once, when made.
 */
export interface WebhookOperations {
  create(ctx: CallerContext, projectId: string, body: WebhookCreateBody): Promise<IssuedWebhook>;
  list(ctx: CallerContext, projectId: string): Promise<WebhookList>;
  change(
    ctx: CallerContext,
    projectId: string,
    webhookId: string,
    body: WebhookChangeBody,
  ): Promise<WebhookView | IssuedWebhook>;
  remove(ctx: CallerContext, projectId: string, webhookId: string): Promise<{ deleted: string }>;
  deliveries(ctx: CallerContext, projectId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  redeliver(ctx: CallerContext, projectId: string, webhookId: string, deliveryId: string): Promise<WebhookDelivery>;
}

/** The previous secret keeps signing this long after a rotation, so receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

function webhookView(record: WebhookRecord): WebhookView {
  return {
    webhook_id: record.id,
    project_id: record.projectId,
    url: record.url,
    events: record.events.length === 0 ? [...WEBHOOK_EVENT_TYPES] : record.events,
    allow_private_network: record.allowPrivateNetwork,
    dropped_deliveries: record.droppedDeliveries,
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
  };
}

function deliveryView(record: DeliveryRecord): WebhookDelivery {
  return {
    delivery_id: record.id,
    type: record.type,
    canvas_id: record.canvasId,
    status: record.status,
    attempts: record.attempts,
    last_status: record.lastStatus,
    last_error: record.lastError,
    latency_ms: record.lastLatencyMs === null ? null : Math.round(record.lastLatencyMs * 10) / 10,
    created_at: new Date(record.createdAt).toISOString(),
    delivered_at: iso(record.deliveredAt),
    next_attempt_at: record.status === 'pending' ? iso(record.nextAttemptAt) : null,
  };
}

/** What the operator allows webhooks (serve settings): how many endpoints a project may have, and private networks. */
export interface WebhookPolicy {
  maxEndpointsPerProject: number;
  /** `--webhooks-private-network`: owners may then allow an endpoint on a private network. Off by default. */
  allowPrivateNetwork: boolean;
}

function checkEndpoint(url: string, allowPrivateNetwork: boolean, policy: WebhookPolicy): void {
  if (allowPrivateNetwork && !policy.allowPrivateNetwork) {
    throw new CanvasError(
      'invalid_arguments',
      'allow_private_network: this server does not deliver webhooks to private networks (its operator decides, with --webhooks-private-network).',
      { field: 'allow_private_network' },
    );
  }
  const refusal = endpointRefusal(url, allowPrivateNetwork);
  if (refusal) throw new CanvasError('invalid_arguments', `url ${refusal}.`, { field: 'url' });
}

/** Every type when none (or all) are named: stored as [] so types added later reach such endpoints too. */
function eventsOf(events: WebhookEventType[] | undefined): WebhookEventType[] {
  if (!events || events.length === 0) return [];
  const unique = [...new Set(events)];
  return unique.length === WEBHOOK_EVENT_TYPES.length ? [] : unique;
}

export function createWebhookOperations(
  store: Store,
  seal: () => Promise<SecretSeal>,
  policy: WebhookPolicy,
  clock: () => number = Date.now,
): WebhookOperations {
  async function owner(ctx: CallerContext, projectId: string, what: string): Promise<Actor> {
    const person = requirePerson(ctx, what);
    await authorizeProject(store, ctx, projectId, 'owner');
    return person;
  }

  return {
    async create(ctx, projectId, body) {
      const by = await owner(ctx, projectId, 'register webhooks');
      const allowPrivateNetwork = body.allow_private_network ?? false;
      checkEndpoint(body.url, allowPrivateNetwork, policy);
      const secret = newWebhookSecret();
      const record = await store.webhooks.create(
        projectId,
        { url: body.url, events: eventsOf(body.events), allowPrivateNetwork },
        (await seal()).seal(secret),
        by,
        policy.maxEndpointsPerProject,
      );
      await store.team.record({
        projectId,
        actor: by,
        action: 'webhook.created',
        target: record.id,
        details: { url: record.url, allow_private_network: allowPrivateNetwork },
      });
      return { ...webhookView(record), secret };
    },

    async list(ctx, projectId) {
      await owner(ctx, projectId, 'read webhooks');
      return {
        webhooks: (await store.webhooks.list(projectId)).map(webhookView),
        private_network_allowed: policy.allowPrivateNetwork,
      };
    },

    async change(ctx, projectId, webhookId, body) {
      const by = await owner(ctx, projectId, 'change webhooks');
      const current = await store.webhooks.hook(projectId, webhookId);
      // Only a change of where deliveries go is checked again: an endpoint allowed private networks before the
      // operator stopped allowing them keeps its events editable (its deliveries ignore the flag meanwhile).
      if (body.url !== undefined || body.allow_private_network !== undefined)
        checkEndpoint(body.url ?? current.url, body.allow_private_network ?? current.allowPrivateNetwork, policy);
      const secret = body.rotate_secret ? newWebhookSecret() : null;
      const record = await store.webhooks.update(projectId, webhookId, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined ? { events: eventsOf(body.events) } : {}),
        ...(body.allow_private_network !== undefined ? { allowPrivateNetwork: body.allow_private_network } : {}),
        ...(secret
          ? { rotation: { secretSealed: (await seal()).seal(secret), previousUntil: clock() + ROTATION_OVERLAP_MS } }
          : {}),
      });
      const changed = Object.keys(body).filter((key) => key !== 'rotate_secret');
      await store.team.record({
        projectId,
        actor: by,
        action: secret ? 'webhook.rotated' : 'webhook.changed',
        target: webhookId,
        details: { changed, url: record.url },
      });
      return secret ? { ...webhookView(record), secret } : webhookView(record);
    },

    async remove(ctx, projectId, webhookId) {
      const by = await owner(ctx, projectId, 'delete webhooks');
      await store.webhooks.remove(projectId, webhookId);
      await store.team.record({ projectId, actor: by, action: 'webhook.deleted', target: webhookId });
      return { deleted: webhookId };
    },

    async deliveries(ctx, projectId, webhookId, limit) {
      await owner(ctx, projectId, 'read webhook deliveries');
      return (await store.webhooks.deliveries(projectId, webhookId, limit)).map(deliveryView);
    },

    async redeliver(ctx, projectId, webhookId, deliveryId) {
      const by = await owner(ctx, projectId, 'redeliver webhooks');
      const delivery = await store.webhooks.redeliver(projectId, webhookId, deliveryId);
      await store.team.record({
        projectId,
        actor: by,
        action: 'webhook.redelivered',
        target: webhookId,
        details: { delivery_id: deliveryId },
      });
      return deliveryView(delivery);
    },
  };
}
