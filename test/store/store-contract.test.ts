import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, type CanvasEdge } from '../../src/contract/index.js';
import { CanvasError } from '../../src/shared/errors.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { WriteTarget } from '../../src/store/layout-writes/index.js';
import { STORE_TARGETS, openTestStore, type TestDatabase } from '../support/stores.js';

/** One suite, every store implementation: SQLite files and PostgreSQL. */

async function expectCanvasError(promise: Promise<unknown>, code: string): Promise<CanvasError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected a CanvasError ${code}`).toBeInstanceOf(CanvasError);
  expect((error as CanvasError).code).toBe(code);
  return error as CanvasError;
}

function textNode(id: string, extra: Partial<CanvasNode> = {}): CanvasNode {
  return CanvasNode.parse({
    id,
    type: 'textAnnotationNode',
    position: { x: 1, y: 2 },
    data: { content: id },
    ...extra,
  });
}

function edge(id: string, source: string, target: string): CanvasEdge {
  return { id, source, target };
}

describe.each(STORE_TARGETS)('store contract: $name', (target) => {
  describe.skipIf(!target.available)('on a real database', () => {
    let store: Store;
    let database: TestDatabase;
    let close: () => Promise<void>;
    let canvasCounter = 0;

    beforeAll(async () => {
      ({ store, database, close } = await openTestStore(target));
      await store.projects.createWorkspace('w');
      await store.projects.createProject('p', 'w');
    });
    afterAll(async () => close());

    async function freshCanvas(
      options: { locked?: boolean } = {},
    ): Promise<WriteTarget & { at(revision: number, clientSaveId?: string | null): WriteTarget }> {
      canvasCounter += 1;
      const canvasId = `c${canvasCounter}`;
      await store.projects.createCanvas('p', canvasId, options.locked ?? false);
      const base = { projectId: 'p', canvasId, baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE };
      return { ...base, at: (revision, clientSaveId = null) => ({ ...base, baseRevision: revision, clientSaveId }) };
    }

    describe('migrations', () => {
      it('leaves nothing pending after open and answers ping', async () => {
        expect(await store.pendingMigrations()).toEqual([]);
        await expect(store.ping()).resolves.toBeUndefined();
      });
    });

    describe('administration', () => {
      it('refuses duplicates and dangling references with clear codes', async () => {
        await expectCanvasError(store.projects.createWorkspace('w'), 'already_exists');
        await expectCanvasError(store.projects.createProject('p', 'w'), 'already_exists');
        await expectCanvasError(store.projects.createProject('p2', 'no-such-workspace'), 'not_found');
        await expectCanvasError(store.projects.createCanvas('no-such-project', 'c', false), 'not_found');
        await store.projects.createCanvas('p', 'dup', false);
        await expectCanvasError(store.projects.createCanvas('p', 'dup', false), 'already_exists');
      });

      it('stores memberships and replaces a role', async () => {
        const actor = { issuer: 'https://idp.example', subject: 'alice' };
        expect(await store.projects.getMemberRole('p', actor)).toBeUndefined();
        await store.projects.addMember('p', actor, 'viewer');
        await store.projects.addMember('p', actor, 'owner');
        expect(await store.projects.getMemberRole('p', actor)).toBe('owner');
      });

      it('stores tokens hashed, finds them by secret, and revokes them', async () => {
        const { tokenId, secret } = await store.tokens.createToken({
          name: 'agent',
          kind: 'agent',
          role: 'editor',
          projects: ['p', 'p'],
          workspaces: ['w'],
          actor: { issuer: 'iss', subject: 'sub' },
          expiresAt: null,
        });
        expect(secret).toMatch(/^cmcp_[A-Za-z0-9_-]{43}$/);
        const found = await store.tokens.findTokenBySecret(secret);
        expect(found).toMatchObject({ id: tokenId, kind: 'agent', role: 'editor', projects: ['p'], workspaces: ['w'] });
        expect(found?.actor).toEqual({ issuer: 'iss', subject: 'sub' });
        expect(await store.tokens.findTokenBySecret(`${secret}x`)).toBeUndefined();

        const rawRows = await readAllTokenRows(database);
        expect(rawRows).not.toContain(secret);

        await store.tokens.revokeToken(tokenId);
        expect((await store.tokens.getToken(tokenId))?.revokedAt).toEqual(expect.any(Number));
        await expectCanvasError(store.tokens.revokeToken('tok_missing'), 'not_found');
        await expectCanvasError(
          store.tokens.createToken({
            name: 'x',
            kind: 'agent',
            role: 'viewer',
            projects: ['nope'],
            workspaces: [],
            actor: null,
            expiresAt: null,
          }),
          'not_found',
        );
      });

      it('creates and ends chat runs bound to a canvas', async () => {
        const canvas = await freshCanvas();
        const id = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: canvas.canvasId,
          actor: { issuer: 'i', subject: 's' },
          canEdit: true,
          expiresAt: null,
        });
        expect(id).toMatch(/^chat_/);
        expect(await store.chatRuns.getChatRun(id)).toMatchObject({
          canEdit: true,
          endedAt: null,
          canvasId: canvas.canvasId,
        });
        await store.chatRuns.endChatRun(id);
        expect((await store.chatRuns.getChatRun(id))?.endedAt).toEqual(expect.any(Number));
        await expectCanvasError(
          store.chatRuns.createChatRun({
            projectId: 'p',
            canvasId: 'missing',
            actor: null,
            canEdit: true,
            expiresAt: null,
          }),
          'not_found',
        );
      });
    });

    describe('sign-in links and sessions', () => {
      it('spends a link once, and ends a session when idle too long or past its absolute end', async () => {
        let now = 1_900_000_000_000;
        const timed = await openStore(database.location, { migrate: false, clock: () => now });
        try {
          const times = { idleMs: 60 * 60_000, absoluteMs: 3 * 60 * 60_000, rememberMs: 3 * 60 * 60_000 };
          const person = { issuer: 'idp', subject: 'sam' };
          const link = await timed.sessions.createLoginLink(person, { expiresInMs: 15 * 60_000 });
          const { sessionSecret, session } = await timed.sessions.signIn(link, times);
          expect(session.person).toEqual(person);
          await expectCanvasError(timed.sessions.signIn(link, times), 'unauthenticated');
          expect(await timed.sessions.findSession(sessionSecret, times, undefined)).toMatchObject({ id: session.id });
          // Used every 50 minutes it stays alive, until its absolute end.
          for (let step = 0; step < 3; step += 1) {
            now += 50 * 60_000;
            expect(
              await timed.sessions.findSession(sessionSecret, times, undefined),
              `after ${(step + 1) * 50} minutes`,
            ).toBeDefined();
          }
          now += 31 * 60_000;
          expect(await timed.sessions.findSession(sessionSecret, times, undefined)).toBeUndefined();
          const idle = await timed.sessions.signIn(
            await timed.sessions.createLoginLink(person, { expiresInMs: 60_000 }),
            times,
          );
          now += 61 * 60_000;
          expect(await timed.sessions.findSession(idle.sessionSecret, times, undefined)).toBeUndefined();
          const late = await timed.sessions.createLoginLink(person, { expiresInMs: 60_000 });
          now += 61_000;
          await expectCanvasError(timed.sessions.signIn(late, times), 'unauthenticated');
        } finally {
          await timed.close();
        }
      });

      it('renews a remembered session with each use, up to a year, and only for the browser it was opened in', async () => {
        let now = 1_900_000_000_000;
        const day = 86_400_000;
        const timed = await openStore(database.location, { migrate: false, clock: () => now });
        try {
          const times = { idleMs: 12 * 3_600_000, absoluteMs: 7 * day, rememberMs: 30 * day };
          const person = { issuer: 'idp', subject: 'rem' };
          const browser = 'Mozilla/5.0 (iPad) Safari';
          const link = await timed.sessions.createLoginLink(person, { expiresInMs: 60_000 });
          const { sessionSecret } = await timed.sessions.signIn(link, times, browser, true);
          // Used every 20 days it lives past its first 30 (each use moves its end), but not past a year.
          for (let days = 20; days <= 360; days += 20) {
            now += 20 * day;
            expect(await timed.sessions.findSession(sessionSecret, times, browser), `day ${days}`).toBeDefined();
          }
          now += 6 * day;
          expect(await timed.sessions.findSession(sessionSecret, times, browser), 'past a year').toBeUndefined();

          // The same cookie in another browser is refused, and stays good in its own.
          const other = await timed.sessions.signIn(
            await timed.sessions.createLoginLink(person, { expiresInMs: 60_000 }),
            times,
            browser,
            true,
          );
          expect(await timed.sessions.findSession(other.sessionSecret, times, 'curl/8.5')).toBeUndefined();
          expect(await timed.sessions.findSession(other.sessionSecret, times, undefined)).toBeUndefined();
          expect(await timed.sessions.findSession(other.sessionSecret, times, browser)).toBeDefined();
          // Left unused past its 30 days, it ends.
          now += 31 * day;
          expect(await timed.sessions.findSession(other.sessionSecret, times, browser)).toBeUndefined();
        } finally {
          await timed.close();
        }
      });
    });

    describe('revision-checked writes', () => {
      it('creates a node, bumps the revision by exactly 1, and answers a receipt', async () => {
        const canvas = await freshCanvas();
        const receipt = await store.writes.createNode(canvas, textNode('a'));
        expect(receipt).toMatchObject({
          operation: 'create_node',
          node_id: 'a',
          revision: 1,
          previous_revision: 0,
          replayed: false,
        });
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(1);
      });

      it('refuses a stale base_revision with the current revision and the nodes changed since', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas, textNode('a'));
        await store.writes.createNode(canvas.at(1), textNode('b'));
        const error = await expectCanvasError(
          store.writes.createNode(canvas.at(0), textNode('c')),
          'revision_conflict',
        );
        expect(error.details).toMatchObject({ current_revision: 2, base_revision: 0, changed_node_ids: ['a', 'b'] });
        const layout = await store.layout.loadLayout('p', canvas.canvasId);
        expect(layout?.nodes.map((row) => row.id)).toEqual(['a', 'b']);
      });

      it('refuses an id already on the canvas and a parentId that names no node, writing nothing', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas, textNode('a'));
        await expectCanvasError(store.writes.createNode(canvas.at(1), textNode('a')), 'already_exists');
        const missingParent = await expectCanvasError(
          store.writes.createNode(canvas.at(1), textNode('b', { parentId: 'ghost' })),
          'invalid_arguments',
        );
        expect(missingParent.details.issues).toEqual([expect.objectContaining({ path: 'node.parentId' })]);
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(1);
      });

      it('checks the edit authorization inside the write: an ended or foreign chat run writes nothing', async () => {
        const canvas = await freshCanvas();
        const other = await freshCanvas();
        const { tokenId } = await store.tokens.createToken({
          name: 'agent',
          kind: 'agent',
          role: 'editor',
          projects: ['p'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        });
        const chatRun = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: canvas.canvasId,
          actor: null,
          tokenId,
          canEdit: true,
          expiresAt: null,
        });
        const foreign = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: other.canvasId,
          actor: null,
          tokenId,
          canEdit: true,
          expiresAt: null,
        });
        const asAgent = (agentRunId: string | null, presenter = tokenId) => ({
          ...canvas.at(0),
          authorization: { kind: 'agent' as const, agentRunId, tokenId: presenter, actor: null, now: Date.now() },
        });
        await expectCanvasError(store.writes.createNode(asAgent(null), textNode('a')), 'edit_not_authorized');
        await expectCanvasError(store.writes.createNode(asAgent(foreign), textNode('a')), 'edit_not_authorized');
        await store.chatRuns.endChatRun(chatRun);
        const ended = await expectCanvasError(
          store.writes.createNode(asAgent(chatRun), textNode('a')),
          'edit_not_authorized',
        );
        expect(ended.message).toContain('has ended');
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(0);
        const active = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: canvas.canvasId,
          actor: null,
          tokenId,
          canEdit: true,
          expiresAt: null,
        });
        await expect(store.writes.createNode(asAgent(active), textNode('a'))).resolves.toMatchObject({ revision: 1 });
      });

      it('binds a chat run to its presenter: another token, or a chat run bound to nobody, writes nothing', async () => {
        const canvas = await freshCanvas();
        const token = async (name: string) =>
          (
            await store.tokens.createToken({
              name,
              kind: 'agent',
              role: 'editor',
              projects: ['p'],
              workspaces: [],
              actor: null,
              expiresAt: null,
            })
          ).tokenId;
        const owner = await token('owner-agent');
        const intruder = await token('intruder-agent');
        const boundToOwner = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: canvas.canvasId,
          actor: null,
          tokenId: owner,
          canEdit: true,
          expiresAt: null,
        });
        const unbound = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: canvas.canvasId,
          actor: null,
          canEdit: true,
          expiresAt: null,
        });
        const person = { issuer: 'https://idp.example', subject: 'mara' };
        const forPerson = await store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: canvas.canvasId,
          actor: person,
          canEdit: true,
          expiresAt: null,
        });
        const write = (agentRunId: string, tokenId: string, actor: { issuer: string; subject: string } | null = null) =>
          store.writes.createNode(
            { ...canvas.at(0), authorization: { kind: 'agent', agentRunId, tokenId, actor, now: Date.now() } },
            textNode(`n-${agentRunId}-${tokenId}`),
          );
        expect((await expectCanvasError(write(boundToOwner, intruder), 'edit_not_authorized')).message).toContain(
          'another token',
        );
        expect((await expectCanvasError(write(unbound, owner), 'edit_not_authorized')).message).toContain(
          'bound to no token',
        );
        expect((await expectCanvasError(write(forPerson, intruder), 'edit_not_authorized')).message).toContain(
          'another person',
        );
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(0);
        await expect(write(forPerson, intruder, person)).resolves.toMatchObject({ revision: 1 });
        await expect(write(boundToOwner, owner)).rejects.toMatchObject({ code: 'revision_conflict' });
      });

      it('refuses every write on a locked canvas', async () => {
        const canvas = await freshCanvas({ locked: true });
        await expectCanvasError(store.writes.createNode(canvas, textNode('a')), 'canvas_locked');
        await expectCanvasError(store.writes.deleteNode(canvas, 'a'), 'canvas_locked');
        await store.projects.setCanvasLocked('p', canvas.canvasId, false);
        await expect(store.writes.createNode(canvas, textNode('a'))).resolves.toMatchObject({ revision: 1 });
      });

      it('deletes a node with exactly its connected edges', async () => {
        const canvas = await freshCanvas();
        let revision = 0;
        for (const id of ['a', 'b', 'c', 'd']) await store.writes.createNode(canvas.at(revision++), textNode(id));
        for (const [id, source, to] of [
          ['ab', 'a', 'b'],
          ['ca', 'c', 'a'],
          ['bc', 'b', 'c'],
          ['cd', 'c', 'd'],
        ] as const) {
          await store.writes.createEdge(canvas.at(revision++), edge(id, source, to));
        }
        const receipt = await store.writes.deleteNode(canvas.at(revision), 'a');
        expect(receipt.deleted_edge_ids.sort()).toEqual(['ab', 'ca']);
        expect(receipt.revision).toBe(revision + 1);
        const layout = await store.layout.loadLayout('p', canvas.canvasId);
        expect(layout?.edges.map((row) => row.id)).toEqual(['bc', 'cd']);
        expect(layout?.nodes.map((row) => row.id)).toEqual(['b', 'c', 'd']);
        await expectCanvasError(store.writes.deleteNode(canvas.at(revision + 1), 'a'), 'not_found');
      });

      it('moves the children of a deleted parent to its parent, keeping their place', async () => {
        const canvas = await freshCanvas();
        const group = (id: string, x: number, y: number, parentId?: string) =>
          CanvasNode.parse({
            id,
            type: 'groupNode',
            position: { x, y },
            data: { label: id },
            ...(parentId ? { parentId } : {}),
          });
        await store.writes.createNode(canvas.at(0), group('outer', 100, 100));
        await store.writes.createNode(canvas.at(1), group('inner', 10, 20, 'outer'));
        await store.writes.createNode(
          canvas.at(2),
          textNode('leaf', { parentId: 'inner', extent: 'parent', position: { x: 1, y: 1 } }),
        );
        await store.writes.createNode(
          canvas.at(3),
          textNode('top', { parentId: 'outer', extent: 'parent', position: { x: 5, y: 5 } }),
        );

        const first = await store.writes.deleteNode(canvas.at(4), 'inner');
        expect(first.reparented_node_ids).toEqual(['leaf']);
        const second = await store.writes.deleteNode(canvas.at(5), 'outer');
        expect(second.reparented_node_ids.sort()).toEqual(['leaf', 'top']);

        const layout = await store.layout.loadLayout('p', canvas.canvasId);
        const nodes = Object.fromEntries(layout!.nodes.map((row) => [row.id, JSON.parse(row.body) as CanvasNode]));
        expect(nodes.leaf?.position).toEqual({ x: 111, y: 121 });
        expect(nodes.leaf?.parentId).toBeUndefined();
        expect(nodes.leaf?.extent).toBeUndefined();
        expect(nodes.top?.position).toEqual({ x: 105, y: 105 });
      });

      it('replays the receipt of a client_save_id retry without writing again, even after the revision moved on', async () => {
        const canvas = await freshCanvas();
        const first = await store.writes.createNode(canvas.at(0, 'save-1'), textNode('a'));
        await store.writes.createNode(canvas.at(1), textNode('b'));
        const replay = await store.writes.createNode(canvas.at(0, 'save-1'), textNode('a'));
        expect(replay).toEqual({ ...first, replayed: true });
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(2);
      });

      it('treats client_save_id as a correlation id: another payload with a known id is a new write carrying that id', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0, 'save-1'), textNode('a'));
        const other = await store.writes.createNode(canvas.at(1, 'save-1'), textNode('other'));
        expect(other).toMatchObject({ revision: 2, client_save_id: 'save-1', replayed: false, node_id: 'other' });
        const deleted = await store.writes.deleteNode(canvas.at(2, 'save-1'), 'a');
        expect(deleted).toMatchObject({ revision: 3, client_save_id: 'save-1', replayed: false });
        // Each of them still replays its own receipt.
        expect(await store.writes.createNode(canvas.at(1, 'save-1'), textNode('other'))).toEqual({
          ...other,
          replayed: true,
        });
      });

      it('keeps node data text as given, unpaired surrogates and U+0000 included, identically on every database', async () => {
        const canvas = await freshCanvas();
        const content = 'lone \ud800 high, \udc00 low, nul \u0000, astral \u{1F3AC}';
        await store.writes.createNode(canvas.at(0), textNode('odd', { data: { content } } as Partial<CanvasNode>));
        const layout = await store.layout.loadLayout('p', canvas.canvasId);
        expect((JSON.parse(layout!.nodes[0]!.body) as { data: { content: string } }).data.content).toBe(content);
      });

      it('stores any client_save_id the spec allows, U+0000 included, the same way on every database', async () => {
        const canvas = await freshCanvas();
        const first = await store.writes.createNode(canvas.at(0, 'a\u0000b'), textNode('a'));
        expect(first.client_save_id).toBe('a\u0000b');
        expect(await store.writes.createNode(canvas.at(0, 'a\u0000b'), textNode('a'))).toEqual({
          ...first,
          replayed: true,
        });
        await expect(store.writes.createNode(canvas.at(0, 'a\u0000c'), textNode('a'))).rejects.toMatchObject({
          code: 'revision_conflict',
        });
      });

      it('lets exactly one of 16 concurrent creates with the same base_revision succeed', async () => {
        const canvas = await freshCanvas();
        const results = await Promise.allSettled(
          Array.from({ length: 16 }, (_, index) => store.writes.createNode(canvas.at(0), textNode(`n${index}`))),
        );
        const fulfilled = results.filter((result) => result.status === 'fulfilled');
        const conflicts = results.filter(
          (result) => result.status === 'rejected' && (result.reason as CanvasError).code === 'revision_conflict',
        );
        expect(fulfilled).toHaveLength(1);
        expect(conflicts).toHaveLength(15);
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(1);
      });

      it('reaches revision 1,000 and 1,000 nodes after 1,000 sequential creates', async () => {
        const canvas = await freshCanvas();
        for (let revision = 0; revision < 1000; revision += 1) {
          await store.writes.createNode(canvas.at(revision), textNode(`n${revision}`));
        }
        const layout = await store.layout.loadLayout('p', canvas.canvasId);
        expect(layout?.canvas.revision).toBe(1000);
        expect(layout?.nodes).toHaveLength(1000);
        expect(layout?.nodes[999]?.id).toBe('n999');
      }, 120_000);

      it('creates and deletes edges only between existing nodes, revision-checked', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        const missing = await expectCanvasError(
          store.writes.createEdge(canvas.at(1), edge('e', 'a', 'ghost')),
          'invalid_arguments',
        );
        expect(missing.details.issues).toEqual([expect.objectContaining({ path: 'edge.target' })]);
        await store.writes.createNode(canvas.at(1), textNode('b'));
        await store.writes.createEdge(canvas.at(2), edge('e', 'a', 'b'));
        await expectCanvasError(store.writes.createEdge(canvas.at(3), edge('e', 'b', 'a')), 'already_exists');
        await expectCanvasError(store.writes.deleteEdge(canvas.at(2), 'e'), 'revision_conflict');
        await expect(store.writes.deleteEdge(canvas.at(3), 'e')).resolves.toMatchObject({ revision: 4, edge_id: 'e' });
        await expectCanvasError(store.writes.deleteEdge(canvas.at(4), 'e'), 'not_found');
      });
    });

    describe('edits, batches, revert and caps', () => {
      const image = (id: string, extra: Record<string, unknown> = {}) =>
        CanvasNode.parse({
          id,
          type: 'imageGenNode',
          position: { x: 0, y: 0 },
          data: { prompt: 'p', size: '1K', imageUrl: null, aspectRatio: '1:1' },
          ...extra,
        });
      const layoutOf = async (canvasId: string) => {
        const layout = await store.layout.loadLayout('p', canvasId);
        return {
          nodes: layout!.nodes.map((row) => JSON.parse(row.body) as CanvasNode),
          edges: layout!.edges.map((row) => JSON.parse(row.body) as CanvasEdge),
        };
      };

      it('updates one node in one revision; a change that makes it invalid names the field and writes nothing', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), image('img'));
        const moved = await store.writes.updateNode(canvas.at(1), 'img', { position: { x: 5, y: 6 }, width: 300 });
        expect(moved).toMatchObject({ operation: 'update_node', node_id: 'img', revision: 2 });
        expect((await layoutOf(canvas.canvasId)).nodes[0]).toMatchObject({ position: { x: 5, y: 6 }, width: 300 });
        const removed = await store.writes.updateNode(canvas.at(2), 'img', { width: null });
        expect(removed.revision).toBe(3);
        expect((await layoutOf(canvas.canvasId)).nodes[0]?.width).toBeUndefined();

        const invalid = await expectCanvasError(
          store.writes.updateNode(canvas.at(3), 'img', { data: { prompt: 'no size' } }),
          'invalid_arguments',
        );
        expect((invalid.details.issues as Array<{ path: string }>).map((issue) => issue.path)).toEqual(
          expect.arrayContaining(['set.data.size', 'set.data.imageUrl', 'set.data.aspectRatio']),
        );
        await expectCanvasError(store.writes.updateNode(canvas.at(3), 'ghost', { hidden: true }), 'not_found');
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(3);
      });

      it('re-parents into a group created later and keeps parents before children; refuses a cycle', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('note'));
        await store.writes.createNode(
          canvas.at(1),
          CanvasNode.parse({ id: 'frame', type: 'groupNode', position: { x: 0, y: 0 }, data: { label: 'f' } }),
        );
        await store.writes.updateNode(canvas.at(2), 'note', { parentId: 'frame', extent: 'parent' });
        expect((await layoutOf(canvas.canvasId)).nodes.map((node) => node.id)).toEqual(['frame', 'note']);
        const cycle = await expectCanvasError(
          store.writes.updateNode(canvas.at(3), 'frame', { parentId: 'note' }),
          'invalid_arguments',
        );
        expect(cycle.details.issues).toEqual([expect.objectContaining({ path: 'set.parentId' })]);
      });

      it('applies a batch as one revision, and a batch failing at operation 150 of 200 leaves the canvas untouched', async () => {
        const canvas = await freshCanvas();
        const creates = Array.from({ length: 100 }, (_, index) => ({
          op: 'create_node' as const,
          node: textNode(`b${index}`),
        }));
        const batch = await store.writes.applyBatch(canvas.at(0), [
          ...creates,
          { op: 'update_node', node_id: 'b0', set: { position: { x: 9, y: 9 } } },
          { op: 'create_edge', edge: edge('e01', 'b0', 'b1') },
        ]);
        expect(batch).toMatchObject({ operation: 'batch', revision: 1 });
        expect(batch.results).toHaveLength(102);
        const before = await layoutOf(canvas.canvasId);
        expect(before.nodes).toHaveLength(100);

        const failing = [
          ...Array.from({ length: 150 }, (_, index) => ({
            op: 'update_node' as const,
            node_id: `b${index % 100}`,
            set: { position: { x: index, y: 0 } },
          })),
          { op: 'create_node' as const, node: textNode('b3') },
          ...Array.from({ length: 49 }, (_, index) => ({ op: 'delete_node' as const, node_id: `b${index}` })),
        ];
        const refused = await expectCanvasError(store.writes.applyBatch(canvas.at(1), failing), 'already_exists');
        expect(refused.details).toMatchObject({ operation_index: 150, path: 'operations.150.node' });
        expect(refused.message).toContain('operations.150');
        expect(await layoutOf(canvas.canvasId)).toEqual(before);
        expect((await store.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(1);
      });

      it('reads a node row with the canvas row only until the write changes anything: a batch updating one node twice keeps both', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('n'));
        // The first operation's node is read ahead, with the canvas row before the write begins; the second must see
        // the first's change.
        await store.writes.applyBatch(canvas.at(1), [
          { op: 'update_node', node_id: 'n', set: { position: { x: 7, y: 8 } } },
          { op: 'update_node', node_id: 'n', set: { data: { content: 'second' } } },
        ]);
        const [node] = (await layoutOf(canvas.canvasId)).nodes;
        expect(node).toMatchObject({ id: 'n', position: { x: 7, y: 8 }, data: { content: 'second' } });
        // A node read ahead is refused when missing; one deleted and created again by the batch is read again.
        await expectCanvasError(
          store.writes.applyBatch(canvas.at(2), [
            { op: 'update_node', node_id: 'later', set: { position: { x: 1, y: 1 } } },
          ]),
          'not_found',
        );
        await store.writes.applyBatch(canvas.at(2), [
          { op: 'delete_node', node_id: 'n' },
          { op: 'create_node', node: textNode('n') },
          { op: 'update_node', node_id: 'n', set: { position: { x: 3, y: 4 } } },
        ]);
        expect((await layoutOf(canvas.canvasId)).nodes).toMatchObject([{ id: 'n', position: { x: 3, y: 4 } }]);
        // A single update reads its node ahead too, and a later write still sees what it left.
        await store.writes.updateNode(canvas.at(3), 'n', { position: { x: 5, y: 6 } });
        expect((await layoutOf(canvas.canvasId)).nodes).toMatchObject([{ id: 'n', position: { x: 5, y: 6 } }]);
      });

      it('reverts to an earlier revision: the exact earlier layout comes back as a new revision', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        await store.writes.createNode(canvas.at(1), textNode('b'));
        await store.writes.createEdge(canvas.at(2), edge('ab', 'a', 'b'));
        const atThree = await layoutOf(canvas.canvasId);
        await store.writes.updateNode(canvas.at(3), 'a', { position: { x: 50, y: 50 } });
        await store.writes.deleteNode(canvas.at(4), 'b');
        await store.writes.createNode(canvas.at(5), textNode('c'));
        const reverted = await store.writes.revert(canvas.at(6), 3);
        expect(reverted).toMatchObject({ operation: 'revert', to_revision: 3, revision: 7 });
        expect(reverted.changed_node_ids.sort()).toEqual(['a', 'b', 'c']);
        const after = await layoutOf(canvas.canvasId);
        const byId = <T extends { id: string }>(items: T[]) =>
          [...items].sort((left, right) => left.id.localeCompare(right.id));
        expect(byId(after.nodes)).toEqual(byId(atThree.nodes));
        expect(after.edges).toEqual(atThree.edges);
        // The revert itself is in the history and can be reverted.
        await store.writes.revert(canvas.at(7), 6);
        expect((await layoutOf(canvas.canvasId)).nodes.map((node) => node.id).sort()).toEqual(['a', 'c']);
        await expectCanvasError(store.writes.revert(canvas.at(8), 99), 'invalid_arguments');
      });

      it('refuses a node over its size cap and a canvas over its node cap, writing nothing', async () => {
        const canvas = await freshCanvas();
        const capped = await openStore(database.location, { migrate: false, caps: { canvasNodes: 2, nodeBytes: 400 } });
        try {
          await capped.writes.createNode(canvas.at(0), textNode('a'));
          await capped.writes.createNode(canvas.at(1), textNode('b'));
          const full = await expectCanvasError(capped.writes.createNode(canvas.at(2), textNode('c')), 'limit_exceeded');
          expect(full.details).toMatchObject({ max_nodes: 2 });
          const big = await expectCanvasError(
            capped.writes.updateNode(canvas.at(2), 'a', { data: { content: 'x'.repeat(500) } }),
            'invalid_arguments',
          );
          expect(big.details.issues).toEqual([expect.objectContaining({ path: 'set' })]);
          expect((await capped.layout.readCanvas('p', canvas.canvasId))?.revision).toBe(2);
          await capped.writes.deleteNode(canvas.at(2), 'b');
          await expect(capped.writes.createNode(canvas.at(3), textNode('c'))).resolves.toMatchObject({ revision: 4 });
        } finally {
          await capped.close();
        }
      });
    });

    describe('layout reads', () => {
      it('reports only what changed since a revision, deletions included', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        await store.writes.createNode(canvas.at(1), textNode('b'));
        await store.writes.createNode(canvas.at(2), textNode('c'));
        await store.writes.deleteNode(canvas.at(3), 'a');
        const delta = await store.layout.layoutChangesSince('p', canvas.canvasId, 1, 100);
        expect(delta?.canvas.revision).toBe(4);
        expect(delta?.nodes.map((change) => [change.id, change.body === null])).toEqual([
          ['b', false],
          ['c', false],
          ['a', true],
        ]);
        expect(await store.layout.layoutChangesSince('p', canvas.canvasId, 0, 2)).toBeUndefined();
      });
    });

    describe('node runs', () => {
      // Nodes are created first on fresh canvases: 'a' takes creation seq 1, 'b' seq 2.
      const runFor = (
        canvasId: string,
        nodeId: string,
        key: string | null,
        prompt = 'p',
        nodeSeq = nodeId === 'b' ? 2 : 1,
      ) => ({
        projectId: 'p',
        canvasId,
        nodeId,
        nodeSeq,
        operation: 'image_generation' as const,
        skillId: null,
        input: { prompt },
        costEstimated: 2,
        triggeredBy: { kind: 'agent' as const, name: 'tester' },
        idempotencyKey: key,
        resources: [{ asset_id: 'asset_1', kind: 'image' as const, status: 'pending' as const, url: null }],
        maxAttempts: 3,
      });

      it('returns the same run for the same idempotency key and input, refuses another input', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        const first = await store.runs.createRun(runFor(canvas.canvasId, 'a', 'key-1'));
        const again = await store.runs.createRun(runFor(canvas.canvasId, 'a', 'key-1'));
        expect(first.replayed).toBe(false);
        expect(again).toEqual({ run: first.run, replayed: true });
        await expectCanvasError(
          store.runs.createRun(runFor(canvas.canvasId, 'a', 'key-1', 'other')),
          'idempotency_mismatch',
        );
      });

      it('scopes runs to their project and canvas', async () => {
        const canvas = await freshCanvas();
        const other = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        const { run } = await store.runs.createRun(runFor(canvas.canvasId, 'a', null));
        expect(await store.runs.getRun('p', canvas.canvasId, run.run_id)).toMatchObject({
          status: 'queued',
          node_id: 'a',
        });
        expect(await store.runs.getRun('p', other.canvasId, run.run_id)).toBeUndefined();
        expect(await store.runs.requestCancel('p', other.canvasId, run.run_id)).toBeUndefined();
      });

      it('cancels a queued run at once and never charges it; a terminal run stays as it is', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        const { run } = await store.runs.createRun(runFor(canvas.canvasId, 'a', null));
        const cancelled = await store.runs.requestCancel('p', canvas.canvasId, run.run_id);
        expect(cancelled?.status).toBe('cancel_requested');
        expect(cancelled?.run).toMatchObject({ status: 'cancelled', cost: { charged: 0 } });
        const again = await store.runs.requestCancel('p', canvas.canvasId, run.run_id);
        expect(again?.status).toBe('cancelled');
        expect(again?.run.updated_at).toBe(cancelled?.run.updated_at);
      });

      it('refuses a submission whose estimated cost exceeds what is left of the budget', async () => {
        await store.projects.createProject('budgeted', 'w');
        await store.projects.createCanvas('budgeted', 'c', false);
        await store.projects.setProjectBudget('budgeted', 3);
        const target = {
          projectId: 'budgeted',
          canvasId: 'c',
          baseRevision: 0,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        };
        await store.writes.createNode(target, textNode('a'));
        const submit = (key: string) => store.runs.createRun({ ...runFor('c', 'a', key), projectId: 'budgeted' });
        await submit('first');
        const refused = await expectCanvasError(submit('second'), 'budget_exceeded');
        expect(refused.details).toMatchObject({ estimated_cost: 2, credits_left: 1 });
      });

      it('lists the latest run of each node that is still on the canvas', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        await store.writes.createNode(canvas.at(1), textNode('b'));
        await store.runs.createRun(runFor(canvas.canvasId, 'a', null, 'old'));
        const latest = await store.runs.createRun(runFor(canvas.canvasId, 'a', null, 'new'));
        await store.runs.createRun(runFor(canvas.canvasId, 'b', null));
        await store.writes.deleteNode(canvas.at(2), 'b');
        const rows = await store.runs.latestRunsByNode('p', canvas.canvasId);
        expect(rows.map((row) => [row.node_id, row.id])).toEqual([['a', latest.run.run_id]]);
      });

      it('deleting a node requests cancellation of its active runs, and a new node with its id shows none of them', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(
          canvas.at(0),
          CanvasNode.parse({
            id: 'frame',
            type: 'imageGenNode',
            position: { x: 0, y: 0 },
            data: { prompt: 'p', size: '1K', imageUrl: null, aspectRatio: '1:1', count: 4 },
          }),
        );
        const queued = await store.runs.createRun(runFor(canvas.canvasId, 'frame', null, 'queued one'));
        const running = await store.runs.createRun(runFor(canvas.canvasId, 'frame', null, 'running one'));
        // Earlier tests left queued runs of their own: claim until ours (the oldest of this canvas) is taken.
        let claimed;
        for (let attempt = 0; attempt < 100 && claimed?.id !== queued.run.run_id; attempt += 1)
          claimed = await store.claims.claimNext('worker-1', 60_000);
        expect(claimed?.id).toBe(queued.run.run_id);
        const receipt = await store.writes.deleteNode(canvas.at(1), 'frame');
        expect(receipt.cancelled_run_ids.sort()).toEqual([queued.run.run_id, running.run.run_id].sort());
        // The claimed run is asked to stop (its worker hears it); the queued one never starts and is never charged.
        expect(await store.runs.getRun('p', canvas.canvasId, queued.run.run_id)).toMatchObject({
          status: 'cancel_requested',
        });
        expect(await store.runs.getRun('p', canvas.canvasId, running.run.run_id)).toMatchObject({
          status: 'cancelled',
          cost: { charged: 0 },
        });

        await store.writes.createNode(canvas.at(2), textNode('frame'));
        expect(await store.runs.latestRunsByNode('p', canvas.canvasId)).toEqual([]);
        await expectCanvasError(
          store.runs.createRun(runFor(canvas.canvasId, 'frame', null, 'stale incarnation', 1)),
          'not_found',
        );
      });

      it('knows the latest run of a node even when runs are submitted within the same millisecond', async () => {
        const canvas = await freshCanvas();
        await store.writes.createNode(canvas.at(0), textNode('a'));
        const frozen = await openStore(database.location, { clock: () => 1_700_000_000_000 });
        try {
          for (let round = 1; round <= 12; round += 1) {
            const submitted = await frozen.runs.createRun(runFor(canvas.canvasId, 'a', null, `round ${round}`));
            const rows = await frozen.runs.latestRunsByNode('p', canvas.canvasId);
            expect(rows.map((row) => row.id)).toEqual([submitted.run.run_id]);
          }
        } finally {
          await frozen.close();
        }
      });
    });
  });
});

async function readAllTokenRows(database: TestDatabase): Promise<string> {
  if (database.location.kind === 'sqlite') {
    const connection = new Database(database.location.file, { readonly: true });
    try {
      return JSON.stringify(connection.prepare('SELECT * FROM tokens').all());
    } finally {
      connection.close();
    }
  }
  const client = new pg.Client({ connectionString: database.location.url });
  await client.connect();
  try {
    return JSON.stringify((await client.query('SELECT * FROM tokens')).rows);
  } finally {
    await client.end();
  }
}
