import { CanvasEdge, CanvasNode } from '../../contract/index.js';
import { cachedPayload, type JsonPayload } from '../../shared/json-payload.js';
import type { LayoutChange, LayoutReads } from '../../store/layout-reads.js';
import type { LayoutObjectRow } from '../../store/records.js';

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

interface Entry {
  revision: number;
  // Map order is creation order: a new object is appended, an updated one keeps its place.
  nodes: Map<string, string>;
  edges: Map<string, string>;
  layout: CachedLayout;
}

export interface LayoutCacheOptions {
  maxCanvases?: number;
  /** Beyond this many changed objects a full reload is cheaper than catching up. */
  maxDelta?: number;
}

function validatedNode(row: LayoutObjectRow): string {
  CanvasNode.parse(JSON.parse(row.body));
  return row.body;
}

function validatedEdge(row: LayoutObjectRow): string {
  CanvasEdge.parse(JSON.parse(row.body));
  return row.body;
}

function render(revision: number, nodes: Map<string, string>, edges: Map<string, string>): CachedLayout {
  const json = `{"revision":${revision},"nodes":[${[...nodes.values()].join(',')}],"edges":[${[...edges.values()].join(',')}]}`;
  return { revision, payload: cachedPayload(json) };
}

function apply(target: Map<string, string>, changes: LayoutChange[], validate: (row: LayoutObjectRow) => string): void {
  for (const change of changes) {
    if (change.body === null) target.delete(change.id);
    else target.set(change.id, validate({ id: change.id, body: change.body }));
  }
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
        apply(cached.nodes, delta.nodes, validatedNode);
        apply(cached.edges, delta.edges, validatedEdge);
        cached.revision = delta.canvas.revision;
        cached.layout = render(cached.revision, cached.nodes, cached.edges);
        return cached;
      }
    }
    const full = await reads.loadLayout(projectId, canvasId);
    if (!full) return undefined;
    const nodes = new Map(full.nodes.map((row) => [row.id, validatedNode(row)]));
    const edges = new Map(full.edges.map((row) => [row.id, validatedEdge(row)]));
    return { revision: full.canvas.revision, nodes, edges, layout: render(full.canvas.revision, nodes, edges) };
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
