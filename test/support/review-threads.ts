import type { CommentAnchor, ThreadView } from '../../src/contract/review.js';

/**
 * Open review threads of a board as the exports read them (src/exports/review-notes.ts), made without a server for
 * the writers' and the PDF's tests: each a minute after the one before, its comments by the names given.
 */

let made = 0;

export function openThread(
  shotId: string | null,
  anchor: CommentAnchor | null,
  comments: Array<[author: string, body: string]>,
  audience: ThreadView['audience'] = 'team',
): ThreadView {
  made += 1;
  const at = new Date(Date.UTC(2024, 4, 1, 10, made)).toISOString();
  return {
    thread_id: `thread_${made}`,
    audience,
    node_id: 'board',
    shot_id: shotId,
    anchor,
    node_label: 'Board',
    node_deleted: false,
    status: 'open',
    created_at: at,
    updated_at: at,
    resolved_by: null,
    resolved_at: null,
    comments: comments.map(([author, body], index) => ({
      comment_id: `comment_${made}_${index}`,
      author: { kind: author.startsWith('Guest: ') ? 'guest' : 'person', name: author, issuer: null, subject: null },
      body,
      mentions: [],
      markup: [],
      created_at: at,
      edited_at: null,
      deleted: false,
    })),
  };
}
