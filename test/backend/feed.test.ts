import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SNAPSHOT_CONTRACT_VERSION } from '../../src/contract/index.js';
import { cli, cliProcess, serveProcess, type ServeProcess } from '../support/cli.js';
import { connectClient, structured } from '../support/mcp.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { openEvents, type EventReader, type ReceivedEvent } from '../support/sse.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP, seedWorld, type World } from './world.js';

/**
 * The change feed: one subscriber receives every revision and node state change, in order, with the right author,
 * within 1 s, whoever made it: an agent through MCP, a person through the REST API, another `serve` process on the same
 * database, a `worker` process running a node; and a reconnect with Last-Event-ID misses nothing.
 */

const CANVAS = '/api/v2/projects/p1/canvases/c1';
const ids = { project_id: 'p1', canvas_id: 'c1' };
const text = (id: string) => ({ id, type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: id } });

interface LayoutData {
  revision: number;
  author: Record<string, unknown> | null;
  changes: Array<{ kind: string; id: string; change: string; node?: { id: string } }>;
}

describe.each(STORE_TARGETS)('the change feed: $name', (target) => {
  describe.skipIf(!target.available)('across processes', () => {
    let server: TestServer;
    let world: World;
    let agent: Client;
    let second: ServeProcess;
    let secondUrl: string;
    let worker: ServeProcess | undefined;
    let storeFlags: string[];

    beforeAll(async () => {
      server = await startTestServer(target);
      world = await seedWorld(server.store);
      await server.store.projects.addMember('p1', { issuer: IDP, subject: 'alice' }, 'editor');
      agent = await connectClient(server.server.mcpUrl, {
        Authorization: `Bearer ${world.tokens.editor.secret}`,
        'X-Agent-Run-Id': world.chatRuns.edit,
      });
      const location = server.database.location;
      storeFlags =
        location.kind === 'sqlite'
          ? ['--data', location.file.replace(/\/canvas\.db$/, '')]
          : ['--database-url', location.url, '--data', server.server.config.dataDir];
      second = serveProcess([...storeFlags, '--port', '0', '--no-seed-demo', '--workers', '0', '--log-level', 'warn']);
      [, secondUrl] = (await second.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)) as [string, string];
    }, 60_000);
    afterAll(async () => {
      await agent?.close();
      for (const child of [second, worker]) {
        if (child && child.child.exitCode === null) {
          child.child.kill('SIGTERM');
          await child.exit;
        }
      }
      await server?.close();
    });

    async function revision(): Promise<number> {
      return structured<{ layout: { revision: number } }>(await agent.callTool({ name: 'get_canvas', arguments: ids }))
        .layout.revision;
    }

    async function feed(after: number | null, lastEventId?: string, baseUrl = server.url): Promise<EventReader> {
      const query = after === null ? '' : `?after=${after}`;
      const reader = await openEvents(`${baseUrl}${CANVAS}/events${query}`, {
        authorization: `Bearer ${world.tokens.backendKind.secret}`,
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      });
      expect(reader.status).toBe(200);
      return reader;
    }

    /** Waits for the layout event of a revision; asserts it came within 1 s of `since`. */
    async function layoutEvent(reader: EventReader, revision: number, since: number): Promise<LayoutData> {
      const event = await reader.waitFor(
        (received) => received.event === 'layout' && received.id === String(revision),
        5_000,
      );
      expect(event.at - since, `revision ${revision} took ${event.at - since} ms to arrive`).toBeLessThan(1_000);
      return event.data as LayoutData;
    }

    /** The same layout event, read by a subscriber of the second `serve` process: equal, and within 1 s as well. */
    async function sameLayoutEvent(
      reader: EventReader,
      remote: EventReader,
      revision: number,
      since: number,
    ): Promise<LayoutData> {
      const local = await layoutEvent(reader, revision, since);
      expect(await layoutEvent(remote, revision, since)).toEqual(local);
      return local;
    }

    it('delivers every revision and state change in order, with its author, from agents, people and other processes, to subscribers of both processes', async () => {
      const start = await revision();
      const reader = await feed(start);
      // A subscriber of the second serve process on the same database receives the same events.
      const remote = await feed(start, undefined, secondUrl);
      try {
        // An agent, through MCP on this process.
        let since = Date.now();
        await agent.callTool({
          name: 'create_canvas_node',
          arguments: { ...ids, base_revision: start, node: text('from-agent') },
        });
        const byAgent = await sameLayoutEvent(reader, remote, start + 1, since);
        expect(byAgent.author).toEqual({
          kind: 'agent',
          token_id: world.tokens.editor.id,
          token_name: 'editor',
          agent_run_id: world.chatRuns.edit,
        });
        expect(byAgent.changes).toEqual([
          { kind: 'node', id: 'from-agent', change: 'create', node: text('from-agent') },
        ]);

        // A person, through the REST API with a session.
        const secret = await server.store.sessions.createLoginLink(
          { issuer: IDP, subject: 'alice' },
          { expiresInMs: 60_000 },
        );
        const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${secret}`);
        since = Date.now();
        const patched = await api(server.url, `${CANVAS}/nodes/from-agent`, {
          method: 'PATCH',
          headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
          body: { base_revision: start + 1, set: { position: { x: 40, y: 40 } } },
        });
        expect(patched.status).toBe(200);
        const byPerson = await sameLayoutEvent(reader, remote, start + 2, since);
        expect(byPerson.author).toEqual({ kind: 'person', issuer: IDP, subject: 'alice' });
        expect(byPerson.changes[0]).toMatchObject({
          change: 'update',
          node: { id: 'from-agent', position: { x: 40, y: 40 } },
        });

        // An agent through another serve process on the same database.
        const elsewhere = await connectClient(`${secondUrl}/mcp/`, {
          Authorization: `Bearer ${world.tokens.editor.secret}`,
          'X-Agent-Run-Id': world.chatRuns.edit,
        });
        try {
          since = Date.now();
          const created = await elsewhere.callTool({
            name: 'create_canvas_node',
            arguments: { ...ids, base_revision: start + 2, node: text('from-second') },
          });
          expect(created.isError).toBeFalsy();
        } finally {
          await elsewhere.close();
        }
        const bySecond = await sameLayoutEvent(reader, remote, start + 3, since);
        expect(bySecond.changes.map((change) => change.id)).toEqual(['from-second']);

        // A worker process changing a node's run state.
        await agent.callTool({
          name: 'create_canvas_node',
          arguments: {
            ...ids,
            base_revision: start + 3,
            node: {
              id: 'frame',
              type: 'imageGenNode',
              position: { x: 0, y: 0 },
              data: { prompt: 'a gull', size: '0.5K', imageUrl: null, aspectRatio: '1:1' },
            },
          },
        });
        await sameLayoutEvent(reader, remote, start + 4, Date.now() - 500);
        worker = cliProcess([
          'worker',
          ...storeFlags,
          '--workers',
          '1',
          '--run-duration-ms',
          '600',
          '--log-level',
          'warn',
        ]);
        await worker.waitFor(/worker running/);
        const from = reader.events.length;
        const remoteFrom = remote.events.length;
        const submitted = await cli(['admin', 'node-run', 'submit', 'p1', 'c1', 'frame', ...storeFlags, '--json']);
        const runId = submitted.json!.run_id as string;
        const stateOf = (status: string) => (received: ReceivedEvent) =>
          received.event === 'node_state' &&
          (received.data as { node_id: string; state: { externalRunId: string; lastRunStatus: string } | null })
            .node_id === 'frame' &&
          (received.data as { state: { externalRunId: string; lastRunStatus: string } }).state?.externalRunId ===
            runId &&
          (received.data as { state: { lastRunStatus: string } }).state.lastRunStatus === status;
        const succeeded = await reader.waitFor(stateOf('succeeded'), 10_000, from);
        const finishedAt = Date.parse((await server.store.runs.getRun('p1', 'c1', runId))!.finished_at!);
        expect(succeeded.at - finishedAt, 'the final state arrives within 1 s of the worker recording it').toBeLessThan(
          1_000,
        );
        const remoteSucceeded = await remote.waitFor(stateOf('succeeded'), 10_000, remoteFrom);
        expect(remoteSucceeded.data).toEqual(succeeded.data);
        expect(remoteSucceeded.at - finishedAt, 'and at the second process within 1 s').toBeLessThan(1_000);
        // Node states are the latest state of each node: a state shorter than one delivery may merge into the next,
        // but they never go backwards.
        const order = ['queued', 'running', 'succeeded'];
        const seen = reader.events
          .slice(from)
          .filter(
            (received) => received.event === 'node_state' && (received.data as { node_id: string }).node_id === 'frame',
          )
          .map((received) =>
            order.indexOf((received.data as { state: { lastRunStatus: string } }).state.lastRunStatus),
          );
        expect(seen).toEqual([...seen].sort((left, right) => left - right));
        expect(seen.at(-1)).toBe(2);
        // Revisions arrived once each and in order.
        for (const subscriber of [reader, remote]) {
          const revisions = subscriber.events
            .filter((received) => received.event === 'layout')
            .map((received) => Number(received.id));
          expect(revisions).toEqual([start + 1, start + 2, start + 3, start + 4]);
        }
      } finally {
        reader.close();
        remote.close();
      }
    }, 60_000);

    it('resumes from Last-Event-ID without missing a revision, and tells a client too far behind to re-read', async () => {
      const start = await revision();
      const first = await feed(start);
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: start, node: text(`resume-${start}-a`) },
      });
      const seen = await first.waitFor((received) => received.event === 'layout' && received.id === String(start + 1));
      first.close();
      await agent.callTool({
        name: 'create_canvas_node',
        arguments: { ...ids, base_revision: start + 1, node: text(`resume-${start}-b`) },
      });
      await agent.callTool({
        name: 'delete_canvas_node',
        arguments: { ...ids, base_revision: start + 2, node_id: `resume-${start}-a` },
      });

      const resumed = await feed(null, seen.id);
      try {
        await resumed.waitFor((received) => received.event === 'layout' && received.id === String(start + 3));
        const replayed = resumed.events.filter((received) => received.event === 'layout');
        expect(replayed.map((received) => Number(received.id))).toEqual([start + 2, start + 3]);
        expect((replayed[1]!.data as LayoutData).changes).toEqual([
          { kind: 'node', id: `resume-${start}-a`, change: 'delete' },
        ]);
      } finally {
        resumed.close();
      }
      const ahead = await feed(start + 1000);
      try {
        const reset = await ahead.waitFor((received) => received.event === 'reset');
        expect(reset.data).toMatchObject({ reason: 'unknown_revision', revision: start + 3 });
      } finally {
        ahead.close();
      }
    }, 30_000);

    it('refuses a feed to a caller without read rights, and ends one whose token is revoked', async () => {
      const refused = await fetch(`${server.url}/api/v2/projects/p2/canvases/c2/events`, {
        headers: { authorization: `Bearer ${world.tokens.backendKind.secret}` },
      });
      expect(refused.status).toBe(403);
      const { tokenId, secret } = await server.store.tokens.createToken({
        name: 'feed',
        kind: 'backend',
        role: 'viewer',
        projects: ['p1'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      const reader = await openEvents(`${server.url}${CANVAS}/events`, {
        authorization: `Bearer ${secret}`,
        ...{ 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
      expect(reader.status).toBe(200);
      await server.store.tokens.revokeToken(tokenId);
      const reset = await reader.waitFor((received) => received.event === 'reset', 8_000);
      expect(reset.data).toMatchObject({ reason: 'access_revoked' });
      await reader.closed;
    }, 20_000);

    it('ends a feed whose session ends', async () => {
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'alice' },
        { expiresInMs: 60_000 },
      );
      const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
      const reader = await openEvents(`${server.url}${CANVAS}/events`, { cookie });
      expect(reader.status).toBe(200);
      const sessions = (await server.store.sessions.listSessions()).filter(
        (session) => session.person.subject === 'alice',
      );
      const newest = sessions.reduce((latest, session) => (session.createdAt > latest.createdAt ? session : latest));
      await server.store.sessions.endSession(newest.id);
      const reset = await reader.waitFor((received) => received.event === 'reset', 8_000);
      expect(reset.data).toMatchObject({ reason: 'access_revoked' });
      await reader.closed;
    }, 20_000);
  });
});
