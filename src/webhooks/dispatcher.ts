import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import { Agent, fetch } from 'undici';
import type { Logger } from '../shared/logger.js';
import { newId } from '../shared/ids.js';
import type { Store } from '../store/store.js';
import { WEBHOOK_CHANNEL } from '../store/webhook-outbox.js';
import type { DeliveryOutcome, DueDelivery } from '../store/webhook-store.js';
import { describeDeliveryFailure, endpointRefusal, publicOnlyConnector } from './network-rule.js';
import type { SecretSeal } from './secrets.js';

/**
 * Sends the outbox's deliveries (docs/runs.md, "Webhooks"): Standard Webhooks headers (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, HMAC-SHA256 over `id.timestamp.body` by the `standardwebhooks` library,
 * also with the previous secret for a day after a rotation), any 2xx counts as delivered, anything else is tried again
 * with exponential backoff (first after `retryMs`, ×4 each time, at most an hour apart) until `giveUpMs` after the
 * event. Woken at once by the transaction that wrote a delivery (NOTIFY on PostgreSQL, after the commit in-process on
 * SQLite), so a delivery leaves within milliseconds; due retries are found by a timer. Redirects are not followed (each
 * hop would escape the network rule).
 *
 * Deliveries are independent: each is sent on its own, at most `PER_ENDPOINT` at a time to one endpoint and `IN_FLIGHT`
 * in all, and the loop goes on claiming while they are out, so a receiver that never answers holds only its own
 * endpoint's deliveries, never another project's. A connection that is not made within `CONNECT_TIMEOUT_MS` fails the
 * attempt.
 */
export interface WebhookDispatcherOptions {
  store: Store;
  seal: SecretSeal;
  logger: Logger;
  retryMs: number;
  giveUpMs: number;
  timeoutMs?: number;
  clock?: () => number;
  /** Whether endpoints may be on private networks (the operator's `--webhooks-private-network`; off by default). */
  allowPrivateNetwork?: boolean;
}

export interface WebhookDispatcher {
  start(): Promise<void>;
  stop(): Promise<void>;
}

const MAX_RETRY_GAP_MS = 3_600_000;
const IDLE_CHECK_MS = 1000;
const MIN_SLEEP_MS = 10;
/** Deliveries in flight to one endpoint from this process, and in all. */
const PER_ENDPOINT = 4;
const IN_FLIGHT = 64;
const CONNECT_TIMEOUT_MS = 5000;

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { store, seal, logger } = options;
  const clock = options.clock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const worker = newId('whd_');
  const allowPrivate = options.allowPrivateNetwork ?? false;
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const agents = {
    publicOnly: new Agent({ connect: publicOnlyConnector(CONNECT_TIMEOUT_MS), ...timeouts }),
    anywhere: new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS }, ...timeouts }),
  };
  /** Deliveries out now, by endpoint. */
  const inFlight = new Map<string, number>();
  let inFlightTotal = 0;
  const sending = new Set<Promise<void>>();
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;
  // A signal that came while no sleep was waiting (claiming, sending): the next sleep returns at once.
  let woken = false;
  const signal = () => {
    woken = true;
    wake?.();
  };
  let unlisten: (() => Promise<void>) | null = null;

  function signatures(delivery: DueDelivery, at: Date): string {
    const secrets = [seal.open(delivery.hook.secretSealed)];
    const previous = delivery.hook.previousSecretSealed;
    if (previous && (delivery.hook.previousSecretUntil ?? 0) > clock()) secrets.push(seal.open(previous));
    return secrets.map((secret) => new Webhook(secret).sign(delivery.id, at, delivery.body)).join(' ');
  }

  function retryAt(delivery: DueDelivery): number | null {
    const gap = Math.min(options.retryMs * 4 ** (delivery.attempts - delivery.retryBaseAttempts), MAX_RETRY_GAP_MS);
    const at = clock() + gap;
    return at - delivery.retryFrom > options.giveUpMs ? null : at;
  }

  async function deliver(delivery: DueDelivery): Promise<void> {
    const at = new Date(clock());
    const started = performance.now();
    let outcome: DeliveryOutcome;
    // The registration rule again, as it stands now: an endpoint registered under an earlier rule (plain http, a
    // private literal, this machine's name while private networks were allowed) meets today's before any connection.
    const privateAllowed = allowPrivate && delivery.hook.allowPrivateNetwork;
    const refused = endpointRefusal(delivery.hook.url, privateAllowed);
    if (refused) {
      outcome = {
        delivered: false,
        status: null,
        error: `refused by the network rule: the endpoint ${refused}`,
        latencyMs: performance.now() - started,
        retryAt: retryAt(delivery),
      };
      await finish(delivery, outcome);
      return;
    }
    try {
      const response = await fetch(delivery.hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'canvas-mcp-webhooks',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signatures(delivery, at),
        },
        body: delivery.body,
        redirect: 'manual',
        // An endpoint allowed private networks earlier reaches them only while the operator allows it.
        dispatcher: privateAllowed ? agents.anywhere : agents.publicOnly,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      const latencyMs = performance.now() - started;
      outcome =
        response.status >= 200 && response.status < 300
          ? { delivered: true, status: response.status, latencyMs }
          : {
              delivered: false,
              status: response.status,
              error: `the receiver answered HTTP ${response.status}`,
              latencyMs,
              retryAt: retryAt(delivery),
            };
    } catch (error) {
      // Owners see what kind of failure it was, never the socket's own words (they can name internal addresses).
      outcome = {
        delivered: false,
        status: null,
        error: describeDeliveryFailure(error),
        latencyMs: performance.now() - started,
        retryAt: retryAt(delivery),
      };
      logger.debug({ err: error, webhook_id: delivery.hook.id, delivery_id: delivery.id }, 'webhook delivery error');
    }
    await finish(delivery, outcome);
  }

  async function finish(delivery: DueDelivery, outcome: DeliveryOutcome): Promise<void> {
    const recorded = await store.webhooks.finish(delivery.id, worker, outcome);
    const log = logger.child({ webhook_id: delivery.hook.id, delivery_id: delivery.id, type: delivery.type });
    if (!recorded) log.warn('webhook delivery lease lost before its outcome was recorded; it will be sent again');
    else if (!outcome.delivered)
      log.warn({ status: outcome.status, error: outcome.error, retry_at: outcome.retryAt }, 'webhook delivery failed');
  }

  async function sleep(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(ms, 0));
      function done() {
        clearTimeout(timer);
        wake = null;
        woken = false;
        resolve();
      }
      wake = done;
    });
  }

  /** Sends one delivery on its own; the loop is told when it is back, since its endpoint may take another. */
  function send(delivery: DueDelivery): void {
    const endpoint = delivery.hook.id;
    inFlight.set(endpoint, (inFlight.get(endpoint) ?? 0) + 1);
    inFlightTotal += 1;
    const sent = deliver(delivery)
      .catch((error: unknown) => logger.error({ err: error }, 'webhook delivery could not be recorded'))
      .finally(() => {
        const left = (inFlight.get(endpoint) ?? 1) - 1;
        if (left === 0) inFlight.delete(endpoint);
        else inFlight.set(endpoint, left);
        inFlightTotal -= 1;
        sending.delete(sent);
        signal();
      });
    sending.add(sent);
  }

  async function loop(): Promise<void> {
    while (running) {
      try {
        woken = false;
        const room = IN_FLIGHT - inFlightTotal;
        if (room > 0) {
          const busy = [...inFlight].filter(([, count]) => count >= PER_ENDPOINT).map(([id]) => id);
          const due = await store.webhooks.claimDue(
            worker,
            timeoutMs + CONNECT_TIMEOUT_MS + 5000,
            Math.min(room, 16),
            busy,
          );
          for (const delivery of due) send(delivery);
          if (due.length > 0) continue;
        }
        const next = await store.webhooks.nextDueAt();
        // At least a moment: a delivery due now that another worker just claimed must not make this loop spin. A
        // delivery coming back wakes the loop (its endpoint may take the next one).
        const wait = next === null ? IDLE_CHECK_MS : next - clock();
        // Due now yet nothing claimed: what is due waits for an endpoint of ours that is busy, which wakes the loop.
        const blocked = wait < MIN_SLEEP_MS && inFlightTotal > 0;
        await sleep(blocked ? IDLE_CHECK_MS : Math.min(Math.max(wait, MIN_SLEEP_MS), IDLE_CHECK_MS));
      } catch (error) {
        logger.error({ err: error }, 'webhook dispatcher: store unavailable; trying again');
        await sleep(IDLE_CHECK_MS);
      }
    }
  }

  return {
    async start() {
      if (running) return;
      running = true;
      const stopListening = await store.driver.listen(WEBHOOK_CHANNEL, signal, signal);
      const stopLocal = store.driver.onLocalCommit(WEBHOOK_CHANNEL, signal);
      unlisten = async () => {
        stopLocal();
        await stopListening();
      };
      loopDone = loop();
    },
    async stop() {
      running = false;
      signal();
      await unlisten?.();
      await loopDone;
      await Promise.all(sending);
      await Promise.all([agents.publicOnly.close(), agents.anywhere.close()]);
    },
  };
}
