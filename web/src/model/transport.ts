import type {
  CanvasSnapshot,
  HistoryPage,
  LayoutOperation,
  NodeRun,
  NodeRuntimeState,
  PresenceEntry,
  PresenceEvent,
  PresenceUpdateBody,
  ResultVersionList,
  RunEstimate,
  ChainEstimate,
  RunChain,
  ReviewStateList,
  RoomEvent,
  ThreadView,
} from '../../../src/contract/index.js';
import { api, newKey, type CanvasAddress } from './api.js';
import type { LayoutEventData } from './layout.js';

/**
 * How an open canvas reaches the server: the web canvas through the REST routes and the change feed (this file's
 * `restTransport`), the MCP App through its host's tool calls (web/src/mcp-app/host-transport.ts). The controller
 * (canvas-store.ts) is the same for both: intents, conflicts and undo behave alike wherever the canvas is drawn.
 * Failures are ApiErrors, whose `code` is the server's error code (revision_conflict drives a re-read).
 */

export type Role = 'viewer' | 'editor' | 'owner';
export type FeedStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface FeedHandlers {
  /** One revision, in order; a gap makes the controller re-read. */
  layout(event: LayoutEventData): void;
  nodeState(nodeId: string, state: NodeRuntimeState | null): void;
  /** A whole new snapshot (a transport that polls instead of listening). */
  snapshot(snapshot: CanvasSnapshot): void;
  /** The feed cannot go on from where it was: re-read the canvas. */
  reset(): void;
  /** Who is on the canvas now (people and agents). */
  presence(entries: PresenceEntry[]): void;
  /** An export of the canvas started, moved on or finished. */
  exportState?(state: ExportState): void;
  status(status: FeedStatus): void;
}

/** What the feed says of an export job: its status and progress (its file is read from the exports list). */
export interface ExportState {
  export_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress: { percent: number | null; message: string | null };
}

/** What screens call the signed-in person, the project and the canvas. */
export interface CanvasNames {
  person: string | null;
  project: string;
  canvas: string;
}

export interface CanvasTransport {
  whoAmI(): Promise<{
    role: Role;
    person: { issuer: string; subject: string } | null;
    /** What screens call the person, the project and the canvas (names, not ids). */
    names?: CanvasNames;
  }>;
  snapshot(): Promise<CanvasSnapshot>;
  /** `label` names the person's change ("Move", "Edit text"), for a transport that reports it. */
  changes(
    baseRevision: number,
    operations: LayoutOperation[],
    clientSaveId: string,
    label: string,
  ): Promise<{ revision: number }>;
  /** Recent revisions with their authors (who changed what, for the notices that explain a conflict). */
  history(): Promise<HistoryPage>;
  revert(baseRevision: number, toRevision: number): Promise<unknown>;
  estimate(nodeId: string): Promise<RunEstimate>;
  submitRun(nodeId: string, idempotencyKey: string): Promise<NodeRun>;
  cancelRun(runId: string): Promise<unknown>;
  /** Follows the canvas's changes after `after`; answers how to stop. */
  follow(after: number, handlers: FeedHandlers): () => void;
  /** Tells the others where the person is (selection, cursor in canvas coordinates); null: they left. */
  reportPresence?(report: PresenceUpdateBody | null): Promise<void>;
  /** A node's result versions; a transport without them shows none. */
  versions?(nodeId: string): Promise<ResultVersionList>;
  /** "Run ×N": N variants in one request; a transport without it runs one at a time. */
  submitRunVariants?(nodeId: string, count: number, idempotencyKey: string): Promise<{ runs: NodeRun[] }>;
  pickVersion?(nodeId: string, runId: string, baseRevision: number): Promise<unknown>;
  /** "Run from here" (docs/runs.md, "Downstream chains"); a transport without it offers runs of one node only. */
  chains?: {
    estimate(nodeId: string): Promise<ChainEstimate>;
    submit(nodeId: string, idempotencyKey: string): Promise<RunChain>;
    read(chainId: string): Promise<RunChain>;
    cancel(chainId: string): Promise<RunChain>;
  };
}

/**
 * What the feed says of review (docs/review.md): a thread as it now is whenever it changes, the canvas's review states
 * (and the project's "Editors may approve") whenever they change, and each (re)connection, after which whoever listens re-reads what it may have missed.
 */
export interface ReviewFeedListener {
  comment(thread: ThreadView): void;
  /** The canvas's review states and whether editors may approve, as GET …/review-states answers them. */
  review(list: ReviewStateList): void;
  /** A board's review room changed or ended (docs/review.md, "The review room"). */
  room?(event: RoomEvent): void;
  connected(): void;
}

/** The web canvas's way: REST with the person's session, and the server-sent change feed. */
export function restTransport(
  address: CanvasAddress,
  EventSourceClass: typeof EventSource = EventSource,
  review?: ReviewFeedListener,
  /** This page's id among the person's tabs (its review room ends with this tab's leaving). */
  tab: string = newKey(),
): CanvasTransport {
  // This page's reports in order: the server ignores one that arrives after a later one, or after the page left.
  let seq = 0;
  return {
    async whoAmI() {
      const me = await api.me();
      const project = me.projects.find((entry) => entry.project_id === address.projectId);
      const canvas = project?.canvases.find((entry) => entry.canvas_id === address.canvasId);
      return {
        role: project?.role ?? 'viewer',
        person: me.person,
        names: {
          person: me.display_name ?? me.person?.subject ?? null,
          project: project?.title ?? address.projectId,
          canvas: canvas?.title ?? address.canvasId,
        },
      };
    },
    snapshot: () => api.snapshot(address),
    changes: (baseRevision, operations, clientSaveId) => api.changes(address, baseRevision, operations, clientSaveId),
    history: () => api.history(address),
    revert: (baseRevision, toRevision) => api.revert(address, baseRevision, toRevision),
    estimate: (nodeId) => api.estimate(address, nodeId),
    submitRun: (nodeId, idempotencyKey) => api.submitRun(address, nodeId, idempotencyKey),
    versions: (nodeId) => api.versions(address, nodeId),
    submitRunVariants: (nodeId, count, idempotencyKey) => api.submitRunVariants(address, nodeId, count, idempotencyKey),
    pickVersion: (nodeId, runId, baseRevision) => api.pickVersion(address, nodeId, runId, baseRevision),
    chains: {
      estimate: (nodeId) => api.estimateChain(address, nodeId),
      submit: (nodeId, idempotencyKey) => api.submitRunChain(address, nodeId, idempotencyKey),
      read: (chainId) => api.chain(address, chainId),
      cancel: (chainId) => api.cancelChain(address, chainId),
    },
    cancelRun: (runId) => api.cancelRun(address, runId),
    reportPresence: (report) =>
      report
        ? api.reportPresence(address, { ...report, tab, seq: ++seq })
        : api.leaveCanvas(address, { tab, seq: ++seq }),
    follow(after, handlers) {
      const feed = new EventSourceClass(api.feedUrl(address, after), { withCredentials: true });
      handlers.status('connecting');
      feed.onopen = () => {
        handlers.status('live');
        review?.connected();
      };
      // The browser reconnects by itself, sending Last-Event-ID: the server replays what was missed.
      feed.onerror = () => handlers.status(feed.readyState === EventSourceClass.CLOSED ? 'closed' : 'reconnecting');
      feed.addEventListener('layout', (message) =>
        handlers.layout(JSON.parse((message as MessageEvent<string>).data) as LayoutEventData),
      );
      feed.addEventListener('node_state', (message) => {
        const { node_id: nodeId, state } = JSON.parse((message as MessageEvent<string>).data) as {
          node_id: string;
          state: NodeRuntimeState | null;
        };
        handlers.nodeState(nodeId, state);
      });
      feed.addEventListener('reset', () => handlers.reset());
      feed.addEventListener('presence', (message) =>
        handlers.presence((JSON.parse((message as MessageEvent<string>).data) as PresenceEvent).entries),
      );
      feed.addEventListener('export', (message) =>
        handlers.exportState?.(JSON.parse((message as MessageEvent<string>).data) as ExportState),
      );
      feed.addEventListener('comment', (message) =>
        review?.comment(JSON.parse((message as MessageEvent<string>).data) as ThreadView),
      );
      feed.addEventListener('review', (message) =>
        review?.review(JSON.parse((message as MessageEvent<string>).data) as ReviewStateList),
      );
      feed.addEventListener('room', (message) =>
        review?.room?.(JSON.parse((message as MessageEvent<string>).data) as RoomEvent),
      );
      return () => feed.close();
    },
  };
}
