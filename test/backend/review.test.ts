import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CanvasNode,
  GuestView,
  Inbox,
  ReviewStateList,
  ReviewStateView,
  SharedBoardsView,
  ShareLinkView,
  ThreadList,
  ThreadView,
} from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { fromPage, startChatStage, type ChatStage } from '../agent/chat-support.js';
import { scripted } from '../support/model-standin.js';
import { api } from '../support/servers.js';
import { startSmtpStandin, type SmtpStandin } from '../support/smtp-standin.js';
import { STORE_TARGETS } from '../support/stores.js';
import { agentOnCanvas, projectToken } from '../support/tokens.js';
import { waitFor } from '../support/wait.js';
import { openEvents } from '../support/sse.js';

/**
 * Review over real HTTP on both stores: a director, two artists, a viewer, a guest client and the assistant review a
 * board. Comments pinned to a shot and a timecode never move the layout's revision; mentions and replies land in
 * inboxes and by e-mail (an SMTP stand-in); only people approve (every token is refused), and a change after approval
 * is flagged; a guest comments through a link without an account and nothing else; an @assistant mention is answered in
 * the thread by the stand-in model, its change in history; webhooks hear comment.created, comment.resolved and
 * review.changed.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

const frame = (id: string, number: string, action: string) => ({
  id,
  imageUrl: null,
  number,
  action,
  durationMs: 2000,
});
const BOARD = CanvasNode.parse({
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: {
    title: 'Harbour opening',
    frames: [
      frame('s1', '1', 'Fog over the bay'),
      frame('s2', '2', 'The keeper climbs'),
      frame('s3', '3', 'The lamp'),
      frame('s4', '4', 'Mara looks up'),
    ],
  },
});
const NOTE = CanvasNode.parse({
  id: 'note',
  type: 'textAnnotationNode',
  position: { x: 600, y: 0 },
  data: { content: 'Reference: lighthouse at dusk' },
});

describe.each(STORE_TARGETS)('review: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let stage: ChatStage;
    let smtp: SmtpStandin;
    const as = (who: 'olga' | 'ana' | 'ben' | 'vic', request: { method?: string; body?: unknown } = {}) => ({
      ...request,
      headers: fromPage(stage, who),
    });
    const call = (
      who: 'olga' | 'ana' | 'ben' | 'vic',
      path: string,
      request: { method?: string; body?: unknown } = {},
    ) => api(stage.server.url, path, as(who, request));
    const revision = async () => (await stage.server.store.layout.readCanvas('p', 'c'))!.revision;
    let threadId = '';

    beforeAll(async () => {
      smtp = await startSmtpStandin();
      stage = await startChatStage(target, 'openai', undefined, {
        smtpUrl: smtp.url,
        smtpFrom: 'Canvas <canvas@studio.example>',
        rateLimitPerMinute: 1_000_000,
        webhooksPrivateNetwork: true,
      });
      const { store } = stage.server;
      await store.writes.applyBatch(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        [
          { op: 'create_node', node: BOARD },
          { op: 'create_node', node: NOTE },
        ],
      );
      await store.emails.setEmail({ issuer: 'https://idp.example', subject: 'ana' }, 'ana@studio.example');
    }, 60_000);
    afterAll(async () => {
      await stage?.close();
      await smtp?.close();
    });

    it('a comment names a range of frames of the animatic at 29.97 drop frame, kept with the time its first frame starts', async () => {
      // 00:01:00;02 is frame 1,800 at 29.97 drop frame (00:01:00;00 and ;01 do not exist), which starts at 60.06 s.
      const created = await call('olga', `${CANVAS}/threads`, {
        method: 'POST',
        body: {
          node_id: 'board',
          anchor: { on: 'animatic', frame: 1800, frame_out: 1830, rate: '29.97', timecode_ms: 1 },
          body: 'Hold the push a second longer here.',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(ThreadView.parse(created.body).anchor).toEqual({
        on: 'animatic',
        frame: 1800,
        frame_out: 1830,
        rate: '29.97',
        timecode_ms: 60_060,
      });
      for (const [anchor, field] of [
        [{ on: 'animatic', frame: 10 }, 'rate'],
        [{ on: 'animatic', frame: 10, frame_out: 9, rate: '24' }, 'frame_out'],
        [{ on: 'animatic', frame: 10, rate: '50' }, 'rate'],
      ] as const) {
        const refused = await call('olga', `${CANVAS}/threads`, {
          method: 'POST',
          body: { node_id: 'board', anchor, body: 'x' },
        });
        expect(refused.status, JSON.stringify(anchor)).toBe(400);
        expect(JSON.stringify(refused.body), JSON.stringify(anchor)).toContain(`anchor.${field}`);
      }
    });

    it('a director pins a comment to shot 4 mentioning an artist: the layout revision does not move, the artist is told in the inbox and by e-mail', async () => {
      const before = await revision();
      const sent = smtp.messages.length;
      const created = await call('olga', `${CANVAS}/threads`, {
        method: 'POST',
        body: {
          node_id: 'board',
          shot_id: 's4',
          anchor: { x: 0.25, y: 0.6 },
          body: '@ana shot 4 needs a lower angle <b>now</b>',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const thread = ThreadView.parse(created.body);
      threadId = thread.thread_id;
      expect(thread).toMatchObject({
        node_id: 'board',
        shot_id: 's4',
        anchor: { x: 0.25, y: 0.6 },
        node_label: 'Harbour opening, shot 4',
        status: 'open',
        node_deleted: false,
      });
      // Plain text, kept as written: the page renders it as text.
      expect(thread.comments[0]).toMatchObject({
        author: { kind: 'person', name: 'olga' },
        body: '@ana shot 4 needs a lower angle <b>now</b>',
        mentions: ['ana'],
      });
      expect(await revision()).toBe(before);

      const inbox = Inbox.parse((await call('ana', '/api/v1/inbox')).body);
      expect(inbox.unread).toBe(1);
      expect(inbox.notifications[0]).toMatchObject({ kind: 'mention', thread_id: threadId, from: 'olga', read: false });
      expect(inbox.notifications[0]!.summary).toContain('Harbour opening, shot 4');
      // Nobody else was told.
      expect(Inbox.parse((await call('ben', '/api/v1/inbox')).body).unread).toBe(0);

      const mail = (
        await waitFor(
          async () => smtp.messages.slice(sent),
          (messages) => messages.length === 1,
        )
      )[0]!;
      expect(mail.to).toEqual(['ana@studio.example']);
      expect(mail.raw).toContain('mentioned you on Harbour opening, shot 4');
      // Quoted-printable may break and escape the link: compare it unfolded.
      expect(mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(`/p/p/c/c?thread=${threadId}`);
    });

    it('an open page hears a new comment and a review decision on the change feed, with no layout revision', async () => {
      // Someone is on the canvas: the page's first event is the presence list, sent once the hub counts it.
      await call('vic', `${CANVAS}/presence`, { method: 'POST', body: { selection: [], cursor: null } });
      const page = await openEvents(
        `${stage.server.url}${CANVAS}/events?after=${await revision()}`,
        fromPage(stage, 'ben'),
      );
      try {
        expect(page.status).toBe(200);
        await page.waitFor((event) => event.event === 'presence', 5_000);
        const made = ThreadView.parse(
          (
            await call('vic', `${CANVAS}/threads`, {
              method: 'POST',
              body: { node_id: 'board', shot_id: 's1', body: 'Fog too thick?' },
            })
          ).body,
        );
        const heard = await page.waitFor(
          (event) => event.event === 'comment' && (event.data as ThreadView).thread_id === made.thread_id,
          5_000,
        );
        expect(ThreadView.parse(heard.data).comments[0]!.body).toBe('Fog too thick?');
        await call('ana', `${CANVAS}/threads/${made.thread_id}/comments`, {
          method: 'POST',
          body: { body: 'A little.' },
        });
        const reply = await page.waitFor(
          (event) => event.event === 'comment' && (event.data as ThreadView).comments.length === 2,
          5_000,
        );
        expect((reply.data as ThreadView).thread_id).toBe(made.thread_id);
        expect(page.events.filter((event) => event.event === 'layout')).toEqual([]);
      } finally {
        page.close();
      }
    });

    it('a comment on a timecode of the animatic, and a viewer comments too', async () => {
      const created = await call('vic', `${CANVAS}/threads`, {
        method: 'POST',
        body: {
          node_id: 'board',
          anchor: { timecode_ms: 6500, on: 'animatic' },
          body: 'The cut at 6.5 s feels early.',
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(ThreadView.parse(created.body)).toMatchObject({
        anchor: { timecode_ms: 6500, on: 'animatic' },
        shot_id: null,
      });
    });

    it('refuses what does not fit, naming the field', async () => {
      for (const [body, field] of [
        [{ node_id: 'board', shot_id: 'nope', body: 'x' }, 'shot_id'],
        [{ node_id: 'gone', body: 'x' }, 'node_id'],
        [{ node_id: 'board', body: '   ' }, 'body'],
        [{ node_id: 'board', anchor: { x: 2, y: 0 }, body: 'x' }, 'anchor'],
      ] as const) {
        const answer = await call('ana', `${CANVAS}/threads`, { method: 'POST', body });
        expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
        expect(JSON.stringify(answer.body)).toContain(field);
      }
    });

    it('the artist replies and resolves; the director hears the reply; only its writer edits a comment', async () => {
      const replied = await call('ana', `${CANVAS}/threads/${threadId}/comments`, {
        method: 'POST',
        body: { body: 'Lowered it, see v2.' },
      });
      expect(replied.status, JSON.stringify(replied.body)).toBe(201);
      const thread = ThreadView.parse(replied.body);
      expect(thread.comments.map((comment) => comment.author.name)).toEqual(['olga', 'ana']);
      const olgas = Inbox.parse((await call('olga', '/api/v1/inbox')).body);
      expect(olgas.notifications[0]).toMatchObject({ kind: 'reply', from: 'ana', thread_id: threadId });

      const first = thread.comments[0]!.comment_id;
      const byOther = await call('ana', `${CANVAS}/threads/${threadId}/comments/${first}`, {
        method: 'PATCH',
        body: { body: 'rewritten' },
      });
      expect(byOther.status).toBe(403);
      const edited = await call('olga', `${CANVAS}/threads/${threadId}/comments/${first}`, {
        method: 'PATCH',
        body: { body: '@ana shot 4 needs a lower angle' },
      });
      expect(ThreadView.parse(edited.body).comments[0]!.edited_at).not.toBeNull();

      const resolved = await call('ana', `${CANVAS}/threads/${threadId}`, {
        method: 'PATCH',
        body: { status: 'resolved' },
      });
      expect(ThreadView.parse(resolved.body)).toMatchObject({ status: 'resolved', resolved_by: 'ana' });
      const open = ThreadList.parse((await call('olga', `${CANVAS}/threads?filter=open`)).body).threads;
      expect(open.map((each) => each.thread_id)).not.toContain(threadId);
      const mentionsAna = ThreadList.parse((await call('ana', `${CANVAS}/threads?filter=mentions_me`)).body).threads;
      expect(mentionsAna.map((each) => each.thread_id)).toEqual([threadId]);

      const read = await call('ana', '/api/v1/inbox/read', { method: 'POST', body: { all: true } });
      expect(Inbox.parse(read.body).unread).toBe(0);
    });

    it('a thread outlives its node, as "on a deleted node"', async () => {
      const made = ThreadView.parse(
        (
          await call('ben', `${CANVAS}/threads`, {
            method: 'POST',
            body: { node_id: 'note', body: 'Is this the look?' },
          })
        ).body,
      );
      const deleted = await call('ben', `${CANVAS}/nodes/note`, {
        method: 'DELETE',
        body: { base_revision: await revision() },
      });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      const [after] = ThreadList.parse((await call('ben', `${CANVAS}/threads?node_id=note`)).body).threads;
      expect(after).toMatchObject({ thread_id: made.thread_id, node_deleted: true, node_label: 'textAnnotationNode' });
      expect(after!.comments[0]!.body).toBe('Is this the look?');
    });

    it('only people approve: every token is refused, editors only when an owner allows; approval records the revision', async () => {
      const agent = await agentOnCanvas(stage.server.store, {
        projectId: 'p',
        canvasId: 'c',
        name: 'Reviewer bot',
        toolSets: ['review'],
      });
      const script = await projectToken(stage.server.store, 'p', 'editor');
      for (const token of [agent.secret, script]) {
        const refused = await api(stage.server.url, `${CANVAS}/review-states`, {
          method: 'PUT',
          token,
          body: { node_id: 'board', shot_id: null, state: 'approved' },
        });
        // An agent token is no REST caller at all (401); a script's backend token is refused by name (403).
        expect([401, 403]).toContain(refused.status);
        if (token === script) expect(JSON.stringify(refused.body)).toContain('Only a signed-in person');
      }
      const byEditor = await call('ana', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: null, state: 'approved' },
      });
      expect(byEditor.status).toBe(403);

      // The artist asks the director for approval of the board: the director is told.
      const asked = await call('ana', `${CANVAS}/review-requests`, {
        method: 'POST',
        body: { node_id: 'board', shot_id: null, approvers: ['olga'], note: 'Ready for the client' },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(201);
      expect(ReviewStateView.parse(asked.body).state).toBe('in_review');
      const wrongApprover = await call('ana', `${CANVAS}/review-requests`, {
        method: 'POST',
        body: { node_id: 'board', shot_id: null, approvers: ['ben'] },
      });
      expect(wrongApprover.status).toBe(400);
      expect(JSON.stringify(wrongApprover.body)).toContain('approvers.0');
      const olgas = Inbox.parse((await call('olga', '/api/v1/inbox')).body);
      expect(olgas.notifications[0]).toMatchObject({ kind: 'approval_request', from: 'ana', node_id: 'board' });

      const at = await revision();
      for (const shot of [null, 's4']) {
        const approved = await call('olga', `${CANVAS}/review-states`, {
          method: 'PUT',
          body: { node_id: 'board', shot_id: shot, state: 'approved', base_revision: at },
        });
        expect(approved.status, JSON.stringify(approved.body)).toBe(200);
        expect(ReviewStateView.parse(approved.body)).toMatchObject({
          state: 'approved',
          decided_by: 'olga',
          approved_revision: at,
          changed_since_approval: false,
        });
      }
      const anas = Inbox.parse((await call('ana', '/api/v1/inbox')).body);
      expect(anas.notifications[0]).toMatchObject({ kind: 'approval_decision', from: 'olga' });

      // Editors may decide once an owner allows it.
      expect(
        (await call('olga', '/api/v2/projects/p/review-settings', { method: 'PUT', body: { editors_approve: true } }))
          .status,
      ).toBe(200);
      const allowed = await call('ana', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: 's1', state: 'changes_requested' },
      });
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    });

    it('an owner changing "Editors may approve" reaches a page already open, as its review event, with no layout revision', async () => {
      const setting = async () =>
        ReviewStateList.parse((await call('ana', `${CANVAS}/review-states`)).body).editors_approve;
      const before = await setting();
      await call('vic', `${CANVAS}/presence`, { method: 'POST', body: { selection: [], cursor: null } });
      const page = await openEvents(
        `${stage.server.url}${CANVAS}/events?after=${await revision()}`,
        fromPage(stage, 'ana'),
      );
      try {
        expect(page.status).toBe(200);
        await page.waitFor((event) => event.event === 'presence', 5_000);
        for (const allowed of [!before, before]) {
          const changed = await call('olga', '/api/v2/projects/p/review-settings', {
            method: 'PUT',
            body: { editors_approve: allowed },
          });
          expect(changed.status, JSON.stringify(changed.body)).toBe(200);
          const heard = await page.waitFor(
            (event) => event.event === 'review' && ReviewStateList.parse(event.data).editors_approve === allowed,
            5_000,
          );
          // The event is the whole list, as GET …/review-states answers it: the states come with the setting.
          expect(ReviewStateList.parse(heard.data)).toEqual(
            ReviewStateList.parse((await call('ana', `${CANVAS}/review-states`)).body),
          );
        }
        expect(page.events.filter((event) => event.event === 'layout')).toEqual([]);
      } finally {
        page.close();
      }
    });

    it('a change to an approved shot is flagged "changed since approval"; untouched shots keep theirs', async () => {
      const node = (await stage.server.store.layout.readNode('p', 'c', 'board'))!.node;
      const frames = (node.data as { frames: Array<Record<string, unknown>> }).frames.map((each) =>
        each.id === 's4' ? { ...each, angle: 'low' } : each,
      );
      const changed = await call('ana', `${CANVAS}/nodes/board`, {
        method: 'PATCH',
        body: { base_revision: await revision(), set: { data: { frames } } },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const { states } = ReviewStateList.parse((await call('vic', `${CANVAS}/review-states`)).body);
      const of = (shot: string | null) => states.find((state) => state.node_id === 'board' && state.shot_id === shot)!;
      expect(of('s4')).toMatchObject({ state: 'approved', changed_since_approval: true });
      expect(of(null)).toMatchObject({ state: 'approved', changed_since_approval: true });
      expect(of('s1')).toMatchObject({ state: 'changes_requested', changed_since_approval: false });
    });

    it('a shot showing its source card’s picture is flagged "changed since approval" when that picture is swapped', async () => {
      const { store } = stage.server;
      const picture = (letter: string) => `/assets/asset_${letter.repeat(16)}`;
      const card = CanvasNode.parse({
        id: 'card5',
        type: 'imageGenNode',
        position: { x: 0, y: 900 },
        data: { prompt: 'the lamp room', size: '1K', imageUrl: picture('a'), aspectRatio: '16:9' },
      });
      const board = (await store.layout.readNode('p', 'c', 'board'))!.node;
      const frames = [
        ...(board.data as { frames: Array<Record<string, unknown>> }).frames,
        { id: 's5', number: '5', imageUrl: null, sourceNodeId: 'card5', action: 'The lamp turns', durationMs: 2000 },
      ];
      const made = await call('ana', `${CANVAS}/changes`, {
        method: 'POST',
        body: {
          base_revision: await revision(),
          operations: [
            { op: 'create_node', node: card },
            { op: 'update_node', node_id: 'board', set: { data: { frames } } },
          ],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const approved = await call('olga', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: 's5', state: 'approved', base_revision: await revision() },
      });
      expect(ReviewStateView.parse(approved.body)).toMatchObject({ state: 'approved', changed_since_approval: false });

      const swapped = await call('ana', `${CANVAS}/nodes/card5`, {
        method: 'PATCH',
        body: { base_revision: await revision(), set: { data: { ...card.data, imageUrl: picture('b') } } },
      });
      expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
      const { states } = ReviewStateList.parse((await call('vic', `${CANVAS}/review-states`)).body);
      expect(states.find((state) => state.shot_id === 's5')).toMatchObject({
        state: 'approved',
        changed_since_approval: true,
      });
    });

    it('an approval names the revision the person saw: refused as a conflict if what it covers changed since', async () => {
      const seen = await revision();
      const missing = await call('olga', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: 's3', state: 'approved' },
      });
      expect(missing.status).toBe(400);
      expect(JSON.stringify(missing.body)).toContain('base_revision');

      // Shot 2 changes after the page showed revision `seen`: approving shot 3 as seen still holds ...
      const board = (await stage.server.store.layout.readNode('p', 'c', 'board'))!.node;
      const frames = (board.data as { frames: Array<Record<string, unknown>> }).frames;
      const edit = async (shot: string, action: string) => {
        const current = (await stage.server.store.layout.readNode('p', 'c', 'board'))!.node;
        const changed = (current.data as { frames: Array<Record<string, unknown>> }).frames.map((each) =>
          each.id === shot ? { ...each, action } : each,
        );
        const answer = await call('ana', `${CANVAS}/nodes/board`, {
          method: 'PATCH',
          body: { base_revision: await revision(), set: { data: { frames: changed } } },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      };
      expect(frames.some((frame) => frame.id === 's3')).toBe(true);
      await edit('s2', 'The keeper climbs, slower');
      const unrelated = await call('olga', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: 's3', state: 'approved', base_revision: seen },
      });
      expect(unrelated.status, JSON.stringify(unrelated.body)).toBe(200);
      expect(ReviewStateView.parse(unrelated.body)).toMatchObject({ approved_revision: seen });

      // ... but an edit to shot 3 itself, landing just before the click, is not approved with it.
      const before = await revision();
      await edit('s3', 'The lamp, brighter');
      const raced = await call('olga', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: 's3', state: 'approved', base_revision: before },
      });
      expect(raced.status, JSON.stringify(raced.body)).toBe(409);
      expect(raced.body).toMatchObject({
        error: { code: 'revision_conflict', details: { base_revision: before, changed_node_ids: ['board'] } },
      });
      const { states } = ReviewStateList.parse((await call('vic', `${CANVAS}/review-states`)).body);
      expect(states.find((state) => state.shot_id === 's3')).toMatchObject({ changed_since_approval: true });
    });

    it('a guest comments through a review link without an account, and does nothing else', async () => {
      const made = await call('olga', `${CANVAS}/share-links`, {
        method: 'POST',
        body: { node_id: 'board', review: 'comment', expires_in_days: 7 },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const link = ShareLinkView.parse(made.body);
      const secret = link.url!.split('/share/')[1]!;
      const shared = `/api/v1/shared/${secret}`;

      const noName = await api(stage.server.url, `${shared}/threads`, {
        method: 'POST',
        body: { node_id: 'board', shot_id: 's2', body: 'Hi' },
      });
      expect(noName.status).toBe(401);
      const joined = await api(stage.server.url, `${shared}/guests`, { method: 'POST', body: { name: 'Client Kim' } });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      const guest = GuestView.parse(joined.body);
      const headers = { 'x-guest-token': guest.token };
      const comment = await api(stage.server.url, `${shared}/threads`, {
        method: 'POST',
        headers,
        body: { node_id: 'board', shot_id: 's2', body: 'Love this one @olga' },
      });
      expect(comment.status, JSON.stringify(comment.body)).toBe(201);
      const thread = ThreadView.parse(comment.body);
      expect(thread.comments[0]!.author).toEqual({
        kind: 'guest',
        name: 'Guest: Client Kim',
        issuer: null,
        subject: null,
      });
      // The team sees it, and the director was mentioned.
      const listed = ThreadList.parse((await call('olga', `${CANVAS}/threads?node_id=board`)).body).threads;
      expect(listed.map((each) => each.thread_id)).toContain(thread.thread_id);
      expect(Inbox.parse((await call('olga', '/api/v1/inbox')).body).notifications[0]).toMatchObject({
        kind: 'mention',
        from: 'Guest: Client Kim',
      });

      // A guest's thread is the client's; the director answers in it, and opens one for the client herself.
      expect(thread.audience).toBe('client');
      const answer = await call('olga', `${CANVAS}/threads/${thread.thread_id}/comments`, {
        method: 'POST',
        body: { body: 'Glad you do, @ana will keep it.' },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const forClient = ThreadView.parse(
        (
          await call('olga', `${CANVAS}/threads`, {
            method: 'POST',
            body: { node_id: 'board', shot_id: 's1', body: 'Kim, is the harbour bright enough?', audience: 'client' },
          })
        ).body,
      );
      const teamOnly = ThreadView.parse(
        (
          await call('olga', `${CANVAS}/threads`, {
            method: 'POST',
            body: { node_id: 'board', shot_id: 's1', body: 'Between us: the budget is gone.' },
          })
        ).body,
      );
      expect([forClient.audience, teamOnly.audience]).toEqual(['client', 'team']);

      // What the page shows: the client's threads alone, people by the names they show, no identities.
      const view = SharedBoardsView.parse((await api(stage.server.url, shared)).body);
      expect(view.review).toBe('comment');
      expect(view.threads.map((each) => each.thread_id).sort()).toEqual([thread.thread_id, forClient.thread_id].sort());
      expect(JSON.stringify(view)).not.toContain('budget');
      // A team thread is answered as one that is not there: a guest cannot even learn of it.
      for (const hidden of [teamOnly.thread_id, threadId]) {
        const reply = await api(stage.server.url, `${shared}/threads/${hidden}/comments`, {
          method: 'POST',
          headers,
          body: { body: 'Let me see' },
        });
        expect(reply.status, hidden).toBe(404);
      }
      const stillTeam = ThreadList.parse((await call('olga', `${CANVAS}/threads?node_id=board`)).body).threads;
      expect(stillTeam.find((each) => each.thread_id === teamOnly.thread_id)!.comments).toHaveLength(1);
      expect(JSON.stringify(view)).not.toContain('https://idp.example');
      // Members by what a guest may know of them, never a sign-in subject, in the byline or in a comment's words.
      const comments = view.threads.flatMap((each) => each.comments);
      expect(comments.some((each) => each.author.kind === 'person')).toBe(true);
      for (const each of comments) {
        if (each.author.kind === 'person') expect(each.author.name).toBe('Team member');
        if (each.author.kind === 'assistant') expect(each.author.name).toBe('Assistant');
        expect(each.body).not.toMatch(/@(olga|ana|ben|vic)\b/);
      }
      expect(comments.map((each) => each.body)).toContain('Love this one @Team member');

      // Nothing but comments: no layout write, no node outside the link, no one else's comment.
      const write = await api(stage.server.url, `${CANVAS}/nodes`, {
        method: 'POST',
        headers,
        body: { node: NOTE, base_revision: await revision() },
      });
      expect(write.status).toBe(401);
      const elsewhere = await api(stage.server.url, `${shared}/threads`, {
        method: 'POST',
        headers,
        body: { node_id: 'note', body: 'x' },
      });
      expect(elsewhere.status).toBe(403);
      const others = await api(
        stage.server.url,
        `${shared}/threads/${threadId}/comments/${listed.find((t) => t.thread_id === threadId)!.comments[0]!.comment_id}`,
        {
          method: 'PATCH',
          headers,
          body: { body: 'mine now' },
        },
      );
      expect(others.status).toBeGreaterThanOrEqual(403);

      // A read-only link refuses comments; a revoked link ends its guests at once.
      const readOnly = ShareLinkView.parse(
        (await call('olga', `${CANVAS}/share-links`, { method: 'POST', body: { node_id: 'board', review: 'read' } }))
          .body,
      );
      const readSecret = readOnly.url!.split('/share/')[1]!;
      expect(
        (await api(stage.server.url, `/api/v1/shared/${readSecret}/guests`, { method: 'POST', body: { name: 'X' } }))
          .status,
      ).toBe(403);
      expect(
        SharedBoardsView.parse((await api(stage.server.url, `/api/v1/shared/${readSecret}`)).body).threads.length,
      ).toBeGreaterThan(0);

      expect((await call('olga', `${CANVAS}/share-links/${link.share_id}`, { method: 'DELETE' })).status).toBe(204);
      const afterRevoke = await api(stage.server.url, `${shared}/threads/${thread.thread_id}/comments`, {
        method: 'POST',
        headers,
        body: { body: 'still here?' },
      });
      expect(afterRevoke.status).toBe(404);
      expect(JSON.stringify(afterRevoke.body)).toContain('revoked');
    });

    it('asked in a thread, the assistant changes the canvas and answers there as "Assistant for <person>"', async () => {
      const start = await revision();
      stage.model.setBrain(
        scripted(
          { toolCalls: [{ name: 'get_canvas', args: { project_id: 'p', canvas_id: 'c' } }] },
          {
            toolCalls: [
              {
                name: 'create_canvas_node',
                args: {
                  project_id: 'p',
                  canvas_id: 'c',
                  base_revision: start,
                  client_save_id: null,
                  node: {
                    id: 'angle-note',
                    type: 'textAnnotationNode',
                    position: { x: 0, y: 900 },
                    data: { content: 'Shot 4: low angle' },
                  },
                },
              },
            ],
          },
          { text: 'Added a note under the board: shot 4 is now a low angle.' },
        ),
      );
      const asked = ThreadView.parse(
        (
          await call('ben', `${CANVAS}/threads`, {
            method: 'POST',
            body: { node_id: 'board', shot_id: 's4', body: '@assistant add a note that shot 4 is a low angle' },
          })
        ).body,
      );
      const answered = await waitFor(
        async () => ThreadView.parse((await call('ben', `${CANVAS}/threads/${asked.thread_id}`)).body),
        (thread) => thread.comments.length === 2,
        30_000,
      );
      expect(answered.comments[1]).toMatchObject({
        author: { kind: 'assistant', name: 'Assistant for ben' },
        body: 'Added a note under the board: shot 4 is now a low angle.',
      });
      // The model was told the thread, and its change is in history as the assistant's.
      const told = JSON.stringify(stage.model.requests[0]!.messages);
      expect(told).toContain('add a note that shot 4 is a low angle');
      expect(told).toContain('board');
      expect((await stage.server.store.layout.readNode('p', 'c', 'angle-note'))?.node.data).toMatchObject({
        content: 'Shot 4: low angle',
      });
      const history = await call('ben', `${CANVAS}/history?limit=5`);
      expect(JSON.stringify(history.body)).toContain('Assistant for ben');
      // Ben hears the answer in the inbox, as a reply.
      expect(Inbox.parse((await call('ben', '/api/v1/inbox')).body).notifications[0]).toMatchObject({
        kind: 'reply',
        from: 'Assistant for ben',
      });
    });

    it('webhooks hear comment.created, comment.resolved and review.changed', async () => {
      const rows = await stage.server.store.driver.all('SELECT type FROM webhook_deliveries');
      // No endpoint yet: nothing was queued (one indexed read per event).
      expect(rows).toEqual([]);
      const hook = await call('olga', '/api/v1/projects/p/webhooks', {
        method: 'POST',
        body: { url: 'http://127.0.0.1:9/hook', allow_private_network: true },
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      const made = ThreadView.parse(
        (await call('ana', `${CANVAS}/threads`, { method: 'POST', body: { node_id: 'board', body: 'Webhook check' } }))
          .body,
      );
      await call('ana', `${CANVAS}/threads/${made.thread_id}`, { method: 'PATCH', body: { status: 'resolved' } });
      await call('olga', `${CANVAS}/review-states`, {
        method: 'PUT',
        body: { node_id: 'board', shot_id: 's3', state: 'approved', base_revision: await revision() },
      });
      const types = (await stage.server.store.driver.all('SELECT type, body FROM webhook_deliveries ORDER BY seq')).map(
        (row) => [row.type, JSON.parse(String(row.body)) as { data: Record<string, unknown> }] as const,
      );
      expect(types.map(([type]) => type)).toEqual(['comment.created', 'comment.resolved', 'review.changed']);
      expect(types[0]![1].data).toMatchObject({ thread_id: made.thread_id, author: { kind: 'person', name: 'ana' } });
      expect(types[2]![1].data).toMatchObject({
        node_id: 'board',
        shot_id: 's3',
        state: 'approved',
        decided_by: 'olga',
      });
    });
  });
});
