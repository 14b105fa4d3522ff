import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRun } from '../../src/contract/index.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS, type StoreTarget, type TestDatabase } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * Signed webhooks, over real HTTP on SQLite and PostgreSQL, to a real receiver on loopback that verifies every delivery
 * with the `standardwebhooks` library: run events and layout revisions, in order per canvas, retried with backoff while
 * the receiver fails, redelivered under the same webhook-id, signed with both secrets after a rotation, stopped by a
 * deletion, kept across a server restart; endpoints outside the SSRF rule refused.
 */

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
}

interface Receiver {
  url: string;
  received: Received[];
  /** Answers these statuses to the next requests, one each, before answering 204 again. */
  failures: number[];
  close(): Promise<void>;
}

async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const failures: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const failure = failures.shift();
      if (failure) return void res.writeHead(failure).end();
      received.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        event: JSON.parse(body) as Received['event'],
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/hooks/canvas`,
    received,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const verifies = (secret: string, delivery: Received) =>
  new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.id,
    'webhook-timestamp': delivery.timestamp,
    'webhook-signature': delivery.signature,
  });

interface OwnedServer {
  server: TestServer;
  receiver: Receiver;
  /** A request as the project's owner, olga (a session). */
  as(request?: ApiRequest): ApiRequest;
  close(): Promise<void>;
}

/** A server with no run workers, project p with canvas c owned by olga (signed in), and a receiver on loopback. */
async function ownedServer(target: StoreTarget, options: Record<string, unknown>): Promise<OwnedServer> {
  const server = await startTestServer(target, {
    workers: 0,
    rateLimitPerMinute: 1_000_000,
    webhooksPrivateNetwork: true,
    ...options,
  });
  const receiver = await startReceiver();
  const { projects } = server.store;
  await projects.createWorkspace('w');
  await projects.createProject('p', 'w');
  await projects.createCanvas('p', 'c', false);
  await projects.addMember('p', { issuer: IDP, subject: 'olga' }, 'owner');
  const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject: 'olga' }, { expiresInMs: 60_000 });
  const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
  return {
    server,
    receiver,
    as: (request = {}) => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    }),
    async close() {
      await server.close();
      await receiver.close();
    },
  };
}

const PROJECT = '/api/v1/projects/p';
const CANVAS = '/api/v2/projects/p/canvases/c';

describe.each(STORE_TARGETS)('signed webhooks: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let database: TestDatabase;
    let server: TestServer;
    let receiver: Receiver;
    const cookies: Record<string, string> = {};
    let revision = 0;

    async function start(): Promise<TestServer> {
      return startTestServer(
        target,
        {
          workers: 1,
          runDurationMs: 0,
          webhookRetryMs: 50,
          rateLimitPerMinute: 1_000_000,
          webhooksPrivateNetwork: true,
        },
        { database },
      );
    }
    async function signIn(subject: string) {
      const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
      cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
    }

    beforeAll(async () => {
      database = await target.createDatabase();
      server = await start();
      receiver = await startReceiver();
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      await projects.addMember('p', { issuer: IDP, subject: 'olga' }, 'owner');
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      await signIn('olga');
      await signIn('ed');
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await receiver?.close();
      await database?.cleanup();
    });

    const as = (who: string, request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie: cookies[who]!, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });
    async function addNode(id: string): Promise<void> {
      const node = {
        id,
        type: 'imageGenNode',
        position: { x: 0, y: revision * 10 },
        data: { prompt: id, size: '1K', imageUrl: null, aspectRatio: '1:1' },
      };
      const created = await api(
        server.url,
        `${CANVAS}/nodes`,
        as('ed', { method: 'POST', body: { node, base_revision: revision } }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      revision += 1;
    }
    const register = (body: Record<string, unknown>) =>
      api(server.url, `${PROJECT}/webhooks`, as('olga', { method: 'POST', body }));
    const errorOf = (body: unknown) =>
      (body as { error: { code: string; message: string; details?: { field?: string } } }).error;

    let hookId = '';
    let secret = '';

    it('refuses an endpoint outside the SSRF rule, naming the field; only owners register', async () => {
      for (const [url, words] of [
        [receiver.url, 'must be https'],
        ['https://127.0.0.1:9/x', 'private, loopback or link-local'],
        ['https://10.1.2.3/x', 'private, loopback or link-local'],
        ['https://localhost/x', 'names this machine'],
      ] as const) {
        const refused = await register({ url });
        expect(refused.status, url).toBe(400);
        expect(errorOf(refused.body)).toMatchObject({ code: 'invalid_arguments', details: { field: 'url' } });
        expect(errorOf(refused.body).message).toContain(words);
      }
      const withCredentials = await register({ url: 'https://hooks:hunter2@example.com/x' });
      expect(withCredentials.status).toBe(400);
      expect(errorOf(withCredentials.body).code).toBe('invalid_arguments');
      expect(errorOf(withCredentials.body).message).toContain('url: must not carry a user name or password');
      expect(JSON.stringify(withCredentials.body)).not.toContain('hunter2');
      const unknownEvent = await register({ url: 'https://example.com/x', events: ['run.exploded'] });
      expect(unknownEvent.status).toBe(400);
      const byEditor = await api(
        server.url,
        `${PROJECT}/webhooks`,
        as('ed', { method: 'POST', body: { url: 'https://example.com/x' } }),
      );
      expect(byEditor.status).toBe(403);
    });

    it('delivers a layout revision and a run queued, running and succeeded, signed and in order', async () => {
      const created = await register({ url: receiver.url, allow_private_network: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ({ webhook_id: hookId, secret } = created.body as { webhook_id: string; secret: string });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect((created.body as { events: string[] }).events).toHaveLength(9);
      // The secret is shown once: never in the list, never stored as is.
      expect(JSON.stringify((await api(server.url, `${PROJECT}/webhooks`, as('olga'))).body)).not.toContain(secret);
      expect(JSON.stringify(await server.store.driver.all('SELECT * FROM webhooks'))).not.toContain(secret.slice(6));

      await addNode('frame');
      const run = await api(
        server.url,
        `${CANVAS}/nodes/frame/runs`,
        as('ed', { method: 'POST', headers: { 'idempotency-key': 'k1' } }),
      );
      expect(run.status).toBe(202);
      const runId = (run.body as NodeRun).run_id;
      await waitFor(
        async () => receiver.received.length,
        (count) => count >= 4,
      );
      const events = receiver.received.map((delivery) => delivery.event);
      expect(events.map((event) => event.type)).toEqual([
        'layout.revision',
        'run.queued',
        'run.running',
        'run.succeeded',
      ]);
      expect(events[0]!.data).toMatchObject({
        project_id: 'p',
        canvas_id: 'c',
        revision: 1,
        author: { kind: 'person', subject: 'ed' },
      });
      expect(events.slice(1).map((event) => [event.data.run_id, event.data.status])).toEqual([
        [runId, 'queued'],
        [runId, 'running'],
        [runId, 'succeeded'],
      ]);
      for (const delivery of receiver.received) expect(verifies(secret, delivery)).toEqual(delivery.event);
      expect(() => verifies('whsec_' + Buffer.alloc(24, 1).toString('base64'), receiver.received[0]!)).toThrow();
      expect(new Set(receiver.received.map((delivery) => delivery.id)).size).toBe(4);

      const log = (await api(server.url, `${PROJECT}/webhooks/${hookId}/deliveries`, as('olga'))).body as {
        deliveries: Array<{ status: string; attempts: number; last_status: number }>;
      };
      expect(log.deliveries).toHaveLength(4);
      expect(
        log.deliveries.every(
          (delivery) => delivery.status === 'delivered' && delivery.attempts === 1 && delivery.last_status === 204,
        ),
      ).toBe(true);
    });

    it('retries while the receiver fails, with backoff, and keeps the order of one canvas', async () => {
      const before = receiver.received.length;
      receiver.failures.push(500, 503);
      await addNode('second');
      await addNode('third');
      await waitFor(
        async () => receiver.received.length,
        (count) => count >= before + 2,
      );
      expect(receiver.received.slice(before).map((delivery) => delivery.event.data.revision)).toEqual([2, 3]);
      // The receiver answers before the dispatcher records the answer: the log is read once both are recorded.
      const log = await waitFor(
        async () =>
          (await api(server.url, `${PROJECT}/webhooks/${hookId}/deliveries?limit=2`, as('olga'))).body as {
            deliveries: Array<{ attempts: number; last_status: number; status: string }>;
          },
        (body) => body.deliveries.length === 2 && body.deliveries.every((delivery) => delivery.status !== 'pending'),
      );
      expect(log.deliveries.map((delivery) => [delivery.status, delivery.attempts, delivery.last_status])).toEqual([
        ['delivered', 1, 204],
        ['delivered', 3, 204],
      ]);
    });

    it('redelivers under the same webhook-id, and signs with both secrets for a day after a rotation', async () => {
      const first = receiver.received[0]!;
      const log = (await api(server.url, `${PROJECT}/webhooks/${hookId}/deliveries?limit=500`, as('olga'))).body as {
        deliveries: Array<{ delivery_id: string }>;
      };
      const oldest = log.deliveries.at(-1)!.delivery_id;
      expect(oldest).toBe(first.id);
      const before = receiver.received.length;
      const again = await api(
        server.url,
        `${PROJECT}/webhooks/${hookId}/deliveries/${oldest}/redeliver`,
        as('olga', { method: 'POST' }),
      );
      expect(again.status).toBe(202);
      await waitFor(
        async () => receiver.received.length,
        (count) => count > before,
      );
      expect(receiver.received.at(-1)!.id).toBe(first.id);
      expect(receiver.received.at(-1)!.body).toBe(first.body);

      const rotated = await api(
        server.url,
        `${PROJECT}/webhooks/${hookId}`,
        as('olga', { method: 'PATCH', body: { rotate_secret: true } }),
      );
      expect(rotated.status).toBe(200);
      const newSecret = (rotated.body as { secret: string }).secret;
      expect(newSecret).not.toBe(secret);
      await addNode('fourth');
      await waitFor(
        async () => receiver.received.at(-1)?.event.data.revision,
        (value) => value === 4,
      );
      const delivery = receiver.received.at(-1)!;
      expect(delivery.signature.split(' ')).toHaveLength(2);
      expect(verifies(newSecret, delivery)).toEqual(delivery.event);
      expect(verifies(secret, delivery)).toEqual(delivery.event);
      secret = newSecret;
    });

    it('sends an endpoint only the event types it asked for', async () => {
      const other = await startReceiver();
      try {
        const created = await register({ url: other.url, allow_private_network: true, events: ['run.succeeded'] });
        expect((created.body as { events: string[] }).events).toEqual(['run.succeeded']);
        const run = await api(
          server.url,
          `${CANVAS}/nodes/second/runs`,
          as('ed', { method: 'POST', headers: { 'idempotency-key': 'k2' } }),
        );
        expect(run.status).toBe(202);
        await waitFor(
          async () => other.received.length,
          (count) => count >= 1,
        );
        await waitFor(
          async () => receiver.received.filter((delivery) => delivery.event.type === 'run.succeeded').length,
          (count) => count >= 2,
        );
        expect(other.received.map((delivery) => delivery.event.type)).toEqual(['run.succeeded']);
        await api(
          server.url,
          `${PROJECT}/webhooks/${(created.body as { webhook_id: string }).webhook_id}`,
          as('olga', { method: 'DELETE' }),
        );
      } finally {
        await other.close();
      }
    });

    it('keeps undelivered events across a restart and delivers them once the receiver is back', async () => {
      const port = Number(new URL(receiver.url).port);
      await receiver.close();
      await addNode('while-down');
      await waitFor(
        async () =>
          (
            (await api(server.url, `${PROJECT}/webhooks/${hookId}/deliveries?limit=1`, as('olga'))).body as {
              deliveries: Array<{ attempts: number }>;
            }
          ).deliveries[0]!.attempts,
        (attempts) => attempts >= 1,
      );
      await server.close();
      receiver = await startReceiver(port);
      server = await start();
      await waitFor(
        async () => receiver.received.length,
        (count) => count >= 1,
        20_000,
      );
      expect(receiver.received[0]!.event).toMatchObject({ type: 'layout.revision', data: { revision: 5 } });
      expect(verifies(secret, receiver.received[0]!)).toBeTruthy();
    }, 60_000);

    it('sends nothing to a deleted endpoint; its log stays', async () => {
      const deleted = await api(server.url, `${PROJECT}/webhooks/${hookId}`, as('olga', { method: 'DELETE' }));
      expect(deleted.body).toEqual({ deleted: hookId });
      const before = receiver.received.length;
      await addNode('after-delete');
      expect(await server.store.driver.all("SELECT id FROM webhook_deliveries WHERE status = 'pending'")).toEqual([]);
      // A delivery that was in flight when the endpoint was deleted, and came back pending, is never claimed again.
      await server.store.driver.run(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = 0 WHERE webhook_id = ?",
        [hookId],
      );
      expect(await server.store.webhooks.claimDue('test-worker', 1000, 16)).toEqual([]);
      await server.store.driver.run("UPDATE webhook_deliveries SET status = 'failed' WHERE webhook_id = ?", [hookId]);
      expect(receiver.received.length).toBe(before);
      const audit = (await api(server.url, `${PROJECT}/audit`, as('olga'))).body as {
        entries: Array<{ action: string }>;
      };
      expect(audit.entries.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['webhook.created', 'webhook.rotated', 'webhook.redelivered', 'webhook.deleted']),
      );
    });
  });

  describe.skipIf(!target.available)('waiting for a failing receiver', () => {
    let owned: OwnedServer;
    beforeAll(async () => {
      owned = await ownedServer(target, { webhookRetryMs: 60_000 });
    }, 60_000);
    afterAll(async () => owned?.close());

    it('sleeps until the retry of the first delivery of a canvas, not spinning on the ones queued behind it', async () => {
      const { server, receiver, as } = owned;
      receiver.failures.push(...Array.from({ length: 100 }, () => 500));
      const hook = await api(
        server.url,
        `${PROJECT}/webhooks`,
        as({ method: 'POST', body: { url: receiver.url, allow_private_network: true, events: ['layout.revision'] } }),
      );
      expect(hook.status).toBe(201);
      for (const [index, id] of ['one', 'two'].entries()) {
        const node = {
          id,
          type: 'textAnnotationNode',
          position: { x: 0, y: 0 },
          data: { content: id, displayName: id },
        };
        expect(
          (await api(server.url, `${CANVAS}/nodes`, as({ method: 'POST', body: { node, base_revision: index } })))
            .status,
        ).toBe(201);
      }
      const Row = z.object({ seq: z.coerce.number(), attempts: z.coerce.number(), next_attempt_at: z.coerce.number() });
      const rows = async () =>
        (
          await server.store.driver.all('SELECT seq, attempts, next_attempt_at FROM webhook_deliveries ORDER BY seq')
        ).map((row) => Row.parse(row));
      // The first failed once and waits a minute; the second, due since it was made, waits behind it.
      const [first, second] = await waitFor(rows, (list) => list.length === 2 && list[0]!.attempts === 1);
      expect(second!.attempts).toBe(0);
      expect(second!.next_attempt_at).toBeLessThan(Date.now());
      expect(await server.store.webhooks.nextDueAt()).toBe(first!.next_attempt_at);
    });
  });

  describe.skipIf(!target.available)('giving up, and sending again by hand', () => {
    let owned: OwnedServer;
    beforeAll(async () => {
      owned = await ownedServer(target, { webhookRetryMs: 50, webhookGiveUpMs: 1000 });
    }, 60_000);
    afterAll(async () => owned?.close());

    it('a delivery given up on and sent again by hand is retried as a new one, not failed at its first failure', async () => {
      const { server, receiver, as } = owned;
      receiver.failures.push(...Array.from({ length: 1000 }, () => 500));
      const hook = await api(
        server.url,
        `${PROJECT}/webhooks`,
        as({ method: 'POST', body: { url: receiver.url, allow_private_network: true, events: ['layout.revision'] } }),
      );
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const hookId = (hook.body as { webhook_id: string }).webhook_id;
      const node = {
        id: 'n',
        type: 'textAnnotationNode',
        position: { x: 0, y: 0 },
        data: { content: 'n', displayName: 'n' },
      };
      expect(
        (await api(server.url, `${CANVAS}/nodes`, as({ method: 'POST', body: { node, base_revision: 0 } }))).status,
      ).toBe(201);
      const deliveries = async () =>
        (
          (await api(server.url, `${PROJECT}/webhooks/${hookId}/deliveries?limit=20`, as())).body as {
            deliveries: Array<{ delivery_id: string; status: string; attempts: number }>;
          }
        ).deliveries;
      // The receiver kept failing for the give-up time (1 s here): the delivery failed.
      const [given] = await waitFor(deliveries, (list) => list[0]?.status === 'failed');
      receiver.failures.length = 0;
      receiver.failures.push(503);
      const again = await api(
        server.url,
        `${PROJECT}/webhooks/${hookId}/deliveries/${given!.delivery_id}/redeliver`,
        as({ method: 'POST' }),
      );
      expect(again.status).toBe(202);
      // Its first try fails again; it is retried (from the redelivery, not the event) and arrives.
      const [delivered] = await waitFor(deliveries, (list) => list[0]?.status !== 'pending');
      expect(delivered).toMatchObject({ status: 'delivered', attempts: given!.attempts + 2 });
      expect(receiver.received.map((entry) => entry.id)).toEqual([given!.delivery_id]);
    });
  });
});
