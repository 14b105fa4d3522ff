/**
 * Reading node data defensively. The server validates every node against the contract, but a card must never crash
 * the page on data it does not expect (an older schema, a new field, a bug): each accessor answers a plain value or
 * nothing.
 */

export type Data = Record<string, unknown>;

/** A JSON object as a record of its fields; anything else as none. */
export function recordOf(value: unknown): Data {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Data) : {};
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function bool(value: unknown): boolean {
  return value === true;
}

/** A node's title: its displayName, else what its type calls a title, else its id. */
export function titleOf(type: string, data: Data, id: string): string {
  return (
    text(data.displayName) ??
    text(data.label) ??
    text(data.scriptTitle) ??
    text(data.title) ??
    text(data.fileName) ??
    `${id}`
  );
}

/**
 * What a card says of itself zoomed out: its title, except for a note still called by its type's name ("Note"), which
 * says the start of what it says instead, so a board of notes does not read "Note, Note, Note".
 */
export function overviewTitle(type: string, data: Data, id: string): string {
  const title = titleOf(type, data, id);
  const content = text(data.content)?.replace(/\s+/g, ' ').trim();
  if (type === 'textAnnotationNode' && content && (title === 'Note' || title === id))
    return content.length > 80 ? `${content.slice(0, 79)}…` : content;
  return title;
}

export function formatMs(ms: number | undefined | null): string | undefined {
  if (ms === undefined || ms === null || !Number.isFinite(ms)) return undefined;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
}

/** A short, readable view of any JSON value (script results, free-form fields). */
export function preview(value: unknown, max = 280): string | undefined {
  if (value === undefined || value === null) return undefined;
  const shown = typeof value === 'string' ? value : JSON.stringify(value, null, 1);
  if (shown === undefined) return undefined;
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/** An amount of credits as people read it: "1 credit", "0.5 credits", "3 credits". */
export function credits(amount: number): string {
  return `${amount} ${amount === 1 ? 'credit' : 'credits'}`;
}
