import { CanvasEdge, CanvasNode } from '../../../contract/index.js';
import { yieldToIo } from '../../../shared/event-loop.js';
import { cachedPayload, type JsonPayload } from '../../../shared/json-payload.js';
import type { LayoutChange, LayoutReads, OrderedObject } from '../../../store/layout-reads.js';

/**
 * The serialized layout of recently read canvases, keyed by canvas and revision. A newer revision is reached
 * by applying only what changed (the store's change log), so a write to a 10,000-node canvas costs the next
 * reader one node, not 10,000. Rows are validated against the contract once, when they enter the cache.
 * Permissions are never cached here: callers check them on every read.
 */

export interface CachedLayout {
  revision: number;
  payload: JsonPayload;
}

interface Cached {
  body: string;
  seq: number;
}

interface Entry {
  revision: number;
  // Kept in creation order (seq): parents before children, as React Flow needs.
  nodes: Map<string, Cached>;
  edges: Map<string, Cached>;
  layout: CachedLayout;
}

export interface LayoutCacheOptions {
  maxCanvases?: number;
  /** Beyond this many changed objects a full reload is cheaper than catching up. */
  maxDelta?: number;
}

/** How long checking stored bodies runs before it gives the event loop a turn (a cold load of a large canvas). */
const SLICE_MS = 20;

/** Checks bodies read from the store against the contract, yielding to the event loop every SLICE_MS. */
function createChecker(): (schema: typeof CanvasNode | typeof CanvasEdge, body: string) => Promise<string> {
  let sliceStarted = performance.now();
  return async (schema, body) => {
    if (performance.now() - sliceStarted > SLICE_MS) {
      await yieldToIo();
      sliceStarted = performance.now();
    }
    schema.parse(JSON.parse(body));
    return body;
  };
}
type Checker = ReturnType<typeof createChecker>;

/** Past this many characters, rendering and encoding a layout each take a turn of the event loop of their own. */
const LARGE_LAYOUT_CHARS = 1_000_000;

/**
 * The layout's text, and its UTF-8 bytes encoded now rather than in the turn of the read that first answers with it.
 * A large one (a cold read of 24 nodes of 450 KB: 50 ms to join, 95 ms to encode, then the route's own work, on a
 * busy 2-core host) gives the event loop a turn before each step, so no one turn holds it past its budget.
 */
async function render(revision: number, nodes: Map<string, Cached>, edges: Map<string, Cached>): Promise<CachedLayout> {
  let chars = 0;
  for (const object of nodes.values()) chars += object.body.length;
  const large = chars > LARGE_LAYOUT_CHARS;
  if (large) await yieldToIo();
  const bodies = (objects: Map<string, Cached>) => [...objects.values()].map((object) => object.body).join(',');
  const json = `{"revision":${revision},"nodes":[${bodies(nodes)}],"edges":[${bodies(edges)}]}`;
  const payload = cachedPayload(json);
  if (large) {
    await yieldToIo();
    payload.chunks('json');
    await yieldToIo();
  }
  return { revision, payload };
}

/** Applies changes; returns the map to keep (re-sorted when an object moved in creation order). */
async function apply(
  target: Map<string, Cached>,
  changes: LayoutChange[],
  schema: typeof CanvasNode | typeof CanvasEdge,
  validated: Checker,
): Promise<Map<string, Cached>> {
  let reordered = false;
  let lastSeq = [...target.values()].at(-1)?.seq ?? -1;
  for (const change of changes) {
    if (change.body === null || change.seq === null) {
      target.delete(change.id);
      continue;
    }
    const previous = target.get(change.id);
    const next = { body: await validated(schema, change.body), seq: change.seq };
    if (previous ? previous.seq !== change.seq : change.seq < lastSeq) reordered = true;
    target.set(change.id, next);
    lastSeq = Math.max(lastSeq, change.seq);
  }
  return reordered ? new Map([...target.entries()].sort(([, left], [, right]) => left.seq - right.seq)) : target;
}

async function ordered(
  rows: OrderedObject[],
  schema: typeof CanvasNode | typeof CanvasEdge,
  validated: Checker,
): Promise<Map<string, Cached>> {
  const objects = new Map<string, Cached>();
  for (const row of rows) objects.set(row.id, { body: await validated(schema, row.body), seq: row.seq });
  return objects;
}

export function createLayoutCache(reads: LayoutReads, options: LayoutCacheOptions = {}) {
  const maxCanvases = options.maxCanvases ?? 64;
  const maxDelta = options.maxDelta ?? 2000;
  const entries = new Map<string, Entry>();
  const refreshing = new Map<string, Promise<Entry | undefined>>();

  function remember(key: string, entry: Entry): void {
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > maxCanvases) entries.delete(entries.keys().next().value!);
  }

  async function load(projectId: string, canvasId: string, cached: Entry | undefined): Promise<Entry | undefined> {
    if (cached) {
      const delta = await reads.layoutChangesSince(projectId, canvasId, cached.revision, maxDelta);
      if (delta) {
        if (delta.canvas.revision === cached.revision) return cached;
        const validated = createChecker();
        cached.nodes = await apply(cached.nodes, delta.nodes, CanvasNode, validated);
        cached.edges = await apply(cached.edges, delta.edges, CanvasEdge, validated);
        cached.revision = delta.canvas.revision;
        cached.layout = await render(cached.revision, cached.nodes, cached.edges);
        return cached;
      }
    }
    const full = await reads.loadLayout(projectId, canvasId);
    if (!full) return undefined;
    const validated = createChecker();
    const nodes = await ordered(full.nodes, CanvasNode, validated);
    const edges = await ordered(full.edges, CanvasEdge, validated);
    return { revision: full.canvas.revision, nodes, edges, layout: await render(full.canvas.revision, nodes, edges) };
  }

  return {
    /** The layout at `atLeastRevision` or newer; undefined when the canvas does not exist. */
    async get(projectId: string, canvasId: string, atLeastRevision: number): Promise<CachedLayout | undefined> {
      const key = `${projectId}\u0000${canvasId}`;
      for (;;) {
        const cached = entries.get(key);
        if (cached && cached.revision >= atLeastRevision) {
          remember(key, cached);
          return cached.layout;
        }
        const inFlight = refreshing.get(key);
        if (inFlight) {
          await inFlight;
          continue;
        }
        // One refresh per canvas at a time: it may update the cached entry in place.
        const refresh = load(projectId, canvasId, cached).finally(() => refreshing.delete(key));
        refreshing.set(key, refresh);
        const entry = await refresh;
        if (!entry) {
          entries.delete(key);
          return undefined;
        }
        remember(key, entry);
        return entry.layout;
      }
    },

    forget(projectId: string, canvasId: string): void {
      entries.delete(`${projectId}\u0000${canvasId}`);
    },
  };
}

export type LayoutCache = ReturnType<typeof createLayoutCache>;
