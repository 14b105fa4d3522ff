import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, GuestView, ShareLinkView, SharedBoardsView, ThreadView } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { IDP } from './world.js';
import { editorStage } from '../support/editor-stage.js';
import { api, signInWithLink, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { uploadedPicture } from '../support/upload-fixtures.js';

/**
 * Drawn notes (docs/review.md, "Drawn notes") over real HTTP on both stores: a comment carries marks on the frame its
 * thread names, kept as data every reader gets (REST, the link's page), drawn over the shot's picture as a PNG for
 * whoever may read the thread, and on the board picture agents look at; malformed markup is refused naming the field
 * and nothing is written.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const RED = '#e53935';
/** A box around the middle of the frame: its left side runs down x = 0.25. */
const BOX = { tool: 'rect', colour: RED, points: [0.25, 0.25, 0.75, 0.75] } as const;
const ARROW = { tool: 'arrow', colour: '#ffeb3b', points: [0.1, 0.9, 0.4, 0.6] } as const;
/** A push-in on shot 2: the link's Present plays it as the team's does. */
const PUSH = { start: { x: 0, y: 0, width: 1, height: 1 }, end: { x: 0.25, y: 0.25, width: 0.5, height: 0.5 } };

/** The colour of one pixel of a PNG. */
async function pixel(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

describe.each(STORE_TARGETS)('drawn notes: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let page: Record<string, string>;
    let owner: Record<string, string>;
    const as = (headers: Record<string, string>, path: string, request: { method?: string; body?: unknown } = {}) =>
      api(server.url, path, { ...request, headers });

    beforeAll(async () => {
      const stage = await editorStage(target);
      server = stage.server;
      page = { cookie: stage.cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
      await server.store.projects.addMember('p', { issuer: IDP, subject: 'olga' }, 'owner');
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'olga' },
        { expiresInMs: 60_000 },
      );
      const signedIn = await signInWithLink(`${server.url}/auth/login?token=${link}`);
      owner = { cookie: signedIn.cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
      const editor = await projectToken(server.store, 'p', 'editor');
      const picture = await uploadedPicture(server, { projectId: 'p', canvasId: 'c', token: editor, name: 'bay.png' });
      const board = CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Harbour',
          aspectRatio: '16:9',
          frames: [
            { id: 's1', number: '1', imageUrl: picture, action: 'Fog over the bay' },
            { id: 's2', number: '2', imageUrl: null, action: 'The keeper climbs', move: PUSH },
          ],
        },
      });
      const { revision } = (await server.store.layout.readCanvas('p', 'c'))!;
      await server.store.writes.applyBatch(
        { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
        [{ op: 'create_node', node: board }],
      );
    }, 60_000);
    afterAll(async () => server?.close());

    let threadId = '';

    it('a comment carries its marks on the shot: kept as data, shown to every reader, the revision unmoved', async () => {
      const before = (await server.store.layout.readCanvas('p', 'c'))!.revision;
      const created = await as(page, `${CANVAS}/threads`, {
        method: 'POST',
        body: { node_id: 'board', shot_id: 's1', body: 'Move him left, into the box.', markup: [BOX, ARROW] },
      });
      expect(created.status).toBe(201);
      const thread = ThreadView.parse(created.body);
      threadId = thread.thread_id;
      expect(thread.comments[0]!.markup).toEqual([BOX, ARROW]);
      const reply = await as(page, `${CANVAS}/threads/${threadId}/comments`, {
        method: 'POST',
        body: { body: 'Or lower?', markup: [{ tool: 'line', colour: '#00ff00', points: [0, 0.5, 1, 0.5] }] },
      });
      expect(ThreadView.parse(reply.body).comments[1]!.markup).toHaveLength(1);
      const listed = (await as(page, `${CANVAS}/threads`)).body as { threads: ThreadView[] };
      expect(listed.threads[0]!.comments.map((comment) => comment.markup.length)).toEqual([2, 1]);
      expect((await server.store.layout.readCanvas('p', 'c'))!.revision).toBe(before);
    });

    it('draws the marked-up frame: the shot’s picture under the marks, at the board’s shape', async () => {
      const thread = ThreadView.parse((await as(page, `${CANVAS}/threads/${threadId}`)).body);
      const response = await fetch(
        `${server.url}${CANVAS}/threads/${threadId}/comments/${thread.comments[0]!.comment_id}/marked-frame.png`,
        { headers: page },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await response.arrayBuffer());
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height]).toEqual([1280, 720]);
      // The box's left side is red; the middle of the frame is the picture's blue.
      const [r, g, b] = await pixel(png, 320, 360);
      expect(r).toBeGreaterThan(180);
      expect(g + b).toBeLessThan(200);
      const [r2, , b2] = await pixel(png, 640, 360);
      expect(b2).toBeGreaterThan(150);
      expect(r2).toBeLessThan(80);
      // Words alone have no marked-up frame.
      const words = await as(page, `${CANVAS}/threads/${threadId}/comments`, { method: 'POST', body: { body: 'ok' } });
      const plain = ThreadView.parse(words.body).comments.at(-1)!;
      expect(plain.markup).toEqual([]);
      const none = await fetch(
        `${server.url}${CANVAS}/threads/${threadId}/comments/${plain.comment_id}/marked-frame.png`,
        { headers: page },
      );
      expect(none.status).toBe(404);
    });

    it('puts the open threads’ notes on the board picture agents look at, and takes them off when resolved', async () => {
      const sheet = async () => {
        const response = await fetch(`${server.url}${CANVAS}/board.png?node_id=board`, { headers: page });
        expect(response.status).toBe(200);
        return Buffer.from(await response.arrayBuffer());
      };
      const redPixels = async (png: Buffer) => {
        const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
        let count = 0;
        for (let at = 0; at < data.length; at += info.channels)
          if (data[at]! > 200 && data[at + 1]! < 90 && data[at + 2]! < 90) count += 1;
        return count;
      };
      const withNote = await redPixels(await sheet());
      expect(withNote).toBeGreaterThan(100);
      const resolved = await as(page, `${CANVAS}/threads/${threadId}`, {
        method: 'PATCH',
        body: { status: 'resolved' },
      });
      expect(resolved.status).toBe(200);
      expect(await redPixels(await sheet())).toBeLessThan(withNote / 10);
      await as(page, `${CANVAS}/threads/${threadId}`, { method: 'PATCH', body: { status: 'open' } });
    });

    it('refuses markup that does not fit, naming the field, and writes nothing', async () => {
      const count = async () => ((await as(page, `${CANVAS}/threads`)).body as { threads: unknown[] }).threads.length;
      const before = await count();
      const refusals: Array<[unknown, string]> = [
        [{ node_id: 'board', shot_id: 's1', body: 'x', markup: [{ ...BOX, colour: 'red' }] }, 'markup'],
        [{ node_id: 'board', shot_id: 's1', body: 'x', markup: [{ ...BOX, points: [0.2, 9] }] }, 'markup'],
        [{ node_id: 'board', shot_id: 's1', body: 'x', markup: [{ ...BOX, tool: 'script' }] }, 'markup'],
        [{ node_id: 'board', shot_id: 's1', body: 'x', markup: Array.from({ length: 51 }, () => BOX) }, 'markup'],
        [{ node_id: null, body: 'x', markup: [BOX] }, 'markup'],
      ];
      for (const [body, field] of refusals) {
        const refused = await as(page, `${CANVAS}/threads`, { method: 'POST', body });
        expect(refused.status).toBe(400);
        expect(JSON.stringify(refused.body)).toContain(field);
      }
      // An edit changes the words only: a drawing in an edit is refused, not dropped.
      const thread = ThreadView.parse((await as(page, `${CANVAS}/threads/${threadId}`)).body);
      const edit = await as(page, `${CANVAS}/threads/${threadId}/comments/${thread.comments[0]!.comment_id}`, {
        method: 'PATCH',
        body: { body: 'Move him left.', markup: [] },
      });
      expect(edit.status).toBe(400);
      expect(await count()).toBe(before);
    });

    it('a client draws on a review link: the team sees the marks, the client never sees a team thread’s frame', async () => {
      const made = await as(owner, `${CANVAS}/share-links`, {
        method: 'POST',
        body: { node_id: 'board', review: 'comment' },
      });
      expect(made.status).toBe(201);
      const secret = ShareLinkView.parse(made.body).url!.split('/share/')[1]!;
      const shared = `/api/v1/shared/${secret}`;
      const guest = GuestView.parse(
        (await api(server.url, `${shared}/guests`, { method: 'POST', body: { name: 'Client Kim' } })).body,
      );
      const circle = { tool: 'ellipse', colour: RED, points: [0.4, 0.3, 0.6, 0.7] };
      const started = await api(server.url, `${shared}/threads`, {
        method: 'POST',
        headers: { 'x-guest-token': guest.token },
        body: { node_id: 'board', shot_id: 's1', body: 'This prop, smaller.', markup: [circle] },
      });
      expect(started.status).toBe(201);
      const clientThread = ThreadView.parse(started.body);
      expect(clientThread.comments[0]!.markup).toEqual([circle]);
      const seen = ThreadView.parse((await as(page, `${CANVAS}/threads/${clientThread.thread_id}`)).body);
      expect(seen.comments[0]!.markup).toEqual([circle]);
      const view = SharedBoardsView.parse((await api(server.url, shared)).body);
      // The client's Present plays shot 2's push-in: the link carries the move.
      expect(view.boards[0]!.shots.map((shot) => shot.move)).toEqual([null, PUSH]);
      expect(view.threads.find((each) => each.thread_id === clientThread.thread_id)!.comments[0]!.markup).toEqual([
        circle,
      ]);

      const framePath = (thread: string, comment: string) =>
        `${server.url}${shared}/threads/${thread}/comments/${comment}/marked-frame.png`;
      const client = await fetch(framePath(clientThread.thread_id, clientThread.comments[0]!.comment_id));
      expect(client.status).toBe(200);
      expect((await sharp(Buffer.from(await client.arrayBuffer())).metadata()).width).toBe(1280);
      // The team's thread answers as if it did not exist.
      const team = ThreadView.parse((await as(page, `${CANVAS}/threads/${threadId}`)).body);
      const hidden = await fetch(framePath(threadId, team.comments[0]!.comment_id));
      expect(hidden.status).toBe(404);
      expect(await hidden.text()).not.toContain('Move him left');
    });
  });
});
