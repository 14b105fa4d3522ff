import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, LIMITS } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS, type TestDatabase } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Webhook deliveries are independent (a receiver that never answers holds only its own endpoint), private networks only
 * when the operator allows them, delivery errors say what kind of failure without the socket's words, the network rule
 * classifies every address form (IPv4-mapped, NAT64, 6to4, …) and checks the peer actually reached, and endpoints and
 * pending deliveries are bounded.
 */

const IDP = 'https://idp.example';

interface Receiver {
  url: string;
  requests: number;
  /** Requests still open: this receiver answers only when told to (`release`). */
  open: ServerResponse[];
  release(): void;
  close(): Promise<void>;
}

/** A receiver on loopback; `hang` keeps every request open until released. */
async function startReceiver(hang: boolean): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    requests: 0,
    open: [],
    release() {
      for (const res of receiver.open.splice(0)) res.writeHead(204).end();
    },
    close: async () => undefined,
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      receiver.requests += 1;
      if (hang) receiver.open.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      receiver.release();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

describe.each(STORE_TARGETS)('webhook deliveries, bounded and independent: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let database: TestDatabase;
    let server: TestServer;
    let cookie = '';
    const revisions: Record<string, number> = { p: 0, q: 0, r: 0 };

    const start = (privateNetwork: boolean) =>
      startTestServer(
        target,
        {
          workers: 0,
          rateLimitPerMinute: 1_000_000,
          webhookRetryMs: 60_000,
          webhooksPrivateNetwork: privateNetwork,
          webhookEndpointsPerProject: 3,
        },
        { database },
      );
    const as = (request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });
    const register = (projectId: string, body: Record<string, unknown>) =>
      api(server.url, `/api/v1/projects/${projectId}/webhooks`, as({ method: 'POST', body }));
    async function write(projectId: string): Promise<void> {
      const node = CanvasNode.parse({
        id: `n${revisions[projectId]}`,
        type: 'textAnnotationNode',
        position: { x: 0, y: 0 },
        data: { content: 'x' },
      });
      await server.store.writes.createNode(
        {
          projectId,
          canvasId: 'c',
          baseRevision: revisions[projectId]!,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        node,
      );
      revisions[projectId]! += 1;
    }
    async function signIn() {
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'olga' },
        { expiresInMs: 60_000 },
      );
      cookie = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
    }

    beforeAll(async () => {
      database = await target.createDatabase();
      server = await start(true);
      const { projects } = server.store;
      await projects.createWorkspace('w');
      for (const projectId of ['p', 'q', 'r']) {
        await projects.createProject(projectId, 'w');
        await projects.createCanvas(projectId, 'c', false);
        await projects.addMember(projectId, { issuer: IDP, subject: 'olga' }, 'owner');
      }
      await signIn();
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await database?.cleanup();
    });

    it("a receiver that never answers holds only its own endpoint: another project's delivery arrives meanwhile", async () => {
      const hanging = await startReceiver(true);
      const healthy = await startReceiver(false);
      try {
        expect((await register('p', { url: hanging.url, allow_private_network: true })).status).toBe(201);
        expect((await register('q', { url: healthy.url, allow_private_network: true })).status).toBe(201);
        await write('p');
        await waitFor(
          async () => hanging.open.length,
          (open) => open === 1,
        );
        await write('q');
        // Well before the hanging delivery's 15 s timeout, which used to hold every other delivery behind it.
        await waitFor(
          async () => healthy.requests,
          (count) => count === 1,
          5000,
        );
        expect(hanging.open.length).toBe(1);
      } finally {
        await hanging.close();
        await healthy.close();
      }
    });

    it('says what kind of failure a delivery met, never the socket error text', async () => {
      const closed = await startReceiver(false);
      const url = closed.url;
      await closed.close();
      const created = await register('r', { url, allow_private_network: true });
      expect(created.status).toBe(201);
      const webhookId = (created.body as { webhook_id: string }).webhook_id;
      await write('r');
      const deliveries = await waitFor(
        async () =>
          (await api(server.url, `/api/v1/projects/r/webhooks/${webhookId}/deliveries`, as())).body as {
            deliveries: Array<{ attempts: number; last_error: string | null }>;
          },
        (body) => body.deliveries[0]?.attempts === 1,
      );
      const error = deliveries.deliveries[0]!.last_error!;
      expect(error).toBe('connection failed: connection refused');
      expect(error).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|:\d{2,5}/);
    });

    it('bounds endpoints per project (a setting) and pending deliveries per endpoint, counting what it drops', async () => {
      const receiver = await startReceiver(true);
      try {
        // Project q has one endpoint; the setting allows three.
        expect((await register('q', { url: receiver.url, allow_private_network: true })).status).toBe(201);
        const third = await register('q', { url: receiver.url, allow_private_network: true });
        expect(third.status).toBe(201);
        const fourth = await register('q', { url: receiver.url, allow_private_network: true });
        expect(fourth.status).toBe(422);
        expect(fourth.body).toMatchObject({ error: { code: 'limit_exceeded', details: { max_endpoints: 3 } } });

        // An endpoint with its cap of pending deliveries drops the next event, and says how many it dropped.
        const webhookId = (third.body as { webhook_id: string }).webhook_id;
        await server.store.driver.transaction(async (tx) => {
          for (let index = 0; index < LIMITS.pendingDeliveries; index += 1) {
            await tx.run(
              `INSERT INTO webhook_deliveries (id, webhook_id, project_id, canvas_id, seq, type, body, status, next_attempt_at, created_at)
               VALUES (?, ?, 'q', 'other', ?, 'layout.revision', '{}', 'pending', ?, ?)`,
              [`msg_filler_${index}`, webhookId, index, Date.now() + 86_400_000, Date.now()],
            );
          }
        });
        await write('q');
        const listed = (await api(server.url, '/api/v1/projects/q/webhooks', as())).body as {
          webhooks: Array<{ webhook_id: string; dropped_deliveries: number }>;
        };
        expect(listed.webhooks.find((hook) => hook.webhook_id === webhookId)?.dropped_deliveries).toBe(1);
        const queued = await server.store.driver.get(
          "SELECT COUNT(*) AS pending FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'",
          [webhookId],
        );
        expect(Number(queued?.pending)).toBe(LIMITS.pendingDeliveries);
      } finally {
        await receiver.close();
      }
    });

    it('private networks only when the operator allows them: refused on registration, and deliveries to endpoints allowed earlier go public-only', async () => {
      // Registered while the operator allowed private networks: plain http to a public address.
      const plain = await register('r', { url: 'http://1.1.1.1/hooks', allow_private_network: true });
      expect(plain.status, JSON.stringify(plain.body)).toBe(201);
      await server.close();
      server = await start(false);
      await signIn();
      const refused = await register('r', { url: 'http://127.0.0.1:9/h', allow_private_network: true });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: { code: 'invalid_arguments', message: expect.stringContaining('allow_private_network') },
      });
      const listed = (await api(server.url, '/api/v1/projects/r/webhooks', as())).body as {
        private_network_allowed: boolean;
        webhooks: Array<{ webhook_id: string }>;
      };
      expect(listed.private_network_allowed).toBe(false);
      // The endpoints project r registered while allowed: their next deliveries meet the rule as it stands now.
      await server.store.driver.run(
        "UPDATE webhook_deliveries SET status = 'failed' WHERE webhook_id IN (SELECT id FROM webhooks WHERE project_id = 'r') AND status = 'pending'",
      );
      await write('r');
      const firstError = async (webhookId: string) => {
        const deliveries = await waitFor(
          async () =>
            (await api(server.url, `/api/v1/projects/r/webhooks/${webhookId}/deliveries`, as())).body as {
              deliveries: Array<{ attempts: number; last_error: string | null; status: string }>;
            },
          (body) => body.deliveries.some((delivery) => delivery.status === 'pending' && delivery.attempts === 1),
        );
        return deliveries.deliveries.find((delivery) => delivery.attempts === 1 && delivery.status === 'pending')
          ?.last_error;
      };
      const [loopback, publicPlain] = await Promise.all(
        listed.webhooks.map((hook) => hook.webhook_id).map((webhookId) => firstError(webhookId)),
      );
      // Plain http was allowed only with private networks: now both are refused before any connection is made.
      expect(loopback).toMatch(/^refused by the network rule: the endpoint must be https/);
      expect(publicPlain).toMatch(/^refused by the network rule: the endpoint must be https/);
    });
  });
});
