import type {
  CommentAnchor,
  CanvasNode,
  CanvasRef,
  CommentCreateBody,
  Person,
  ShotMark,
  ThreadCreateBody,
  ThreadFilter,
  ThreadList,
  ThreadView,
} from '../../contract/index.js';
import { dataFieldOf, dataOf } from '../../contract/index.js';
import { samePerson } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { msOfFrame } from '../../shared/timecode.js';
import type { NewComment, NewNotification, ReviewEvent, StoredThread } from '../../store/review-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { findMentions } from './mentions.js';
import { canvasThreads } from './review-views.js';

/**
 * Comment threads (docs/review.md, "Comments"): people who may read the canvas (viewers included)
 * start threads on a node, a shot, a point or a time, or on the canvas, reply, edit and delete their own, resolve and
 * reopen; guests of a review link comment under their name; agents with the `review` tool set reply and resolve,
 * never more. Each change notifies whom it concerns (mentions, the thread's other people) and is a webhook event.
 */

/** Who writes a comment. */
export type CommentWriter =
  | { kind: 'person'; person: Person; /** The name they chose to be shown by, if any. */ shownAs?: string }
  | { kind: 'agent'; name: string }
  | { kind: 'guest'; guestId: string; name: string }
  | { kind: 'assistant'; forPerson: Person };

export function writerName(writer: CommentWriter): string {
  switch (writer.kind) {
    case 'person':
      return writer.shownAs ?? writer.person.subject;
    case 'agent':
      return writer.name;
    case 'guest':
      return `Guest: ${writer.name}`;
    case 'assistant':
      return `Assistant for ${writer.forPerson.subject}`;
  }
}

/** The person a caller is (a session, or a backend token acting for a person outside a chat run), else null. */
export function personOf(ctx: CallerContext): Person | null {
  if (ctx.principal.kind === 'session') return ctx.principal.person;
  if (ctx.principal.kind === 'backend' && ctx.actor && ctx.agentRunId === null) return ctx.actor;
  return null;
}

/**
 * A caller as a comment's writer: a person, or an agent (which only replies and resolves, and only with the `review`
 * tool set an owner enabled for its token or connection).
 */
export function writerOf(ctx: CallerContext): CommentWriter {
  const person = personOf(ctx);
  if (person) return { kind: 'person', person };
  if (ctx.principal.kind === 'session' || !ctx.principal.toolSets.includes('review'))
    throw new CanvasError(
      'forbidden',
      'Agents take part in review through the review tool set, which a project owner enables for the token or connection.',
    );
  return { kind: 'agent', name: ctx.principal.tokenName };
}

const EXCERPT_CHARS = 140;
export const excerpt = (text: string) =>
  text.length <= EXCERPT_CHARS ? text : `${text.slice(0, EXCERPT_CHARS - 1).trimEnd()}…`;

/** What a node is called in a thread ("Opening board, shot 4"; a note's title; an upload's file name; its type). */
export function nodeLabel(node: CanvasNode, shotId: string | null): string {
  const title = dataFieldOf(node, 'title');
  const fileName = dataFieldOf(node, 'fileName');
  const name =
    (typeof title === 'string' && title.trim()) ||
    (typeof node.data.displayName === 'string' && node.data.displayName.trim()) ||
    (typeof fileName === 'string' && fileName.trim()) ||
    node.type;
  if (!shotId) return name;
  const frames = dataOf(node, 'storyboardNode')?.frames ?? [];
  const index = frames.findIndex((frame) => frame.id === shotId);
  const number = index === -1 ? null : (frames[index]!.number ?? String(index + 1));
  return `${name}, shot ${typeof number === 'string' ? number : shotId}`;
}

function commentEvent(
  thread: { id: string; node_id: string | null; shot_id: string | null },
  commentId: string,
  writer: CommentWriter,
  body: string,
): ReviewEvent {
  return {
    type: 'comment.created',
    data: {
      thread_id: thread.id,
      comment_id: commentId,
      node_id: thread.node_id,
      shot_id: thread.shot_id,
      author: { kind: writer.kind, name: writerName(writer) },
      body,
    },
  };
}

export interface ThreadHooks {
  /** A thread of the canvas changed: this process's open pages hear it at once (others through the store's signal). */
  changed(ref: CanvasRef): void;
  /** After a change committed: e-mail what it notified (src/backend/review/review-mail.ts). */
  notified(notifications: readonly NewNotification[]): void;
  /** A person's comment asked the assistant (src/backend/review/assistant-threads.ts). */
  assistantAsked(ctx: CallerContext, ref: CanvasRef, threadId: string, person: Person): void;
}

export function createThreadOperations(store: Store, hooks: ThreadHooks) {
  async function members(projectId: string): Promise<Person[]> {
    return (await store.team.members(projectId)).map((member) => member.person);
  }

  /** The people a new comment notifies: those it mentions, then the thread's other people (replies). */
  async function notificationsFor(
    ref: CanvasRef,
    thread: { id: string; node_id: string | null; shot_id: string | null; node_label: string },
    writer: CommentWriter,
    body: string,
    earlierAuthors: readonly Person[],
  ): Promise<{ notifications: NewNotification[]; mentions: string[]; assistant: boolean }> {
    const found = findMentions(body, await members(ref.projectId));
    const self = writer.kind === 'person' ? writer.person : null;
    const from = writerName(writer);
    const where = thread.node_label || 'the canvas';
    const notifications: NewNotification[] = [];
    const told: Person[] = [];
    const add = (recipient: Person, kind: 'mention' | 'reply', summary: string) => {
      if (samePerson(recipient, self) || told.some((person) => samePerson(person, recipient))) return;
      told.push(recipient);
      notifications.push({
        id: newId('note_'),
        recipient,
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        kind,
        threadId: thread.id,
        nodeId: thread.node_id,
        shotId: thread.shot_id,
        fromName: from,
        summary,
      });
    };
    for (const person of found.people) add(person, 'mention', `${from} mentioned you on ${where}: ${excerpt(body)}`);
    for (const person of earlierAuthors) add(person, 'reply', `${from} replied on ${where}: ${excerpt(body)}`);
    return {
      notifications,
      mentions: [...found.people.map((person) => person.subject), ...(found.assistant ? ['assistant'] : [])],
      assistant: found.assistant,
    };
  }

  /** After a comment committed: open pages, e-mail, and the assistant when it was asked; answers the thread. */
  function committed(
    ctx: CallerContext | null,
    ref: CanvasRef,
    threadId: string,
    writer: CommentWriter,
    notifications: NewNotification[],
    assistantAsked: boolean,
  ): Promise<ThreadView> {
    hooks.changed(ref);
    hooks.notified(notifications);
    if (assistantAsked && writer.kind === 'person') hooks.assistantAsked(ctx!, ref, threadId, writer.person);
    return viewOf(ref, threadId);
  }

  async function requireThread(ref: CanvasRef, threadId: string): Promise<StoredThread> {
    const thread = await store.review.thread(ref.projectId, ref.canvasId, threadId);
    if (!thread) throw new CanvasError('not_found', `No comment thread ${threadId} on canvas ${ref.canvasId}.`);
    return thread;
  }

  async function viewOf(ref: CanvasRef, threadId: string): Promise<ThreadView> {
    const [view] = await canvasThreads(store, ref, { threadIds: [threadId] });
    if (!view) throw new CanvasError('not_found', `No comment thread ${threadId} on canvas ${ref.canvasId}.`);
    return view;
  }

  /** A person writes under the name they chose (docs/ui.md, "Names"); their subject until they choose one. */
  async function named(writer: CommentWriter): Promise<CommentWriter> {
    if (writer.kind !== 'person') return writer;
    const name = await store.names.nameOf(writer.person);
    return name === null ? writer : { ...writer, shownAs: name };
  }

  /** Where a new thread points, checked against the canvas: the node and shot exist, the anchor fits the node. */
  async function placeOf(ref: CanvasRef, body: ThreadCreateBody): Promise<string> {
    if (!body.node_id) {
      if (body.shot_id)
        throw new CanvasError('invalid_arguments', 'shot_id: a shot is named with its board (node_id).', {
          field: 'shot_id',
        });
      if (
        body.anchor &&
        body.anchor.on !== 'animatic' &&
        body.anchor.timecode_ms === undefined &&
        body.anchor.frame === undefined
      )
        throw new CanvasError('invalid_arguments', 'anchor: a thread on the canvas has no point to pin.', {
          field: 'anchor',
        });
      if (body.markup?.length) throw markupNeedsAFrame();
      return '';
    }
    const found = await store.layout.readNode(ref.projectId, ref.canvasId, body.node_id);
    if (!found)
      throw new CanvasError('not_found', `node_id: there is no node ${body.node_id} on this canvas.`, {
        field: 'node_id',
      });
    if (body.shot_id) {
      const frames = dataOf(found.node, 'storyboardNode')?.frames;
      if (!frames || !frames.some((frame) => frame.id === body.shot_id))
        throw new CanvasError('invalid_arguments', `shot_id: ${body.shot_id} is not a shot of ${body.node_id}.`, {
          field: 'shot_id',
        });
    }
    return nodeLabel(found.node, body.shot_id);
  }

  return {
    async list(
      ctx: CallerContext,
      ref: CanvasRef,
      query: { filter: ThreadFilter; node_id?: string | undefined },
    ): Promise<ThreadList> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const me = personOf(ctx);
      const mine = (view: ThreadView) =>
        view.comments.some(
          (c) =>
            c.author.kind === 'person' &&
            me !== null &&
            c.author.subject === me.subject &&
            c.author.issuer === me.issuer,
        );
      const mentionsMe = (view: ThreadView) =>
        me !== null && view.comments.some((comment) => comment.mentions.includes(me.subject));
      const threads = (await canvasThreads(store, ref, { nodeIds: query.node_id ? [query.node_id] : null })).filter(
        (view) =>
          query.filter === 'all' ||
          (query.filter === 'open' && view.status === 'open') ||
          (query.filter === 'resolved' && view.status === 'resolved') ||
          (query.filter === 'mine' && mine(view)) ||
          (query.filter === 'mentions_me' && mentionsMe(view)),
      );
      return { threads };
    },

    async get(ctx: CallerContext, ref: CanvasRef, threadId: string): Promise<ThreadView> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      return viewOf(ref, threadId);
    },

    /**
     * A new thread (people and guests). `writer` is the caller's own unless a guest's, whose link the route checked.
     */
    async create(
      ctx: CallerContext | null,
      ref: CanvasRef,
      body: ThreadCreateBody,
      guest?: { guestId: string; name: string },
    ): Promise<ThreadView> {
      let writer: CommentWriter;
      if (guest) writer = { kind: 'guest', ...guest };
      else {
        await authorizeProject(store, ctx!, ref.projectId, 'viewer');
        writer = await named(writerOf(ctx!));
        if (writer.kind !== 'person')
          throw new CanvasError(
            'forbidden',
            'Agents reply to and resolve threads people started (the review tool set); they do not start them.',
          );
      }
      await requireCanvas(store, ref.projectId, ref.canvasId);
      const label = await placeOf(ref, body);
      const threadId = newId('thread_');
      const commentId = newId('comment_');
      const thread = { id: threadId, node_id: body.node_id, shot_id: body.shot_id, node_label: label };
      const { notifications, mentions, assistant } = await notificationsFor(ref, thread, writer, body.body, []);
      await store.review.createThread(
        {
          id: threadId,
          projectId: ref.projectId,
          canvasId: ref.canvasId,
          nodeId: body.node_id,
          shotId: body.shot_id,
          anchor: body.anchor ? JSON.stringify(withTimeOfFrame(body.anchor)) : null,
          nodeLabel: label,
          // A guest writes to the team through the link: their thread is the client's by nature.
          audience: guest ? 'client' : (body.audience ?? 'team'),
        },
        commentOf(commentId, writer, body.body, mentions, body.markup),
        notifications,
        [commentEvent(thread, commentId, writer, body.body)],
      );
      return committed(ctx, ref, threadId, writer, notifications, assistant);
    },

    /** A reply: people, guests, agents with the review tool set, and the assistant answering in the thread. */
    async reply(
      ctx: CallerContext | null,
      ref: CanvasRef,
      threadId: string,
      body: CommentCreateBody,
      as?: CommentWriter,
    ): Promise<ThreadView> {
      if (!as) await authorizeProject(store, ctx!, ref.projectId, 'viewer');
      const writer = as ?? (await named(writerOf(ctx!)));
      const thread = await requireThread(ref, threadId);
      if (body.markup?.length && thread.node_id === null) throw markupNeedsAFrame();
      const earlier =
        (await store.review.threads(ref.projectId, ref.canvasId, { threadIds: [threadId] }))[0]?.comments ?? [];
      const authors = earlier.flatMap((c) =>
        c.author_kind === 'person' && c.author_issuer && c.author_subject
          ? [{ issuer: c.author_issuer, subject: c.author_subject }]
          : [],
      );
      // The assistant's answer tells the person who asked, as a reply.
      if (writer.kind === 'assistant') authors.unshift(writer.forPerson);
      const { notifications, mentions, assistant } = await notificationsFor(ref, thread, writer, body.body, authors);
      const commentId = newId('comment_');
      await store.review.addComment(
        thread,
        commentOf(commentId, writer, body.body, writer.kind === 'assistant' ? [] : mentions, body.markup),
        notifications,
        [commentEvent(thread, commentId, writer, body.body)],
      );
      return committed(ctx, ref, threadId, writer, notifications, assistant);
    },

    /** Edits (body) or deletes (null) one's own comment: a person's, or a guest's through their link. */
    async change(
      ctx: CallerContext | null,
      ref: CanvasRef,
      threadId: string,
      commentId: string,
      body: string | null,
      guest?: { guestId: string },
    ): Promise<ThreadView> {
      if (!guest) await authorizeProject(store, ctx!, ref.projectId, 'viewer');
      const thread = await requireThread(ref, threadId);
      const comment = await store.review.comment(threadId, commentId);
      if (!comment || comment.deleted_at !== null)
        throw new CanvasError('not_found', `No comment ${commentId} in thread ${threadId}.`);
      const person = ctx ? personOf(ctx) : null;
      const own = guest
        ? comment.guest_id === guest.guestId
        : person !== null &&
          comment.author_kind === 'person' &&
          comment.author_issuer === person.issuer &&
          comment.author_subject === person.subject;
      if (!own) throw new CanvasError('forbidden', 'Only its writer edits or deletes a comment.');
      await store.review.changeComment(thread, commentId, body);
      hooks.changed(ref);
      return viewOf(ref, threadId);
    },

    /** Resolves or reopens: people who may read the canvas, and agents with the review tool set. */
    async setStatus(
      ctx: CallerContext,
      ref: CanvasRef,
      threadId: string,
      status: 'open' | 'resolved',
    ): Promise<ThreadView> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      const thread = await requireThread(ref, threadId);
      if (thread.status !== status) {
        const by = writerName(writerOf(ctx));
        await store.review.setThreadStatus(
          thread,
          status,
          by,
          status === 'resolved'
            ? [
                {
                  type: 'comment.resolved',
                  data: { thread_id: threadId, node_id: thread.node_id, shot_id: thread.shot_id, resolved_by: by },
                },
              ]
            : [],
        );
        hooks.changed(ref);
      }
      return viewOf(ref, threadId);
    },
  };
}

function commentOf(
  id: string,
  writer: CommentWriter,
  body: string,
  mentions: string[],
  markup: readonly ShotMark[] = [],
): NewComment {
  return {
    markup,
    id,
    authorKind: writer.kind,
    author: writer.kind === 'person' ? writer.person : writer.kind === 'assistant' ? writer.forPerson : null,
    authorName: writerName(writer),
    guestId: writer.kind === 'guest' ? writer.guestId : null,
    body,
    mentions,
  };
}

export type ThreadOperations = ReturnType<typeof createThreadOperations>;

/** A drawn note is drawn on a frame: a thread on the canvas as a whole has none. */
function markupNeedsAFrame(): CanvasError {
  return new CanvasError(
    'invalid_arguments',
    'markup: a drawn note is drawn on the frame of a node or shot; a thread on the canvas as a whole has none.',
    { field: 'markup' },
  );
}

/**
 * A thread naming a frame also carries its time (where that frame starts): readers that know only times (the film
 * strip's marks, older clients) place it, and the frame stays the truth. A time sent with the frame is replaced by the
 * frame's, so the two never disagree.
 */
function withTimeOfFrame(anchor: CommentAnchor): CommentAnchor {
  if (anchor.frame === undefined || anchor.rate === undefined) return anchor;
  return { ...anchor, timecode_ms: msOfFrame(anchor.frame, anchor.rate) };
}
