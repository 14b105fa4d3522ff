/**
 * JSON text of a result and, computed once on demand, the same text escaped as the inside of a JSON string
 * (what an MCP text content block carries), each also as encoded bytes. Escaping commutes with concatenation,
 * so a document assembled from cached parts is escaped part by part, and nothing large is serialized or
 * encoded twice.
 */
export type PayloadForm = 'json' | 'escaped';

export interface JsonPayload {
  readonly json: string;
  escaped(): string;
  /** The payload as UTF-8 chunks, in order; large cached parts are shared, never re-encoded. */
  chunks(form: PayloadForm): readonly Buffer[];
}

export function escapeJsonText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export function cachedPayload(json: string): JsonPayload {
  let escaped: string | undefined;
  const bytes: Partial<Record<PayloadForm, Buffer[]>> = {};
  const payload: JsonPayload = {
    json,
    escaped: () => (escaped ??= escapeJsonText(json)),
    chunks: (form) => (bytes[form] ??= [Buffer.from(form === 'json' ? json : payload.escaped())]),
  };
  return payload;
}

export function jsonPayload(value: unknown): JsonPayload {
  return cachedPayload(JSON.stringify(value));
}

/** Concatenates JSON fragments (plain strings) and cached payloads into one payload. */
export function joinPayload(parts: ReadonlyArray<string | JsonPayload>): JsonPayload {
  const pieces = parts.map((part) => (typeof part === 'string' ? cachedPayload(part) : part));
  let json: string | undefined;
  let escaped: string | undefined;
  const chunks: Partial<Record<PayloadForm, Buffer[]>> = {};
  return {
    get json() {
      return (json ??= pieces.map((piece) => piece.json).join(''));
    },
    escaped: () => (escaped ??= pieces.map((piece) => piece.escaped()).join('')),
    chunks: (form) => (chunks[form] ??= pieces.flatMap((piece) => piece.chunks(form))),
  };
}
