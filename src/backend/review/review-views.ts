import type { CommentAnchor, CommentView, ThreadView } from '../../contract/index.js';
import { CommentAnchor as CommentAnchorSchema } from '../../contract/index.js';
import type { StoredComment, StoredThread } from '../../store/review-store.js';
import type { Store } from '../../store/store.js';

/** Threads as REST, MCP, the feed and the share page show them (src/contract/review.ts). */

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function commentView(comment: StoredComment): CommentView {
  return {
    comment_id: comment.id,
    author: {
      kind: comment.author_kind,
      name: comment.author_name,
      issuer: comment.author_issuer,
      subject: comment.author_subject,
    },
    body: comment.deleted_at === null ? comment.body : '',
    mentions: JSON.parse(comment.mentions) as string[],
    markup: comment.deleted_at === null ? comment.markup : [],
    created_at: iso(comment.created_at)!,
    edited_at: iso(comment.edited_at),
    deleted: comment.deleted_at !== null,
  };
}

export function threadView(thread: StoredThread, comments: readonly StoredComment[], nodeGone: boolean): ThreadView {
  return {
    thread_id: thread.id,
    audience: thread.audience,
    node_id: thread.node_id,
    shot_id: thread.shot_id,
    anchor: thread.anchor === null ? null : (CommentAnchorSchema.parse(JSON.parse(thread.anchor)) as CommentAnchor),
    node_label: thread.node_label,
    node_deleted: nodeGone,
    status: thread.status,
    created_at: iso(thread.created_at)!,
    updated_at: iso(thread.updated_at)!,
    resolved_by: thread.resolved_by,
    resolved_at: iso(thread.resolved_at),
    comments: comments.map(commentView),
  };
}

/** A canvas's threads as views: which of their nodes are gone is read once for all of them. */
export async function canvasThreads(
  store: Store,
  ref: { projectId: string; canvasId: string },
  options: { nodeIds?: readonly string[] | null; threadIds?: readonly string[] } = {},
): Promise<ThreadView[]> {
  const threads = await store.review.threads(ref.projectId, ref.canvasId, options);
  const nodeIds = [...new Set(threads.flatMap(({ thread }) => (thread.node_id ? [thread.node_id] : [])))];
  const present = nodeIds.length > 0 ? await store.layout.nodeTypes(ref.projectId, ref.canvasId, nodeIds) : {};
  return threads.map(({ thread, comments }) =>
    threadView(thread, comments, thread.node_id !== null && !Object.hasOwn(present, thread.node_id)),
  );
}

/** thread id → the JSON of its view, for the change feed (a `comment` event goes out when one differs). */
export async function threadStates(store: Store, projectId: string, canvasId: string): Promise<Map<string, string>> {
  const views = await canvasThreads(store, { projectId, canvasId });
  return new Map(views.map((view) => [view.thread_id, JSON.stringify(view)]));
}
