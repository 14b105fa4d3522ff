/**
 * JSON text of a result and, computed once on demand, the same text escaped as the inside of a JSON string
 * (what an MCP text content block carries), each also as encoded bytes. Escaping commutes with concatenation,
 * so a document assembled from cached parts is escaped part by part, and nothing large is serialized or
 * encoded twice.
 *
 * A payload is a list of leaves: cached pieces of JSON text. Joining payloads, or adding members to a JSON object
 * (`withMembers`: get_canvas's extras, a caller's "changes since your last read", presence), makes a new list that
 * shares the old leaves, so the forms each leaf cached (escaped text, bytes) are reused on every call and only the
 * small new members are ever escaped or encoded (docs/architecture.md, "The hot path: get_canvas").
 */
export type PayloadForm = 'json' | 'escaped';

export interface JsonPayload {
  /** The whole text, flattened on first use: for cold paths (a parse, a REST body); the hot path writes `chunks`. */
  readonly json: string;
  escaped(): string;
  /** The payload as UTF-8 chunks, in order; large cached parts are shared, never re-encoded. */
  chunks(form: PayloadForm): readonly Buffer[];
  /** The cached pieces this payload is made of, in order (a leaf is its own only piece). */
  readonly leaves: readonly JsonPayload[];
}

/**
 * What payloads have cost this process: every escape, UTF-8 encoding and flattening, with the characters each
 * covered. Counted, not timed, so a test can prove that reading an unchanged document again does none of them
 * (a timed test would measure the machine).
 */
export const payloadWork = {
  escapes: 0,
  escapedChars: 0,
  encodes: 0,
  encodedChars: 0,
  flattens: 0,
  flattenedChars: 0,
  reset() {
    this.escapes = this.escapedChars = this.encodes = this.encodedChars = this.flattens = this.flattenedChars = 0;
  },
};

export function escapeJsonText(text: string): string {
  payloadWork.escapes += 1;
  payloadWork.escapedChars += text.length;
  return JSON.stringify(text).slice(1, -1);
}

function encode(text: string): Buffer {
  payloadWork.encodes += 1;
  payloadWork.encodedChars += text.length;
  return Buffer.from(text);
}

export function cachedPayload(json: string): JsonPayload {
  let escaped: string | undefined;
  const bytes: Partial<Record<PayloadForm, Buffer[]>> = {};
  const payload: JsonPayload = {
    json,
    escaped: () => (escaped ??= escapeJsonText(json)),
    chunks: (form) => (bytes[form] ??= [encode(form === 'json' ? json : payload.escaped())]),
    get leaves() {
      return [payload];
    },
  };
  return payload;
}

export function jsonPayload(value: unknown): JsonPayload {
  return cachedPayload(JSON.stringify(value));
}

/** Concatenates JSON fragments (plain strings) and cached payloads into one payload, sharing their leaves. */
export function joinPayload(parts: ReadonlyArray<string | JsonPayload>): JsonPayload {
  const leaves = parts.flatMap((part) => (typeof part === 'string' ? [cachedPayload(part)] : part.leaves));
  if (leaves.length === 1) return leaves[0]!;
  let json: string | undefined;
  let escaped: string | undefined;
  const chunks: Partial<Record<PayloadForm, Buffer[]>> = {};
  return {
    get json() {
      if (json === undefined) {
        json = leaves.map((leaf) => leaf.json).join('');
        payloadWork.flattens += 1;
        payloadWork.flattenedChars += json.length;
      }
      return json;
    },
    escaped: () => (escaped ??= leaves.map((leaf) => leaf.escaped()).join('')),
    chunks: (form) => (chunks[form] ??= leaves.flatMap((leaf) => leaf.chunks(form))),
    leaves,
  };
}

/**
 * A leaf holding a JSON object's text without its closing brace, derived from the leaf's own cached forms: the same
 * bytes minus one (a `}` is one byte, and escapes to itself). Kept per leaf, so a document is opened once.
 */
const openedLeaves = new WeakMap<JsonPayload, JsonPayload>();
function openedLeaf(leaf: JsonPayload): JsonPayload {
  const known = openedLeaves.get(leaf);
  if (known) return known;
  if (!leaf.json.endsWith('}')) throw new Error('withMembers: the payload is not a JSON object');
  const bytes: Partial<Record<PayloadForm, Buffer[]>> = {};
  const opened: JsonPayload = {
    json: leaf.json.slice(0, -1),
    escaped: () => leaf.escaped().slice(0, -1),
    chunks: (form) =>
      (bytes[form] ??= leaf
        .chunks(form)
        .map((chunk, index, all) => (index === all.length - 1 ? chunk.subarray(0, chunk.length - 1) : chunk))),
    get leaves() {
      return [opened];
    },
  };
  openedLeaves.set(leaf, opened);
  return opened;
}

/**
 * The JSON object `payload` with `members` (`"a":1,"b":2`, already JSON) added at its end. Its leaves are shared: the
 * document is never copied, escaped or encoded again; only the members are.
 */
export function withMembers(payload: JsonPayload, members: string): JsonPayload {
  if (members === '') return payload;
  const { leaves } = payload;
  const last = leaves[leaves.length - 1]!;
  const opened = last.json === '}' ? leaves.slice(0, -1) : [...leaves.slice(0, -1), openedLeaf(last)];
  // An object with no member yet (`{}`) takes the members without a comma before them.
  const tail = opened[opened.length - 1];
  const empty = tail !== undefined && /\{\s*$/.test(tail.json.slice(-16));
  return joinPayload([...opened, `${empty ? '' : ','}${members}}`]);
}

/** The payload's first `length` characters, read from its leaves without flattening it. */
export function payloadPrefix(payload: JsonPayload, length: number): string {
  let text = '';
  for (const leaf of payload.leaves) {
    text += leaf.json.slice(0, length - text.length);
    if (text.length >= length) break;
  }
  return text;
}
