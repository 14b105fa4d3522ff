import { z } from 'zod';

/**
 * Signed webhooks (docs/runs.md, "Webhooks"): endpoints a project's owners register for run events and
 * layout revisions, delivered in the Standard Webhooks format.
 */

export const WEBHOOK_EVENT_TYPES = [
  'run.queued',
  'run.running',
  'run.succeeded',
  'run.failed',
  'run.cancelled',
  'layout.revision',
  'comment.created',
  'comment.resolved',
  'review.changed',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

const Timestamp = z.string();
const WebhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2048)
  // Credentials in the URL would be shown in the endpoint list and the audit log; the signature authenticates us.
  .refine((url) => URL.canParse(url) && new URL(url).username === '' && new URL(url).password === '', {
    error:
      'must not carry a user name or password (it would be shown wherever the endpoint is listed); receivers authenticate deliveries by their signature',
  })
  .meta({
    description:
      'Where deliveries are POSTed: https, and not a private or loopback address unless allow_private_network.',
  });
const Events = z
  .array(WebhookEventType)
  .max(WEBHOOK_EVENT_TYPES.length)
  .meta({ description: 'The event types to deliver; empty or absent means all of them.' });
const AllowPrivate = z.boolean().meta({
  description:
    'Allow http:// and private, loopback or link-local addresses (off by default: an SSRF guard); only on a server whose operator allows private-network webhooks (--webhooks-private-network).',
});

export const WebhookCreateBody = z.strictObject({
  url: WebhookUrl,
  events: Events.optional(),
  allow_private_network: AllowPrivate.optional(),
});
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>;

export const WebhookChangeBody = z.strictObject({
  url: WebhookUrl.optional(),
  events: Events.optional(),
  allow_private_network: AllowPrivate.optional(),
  rotate_secret: z
    .literal(true)
    .optional()
    .meta({ description: 'Issue a new secret (answered once); the old one also signs for 24 hours.' }),
});
export type WebhookChangeBody = z.infer<typeof WebhookChangeBody>;

export const WebhookView = z.strictObject({
  webhook_id: z.string(),
  project_id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType),
  allow_private_network: z.boolean(),
  dropped_deliveries: z.int().min(0).meta({
    description:
      'Events not queued for this endpoint because it already had the most pending deliveries an endpoint may have (10,000).',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type WebhookView = z.infer<typeof WebhookView>;

/** A webhook as created or rotated: with its signing secret, shown this once. */
export const IssuedWebhook = WebhookView.extend({
  secret: z.string().meta({ description: 'whsec_…: verifies webhook-signature; shown once.' }),
});
export type IssuedWebhook = z.infer<typeof IssuedWebhook>;

export const WebhookList = z.strictObject({
  webhooks: z.array(WebhookView),
  private_network_allowed: z.boolean().meta({
    description: "Whether this server's operator lets endpoints allow private networks (--webhooks-private-network).",
  }),
});
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookDelivery = z.strictObject({
  delivery_id: z.string().meta({ description: 'The webhook-id header of the delivery; kept by a redelivery.' }),
  type: WebhookEventType,
  canvas_id: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.int(),
  last_status: z.int().nullable().meta({ description: "The receiver's last HTTP status; null before an answer." }),
  last_error: z.string().nullable(),
  latency_ms: z.number().nullable().meta({ description: 'How long the last attempt took.' }),
  created_at: Timestamp,
  delivered_at: Timestamp.nullable(),
  next_attempt_at: Timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = z.strictObject({ deliveries: z.array(WebhookDelivery) });

export const WebhookDeleted = z.strictObject({ deleted: z.string() });
