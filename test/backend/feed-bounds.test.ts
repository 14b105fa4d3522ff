import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { openEvents } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * The defect guarded here: a feed's catch-up on a canvas whose recent revisions carry large bodies held up to 1,000
 * full revisions per connection; 30 unread connections of a viewer took the server from 457 to 1,205 MB. The replay is
 * now read a page at a time behind the socket's backpressure, bounded in bytes (past it: `reset`), and the feeds one
 * person or session may hold open are capped.
 */

const REVISIONS = 100;
const EVENTS = '/api/v2/projects/p/canvases/big/events';

/** About 400 KB: strings are at most 100,000 characters each. */
function bigNode(version: number) {
  return CanvasNode.parse({
    id: 'note',
    type: 'beatContextNode',
    position: { x: 0, y: 0 },
    data: {
      content: `v${version}`,
      mainline_context: Array.from({ length: 4 }, () => `${version}`.padEnd(100_000, 'x')),
    },
  });
}

/** A feed request on a raw socket that reads nothing: what a client that never reads costs the server. */
function unreadFeed(url: string, path: string, token: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
      );
      // Takes the first bytes (the status line), then stops reading.
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
    });
    socket.on('error', reject);
  });
}

function serverMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
}

describe.each(STORE_TARGETS)('feed bounds: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let viewer: string;

    beforeAll(async () => {
      server = await startTestServer(target);
      const { projects, tokens, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'big', false);
      await projects.addMember('p', { issuer: IDP, subject: 'vera' }, 'viewer');
      ({ secret: viewer } = await tokens.createToken({
        name: 'viewer',
        kind: 'backend',
        role: 'viewer',
        projects: ['p'],
        workspaces: [],
        actor: { issuer: IDP, subject: 'vera' },
        expiresAt: null,
      }));
      const at = (baseRevision: number) => ({
        projectId: 'p',
        canvasId: 'big',
        baseRevision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      });
      await writes.createNode(at(0), bigNode(0));
      for (let revision = 1; revision < REVISIONS; revision += 1)
        await writes.updateNode(at(revision), 'note', { data: bigNode(revision).data });
    }, 180_000);
    afterAll(async () => server?.close());

    const actorHeaders = { authorization: '', 'x-service-actor-issuer': IDP, 'x-service-actor-subject': 'vera' };

    it('sends reset instead of replaying 40 MB of revisions, and the feed goes on live from there', async () => {
      const reader = await openEvents(`${server.url}${EVENTS}?after=1`, {
        ...actorHeaders,
        authorization: `Bearer ${viewer}`,
      });
      try {
        expect(reader.status).toBe(200);
        const first = await reader.waitFor(() => true, 10_000);
        expect(first).toMatchObject({ event: 'reset', data: { reason: 'gap_too_large', revision: REVISIONS } });
        expect(reader.events.filter((event) => event.event === 'layout')).toHaveLength(0);
      } finally {
        reader.close();
      }
    });

    it('replays a gap within the byte bound in full, in order', async () => {
      const reader = await openEvents(`${server.url}${EVENTS}?after=${REVISIONS - 5}`, {
        ...actorHeaders,
        authorization: `Bearer ${viewer}`,
      });
      try {
        await reader.waitFor((event) => event.event === 'layout' && event.id === String(REVISIONS), 10_000);
        const layouts = reader.events.filter((event) => event.event === 'layout').map((event) => Number(event.id));
        expect(layouts).toEqual([REVISIONS - 4, REVISIONS - 3, REVISIONS - 2, REVISIONS - 1, REVISIONS]);
        expect(reader.events.some((event) => event.event === 'reset')).toBe(false);
      } finally {
        reader.close();
      }
    });

    it('holds little memory for 16 feeds that never read, and refuses a 17th of the same person with 429', async () => {
      const before = serverMemory();
      const sockets: Socket[] = [];
      const credential = `${viewer}\r\nX-Service-Actor-Issuer: ${IDP}\r\nX-Service-Actor-Subject: vera`;
      try {
        // Half ask for 99 revisions (40 MB: past the byte bound), half for 8 (3.2 MB, which the socket will not take).
        for (let index = 0; index < 16; index += 1) {
          sockets.push(
            await unreadFeed(server.url, `${EVENTS}?after=${index % 2 === 0 ? 1 : REVISIONS - 8}`, credential),
          );
        }
        const refused = await fetch(`${server.url}${EVENTS}`, {
          headers: { ...actorHeaders, authorization: `Bearer ${viewer}` },
        });
        expect(refused.status).toBe(429);
        expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
        // Memory settles once every replay has read what it will read and waits on its socket.
        let last = serverMemory();
        const grown = await waitFor(
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 250));
            const now = serverMemory();
            const settled = Math.abs(now - last) < 2e6;
            last = now;
            return settled ? now - before : null;
          },
          (value) => value !== null,
          15_000,
          0,
        );
        process.stderr.write(`memory held by 16 feeds that never read: ${((grown ?? 0) / 1e6).toFixed(1)} MB\n`);
        expect(grown).toBeLessThan(120e6);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
      // Closed feeds give their places back.
      await waitFor(
        async () =>
          (
            await fetch(`${server.url}${EVENTS}`, {
              headers: { ...actorHeaders, authorization: `Bearer ${viewer}` },
              signal: AbortSignal.timeout(2000),
            }).catch(() => null)
          )?.status,
        (status) => status === 200,
        10_000,
        100,
      );
    }, 60_000);
  });
});
