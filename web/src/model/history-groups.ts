import type { HistoryEntry, RevisionAuthor, ShotChange } from '../../../src/contract/index.js';

/**
 * History a person can read (docs/ui.md, "History"): a person's consecutive edits of one shot, each within a few
 * minutes of the one before, shown as one entry ("ana edited shot 3: size, lens, dialogue"). Each stays its own
 * revision for the feed, conflicts and revert: the group lists them, and any one can be reverted to.
 */

/** Edits of one shot further apart than this are two entries. */
export const GROUP_WINDOW_MS = 5 * 60_000;

export interface HistoryGroup {
  /** Newest first, as History lists them. */
  entries: HistoryEntry[];
  /** The one shot every entry of a group of several edited, if it is one. */
  shot: ShotChange | null;
  /** The fields edited across the group, in the order first met. */
  fields: string[];
}

const FIELD_WORDS: Record<string, string> = {
  shotSize: 'size',
  lensMm: 'lens',
  durationMs: 'duration',
  caption: 'description',
  imageUrl: 'picture',
  drawingUrl: 'drawing',
  earlierPictures: 'earlier pictures',
  sourceNodeId: 'source',
  move: 'camera move',
  marks: 'marks',
};

/** A shot field as a person calls it. */
export const fieldWords = (field: string) => FIELD_WORDS[field] ?? field;

const samePerson = (a: RevisionAuthor | null, b: RevisionAuthor | null) =>
  a?.kind === 'person' && b?.kind === 'person' && a.issuer === b.issuer && a.subject === b.subject;

/** The one shot an entry updated, when that is all it did. */
function singleShotEdit(entry: HistoryEntry): ShotChange | null {
  const shots = entry.shots ?? [];
  if (shots.length !== 1 || entry.changes.length !== 1) return null;
  return shots[0]!.change === 'update' ? shots[0]! : null;
}

export function groupHistory(entries: readonly HistoryEntry[]): HistoryGroup[] {
  const groups: HistoryGroup[] = [];
  for (const entry of entries) {
    const shot = singleShotEdit(entry);
    const last = groups.at(-1);
    const previous = last?.entries.at(-1);
    const joins =
      shot !== null &&
      last?.shot !== null &&
      last !== undefined &&
      previous !== undefined &&
      last.shot.node_id === shot.node_id &&
      last.shot.shot_id === shot.shot_id &&
      samePerson(previous.author, entry.author) &&
      previous.at !== null &&
      entry.at !== null &&
      Date.parse(previous.at) - Date.parse(entry.at) <= GROUP_WINDOW_MS;
    if (joins) {
      last.entries.push(entry);
      for (const field of shot.fields) if (!last.fields.includes(field)) last.fields.push(field);
    } else groups.push({ entries: [entry], shot, fields: shot ? [...shot.fields] : [] });
  }
  return groups;
}

/** "edited shot 3: size, lens, dialogue", "added shot 4", or null when the entry names no shot. */
export function shotWords(changes: readonly ShotChange[], fields?: readonly string[]): string | null {
  if (changes.length === 0) return null;
  const label = (change: ShotChange) => `shot ${change.number ?? change.shot_id}`;
  if (changes.length === 1) {
    const [change] = changes as [ShotChange];
    if (change.change === 'create') return `added ${label(change)}`;
    if (change.change === 'delete') return `removed ${label(change)}`;
    const words = [...new Set((fields ?? change.fields).map(fieldWords))];
    return `edited ${label(change)}${words.length ? `: ${words.join(', ')}` : ''}`;
  }
  const added = changes.filter((change) => change.change === 'create').length;
  const removed = changes.filter((change) => change.change === 'delete').length;
  const edited = changes.length - added - removed;
  return [
    added ? `added ${added} shot${added === 1 ? '' : 's'}` : '',
    removed ? `removed ${removed} shot${removed === 1 ? '' : 's'}` : '',
    edited ? `edited ${edited} shot${edited === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
