import type { StoreApi } from 'zustand/vanilla';
import type {
  ChainEstimate,
  LayoutOperation,
  NodeRun,
  NodeRuntimeState,
  PresenceEntry,
  PresenceUpdateBody,
  ResultVersionList,
  RunChain,
  RunEstimate,
} from '../../../src/contract/index.js';
import type { CanvasAddress } from './api.js';
import type { Author, Layout } from './layout.js';
import type { ExportState, FeedStatus, Role } from './transport.js';

/**
 * What an open canvas holds and what its controller offers, apart from the controller that implements them
 * (canvas-store.ts), so the parts it is built from (the chain controller) and the intents can name them without
 * importing the controller back.
 */

export type Status = 'loading' | 'ready' | 'signed-out' | 'forbidden' | 'missing' | 'error';

export interface Notice {
  id: number;
  tone: 'info' | 'warning' | 'error';
  text: string;
  /** Something the person should not lose: the text they typed into a change that could not be applied. */
  keep?: string;
  /** Nodes the notice is about, which the person can bring into view. */
  nodeIds?: string[];
}

export interface Intent {
  label: string;
  /** What the person typed into this change: kept in the notice if the change cannot be applied. */
  keep?: string;
  /** The operations for this layout, or why the intent no longer applies to it. */
  build(layout: Layout): LayoutOperation[] | { notApplicable: string };
  /** Whether undo may take it back (undo's own writes are not undone again). */
  undoable?: boolean;
  /** Told how the write ended: the revision it made, or why it was refused (a browser agent's tool answers with it). */
  settled?(outcome: { revision: number } | { error: Error }): void;
}

export interface CanvasState {
  address: CanvasAddress;
  status: Status;
  error: string | null;
  role: Role | null;
  person: { issuer: string; subject: string } | null;
  /** What the page calls the person, the project and the canvas; null until known (then ids are shown). */
  names: { person: string | null; project: string; canvas: string } | null;
  layout: Layout;
  states: Record<string, NodeRuntimeState>;
  feed: FeedStatus;
  /** Nodes someone else just changed: the label names who, until the time given. */
  highlights: Record<string, { label: string; until: number }>;
  /** Who last changed each node, for the notices that explain a conflict. */
  lastAuthor: Record<string, Author | null>;
  notices: Notice[];
  undo: Array<{ label: string; operations: LayoutOperation[] }>;
  saving: number;
  /** Bumped when a change of the person's was not applied: the view puts what it moved or resized back. */
  refusals: number;
  /** Who else is on the canvas now (people and agents; the person themselves left out). */
  presence: PresenceEntry[];
  /** How many result versions each node had at the last full read: whether its card offers them. */
  versionCounts: Record<string, number>;
  /** Chains this page started ("Run from here"), by the node they start from: followed until the person closes them. */
  chains: Record<string, RunChain>;
  /** Export jobs of the canvas as the feed last told them, by id. */
  exports: Record<string, ExportState>;
}

export interface CanvasController {
  store: StoreApi<CanvasState>;
  load(): Promise<void>;
  submit(intent: Intent): Promise<boolean>;
  undoLast(): Promise<void>;
  revertTo(revision: number): Promise<void>;
  /** What a run of the node would cost, and the project's budget. */
  estimate(nodeId: string): Promise<RunEstimate>;
  /** Starts a run with the key of one click: a retry or double click never starts a second one. */
  runNode(nodeId: string, idempotencyKey: string): Promise<NodeRun | null>;
  cancelRun(runId: string): Promise<void>;
  /** Whether "Run ×N" is offered: the canvas's transport can start variants in one request. */
  readonly runsVariants: boolean;
  /** Starts N variants with the key of one click; null when refused (said in a notice). */
  runVariants(nodeId: string, count: number, idempotencyKey: string): Promise<NodeRun[] | null>;
  /** "Run from here" (docs/runs.md, "Downstream chains"): null when this canvas's transport cannot run chains. */
  readonly chains: {
    estimate(nodeId: string): Promise<ChainEstimate>;
    /** Starts the chain with the key of one click (kept in `chains` under its node); null when refused (said in a notice). */
    start(nodeId: string, idempotencyKey: string): Promise<RunChain | null>;
    read(chainId: string): Promise<RunChain>;
    /** Records what is known of a chain this page follows. */
    track(chain: RunChain): void;
    /** Stops showing a chain (the person closed it). */
    forget(rootNodeId: string): void;
    cancel(chainId: string): Promise<RunChain | null>;
  } | null;
  /** Whether this canvas's transport lists result versions (the read-only view of an MCP App does not). */
  readonly listsVersions: boolean;
  /** A node's result versions, or null when this canvas's transport has none. */
  versions(nodeId: string): Promise<ResultVersionList | null>;
  /** Makes a version current (a layout write at the shown revision); false when refused (said in a notice). */
  pickVersion(nodeId: string, runId: string): Promise<boolean>;
  dismiss(noticeId: number): void;
  /** Where the person is (the view throttles it); null: they left the canvas. */
  reportPresence(report: PresenceUpdateBody | null): void;
  notify(tone: Notice['tone'], text: string, keep?: string, nodeIds?: string[]): void;
  close(): void;
}
