import type { ThreadView } from '../contract/review.js';

/**
 * The review notes a deliverable carries (docs/deliverables.md, "Markers and notes pages"): the board's open comment
 * threads, read when the export is queued and stored with it, so the same job always writes the same notes. Every
 * thread of the board is a note, the team's and the client's alike: an export is a team deliverable (a guest never
 * starts one). A note's words are untrusted text: bounded here, and escaped by each format's writer.
 */

/** Open threads an export carries at most, and comments of each thread (the first ones, in order). */
export const MAX_EXPORT_NOTES = 200;
export const MAX_NOTE_COMMENTS = 20;

/** A marker's name: the first comment's writer and its start. */
const NAME_MAX_CHARS = 80;
/** A marker's note: the thread's comments, one after the other. */
const NOTE_MAX_CHARS = 2000;

const byCreation = (a: ThreadView, b: ThreadView) =>
  a.created_at.localeCompare(b.created_at) || a.thread_id.localeCompare(b.thread_id);

/**
 * The board's open threads as an export carries them, oldest first: deleted comments dropped, at most
 * MAX_NOTE_COMMENTS each, at most MAX_EXPORT_NOTES in all (`leftOut` counts the rest, for the export's warnings).
 */
export function exportNotes(threads: readonly ThreadView[], boardId: string): { notes: ThreadView[]; leftOut: number } {
  const open = threads
    .filter((thread) => thread.status === 'open' && thread.node_id === boardId && !thread.node_deleted)
    .map((thread) => ({
      ...thread,
      comments: thread.comments
        .filter((comment) => !comment.deleted && comment.body.trim())
        .slice(0, MAX_NOTE_COMMENTS),
    }))
    .filter((thread) => thread.comments.length > 0)
    .sort(byCreation);
  return { notes: open.slice(0, MAX_EXPORT_NOTES), leftOut: Math.max(0, open.length - MAX_EXPORT_NOTES) };
}

/** Text cut to a number of characters (code points, so no surrogate is split), ending in an ellipsis when cut. */
export function bounded(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** Text on one line: line breaks, tabs and other control characters, and runs of spaces, as one space. */
export function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();
}

/** Text whose control characters but the line break are spaces, its line breaks written as \n. */
export const plainText = (text: string) =>
  text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/(?!\n)\p{Cc}/gu, ' ')
    .trim();

/** "ana: Hold the push a second longer": the first comment's writer and its words, on one bounded line. */
export function noteName(thread: Pick<ThreadView, 'comments'>): string {
  const first = thread.comments[0];
  return first ? bounded(oneLine(`${first.author.name}: ${first.body}`), NAME_MAX_CHARS) : '';
}

/** Every comment of the thread as "writer: words", one after another on lines of their own, bounded. */
export function noteText(thread: Pick<ThreadView, 'comments'>): string {
  return bounded(
    thread.comments.map((comment) => `${oneLine(comment.author.name)}: ${plainText(comment.body)}`).join('\n'),
    NOTE_MAX_CHARS,
  );
}
