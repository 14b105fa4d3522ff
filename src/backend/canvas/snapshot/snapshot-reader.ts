import { SNAPSHOT_CONTRACT_VERSION, isTerminalRunStatus } from '../../../contract/index.js';
import { CanvasError } from '../../../shared/errors.js';
import { cachedPayload, joinPayload, type JsonPayload } from '../../../shared/json-payload.js';
import { runtimeState } from '../../../store/run-rows.js';
import type { Store } from '../../../store/store.js';
import type { VersionSummary } from '../../../store/version-reads.js';
import { createLayoutCache } from './layout-cache.js';

/**
 * Assembles the canvas read (the CanvasSnapshot contract) from cached parts: the layout, keyed by revision, and
 * the node states, keyed by revision and states_version. Runtime results live only in node_states, never in
 * the layout (spec: Canvas).
 */

interface StatesEntry {
  revision: number;
  statesVersion: number;
  payload: JsonPayload;
}

export interface SnapshotRead {
  revision: number;
  /** Changes when a run's state does (results arrive without a new revision): caches of what a read shows key on it. */
  statesVersion?: number;
  payload: JsonPayload;
}

export function createSnapshotReader(store: Store, options: { maxCanvases?: number } = {}) {
  const layouts = createLayoutCache(store.layout, { maxCanvases: options.maxCanvases });
  const states = new Map<string, StatesEntry>();
  const maxCanvases = options.maxCanvases ?? 64;

  async function nodeStates(
    projectId: string,
    canvasId: string,
    revision: number,
    statesVersion: number,
  ): Promise<JsonPayload> {
    const key = `${projectId}\u0000${canvasId}`;
    const cached = states.get(key);
    if (cached && cached.revision === revision && cached.statesVersion === statesVersion) return cached.payload;
    const rows = await store.runs.latestRunsByNode(projectId, canvasId);
    // A canvas without runs has no versions: no second read.
    const versions =
      rows.length === 0 ? new Map<string, VersionSummary>() : await store.versions.summaries(projectId, canvasId);
    // The version a person picked is the node's state, not a later run, while no newer run is under way:
    // what get_canvas reports is what the card shows.
    const pinned = rows.filter((row) => {
      const version = versions.get(row.node_id);
      return version?.picked === true && version.currentRunId !== row.id && isTerminalRunStatus(row.status);
    });
    const picked = new Map(
      (
        await store.runs.runRows(
          projectId,
          canvasId,
          pinned.map((row) => versions.get(row.node_id)!.currentRunId),
        )
      ).map((row) => [row.node_id, row]),
    );
    const statesJson = JSON.stringify(
      Object.fromEntries(rows.map((row) => [row.node_id, runtimeState(picked.get(row.node_id) ?? row)])),
    );
    const summary = Object.fromEntries(
      [...versions].map(([nodeId, version]) => [
        nodeId,
        { count: version.count, current_run_id: version.currentRunId },
      ]),
    );
    // A page opened (or reloaded) while a chain runs follows it from here: its unfinished steps are the latest runs of their nodes.
    const activeChains = [
      ...new Set(
        rows.filter((row) => row.chain_id !== null && !isTerminalRunStatus(row.status)).map((row) => row.chain_id),
      ),
    ];
    // Follow node_states in the document: `…,"node_states":{…},"result_versions":{…},"active_chains":[…]}`.
    const payload = cachedPayload(
      statesJson +
        (versions.size === 0 ? '' : `,"result_versions":${JSON.stringify(summary)}`) +
        (activeChains.length === 0 ? '' : `,"active_chains":${JSON.stringify(activeChains)}`),
    );
    states.delete(key);
    states.set(key, { revision, statesVersion, payload });
    while (states.size > maxCanvases) states.delete(states.keys().next().value!);
    return payload;
  }

  /** The assembled document of each canvas's latest read, reused while nothing it depends on has changed. */
  const documents = new Map<string, { revision: number; statesVersion: number; locked: boolean; read: SnapshotRead }>();

  return {
    /** Caller permissions must be checked before this is called. */
    async read(projectId: string, canvasId: string): Promise<SnapshotRead> {
      const canvas = await store.layout.readCanvas(projectId, canvasId);
      if (!canvas) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
      const key = `${projectId}\u0000${canvasId}`;
      const document = documents.get(key);
      if (
        document &&
        document.revision === canvas.revision &&
        document.statesVersion === canvas.statesVersion &&
        document.locked === canvas.locked
      ) {
        return document.read;
      }
      const layout = await layouts.get(projectId, canvasId, canvas.revision);
      if (!layout) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
      const statesPayload = await nodeStates(projectId, canvasId, layout.revision, canvas.statesVersion);
      const head =
        `{"snapshot_version":${JSON.stringify(SNAPSHOT_CONTRACT_VERSION)},"project_id":${JSON.stringify(projectId)},` +
        `"canvas_id":${JSON.stringify(canvasId)},"locked":${canvas.locked},"layout":`;
      const read = {
        revision: layout.revision,
        statesVersion: canvas.statesVersion,
        payload: joinPayload([head, layout.payload, ',"node_states":', statesPayload, '}']),
      };
      documents.delete(key);
      documents.set(key, {
        revision: layout.revision,
        statesVersion: canvas.statesVersion,
        locked: canvas.locked,
        read,
      });
      while (documents.size > maxCanvases) documents.delete(documents.keys().next().value!);
      return read;
    },
  };
}

export type SnapshotReader = ReturnType<typeof createSnapshotReader>;
