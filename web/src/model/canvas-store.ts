import { createStore } from 'zustand/vanilla';
import type { CanvasEdge, CanvasNode, CanvasSnapshot, NodeRuntimeState } from '../../../src/contract/index.js';
import { samePerson } from '../../../src/contract/person.js';
import { ApiError, newKey, type CanvasAddress } from './api.js';
import { restTransport, type CanvasTransport } from './transport.js';
import {
  applyLayoutEvent,
  authorLabel,
  inverseOperations,
  parentsFirst,
  type Author,
  type LayoutEventData,
} from './layout.js';
import { chainController } from './chain-controller.js';
import type { CanvasController, CanvasState, Intent, Notice, Status } from './canvas-state.js';
import { overviewTitle } from './values.js';

/**
 * The state of one open canvas and everything that changes it: the snapshot, the change feed, and the person's own
 * writes (plain TypeScript: tests drive it without a browser; React components only read it and call its actions).
 *
 * A write is an *intent* that knows how to turn the layout it meets into operations. Every write carries the revision
 * the screen shows; on `revision_conflict` the page re-reads and builds the intent again on what it finds, so the
 * person's change lands on top of the other one. When it no longer applies (its node was deleted), the person is told
 * who changed what, and anything they typed is kept in the notice.
 */

export type { FeedStatus, Role } from './transport.js';

const HIGHLIGHT_MS = 2500;
const INFO_NOTICE_MS = 8000;

/** A node as a notice names it: what its card says of itself (a note, the start of its words), not its id. */
function nodeName(node: CanvasNode): string {
  return overviewTitle(node.type, node.data, node.id);
}
const MAX_ATTEMPTS = 3;

function isMine(author: Author | null, person: CanvasState['person']): boolean {
  return author?.kind === 'person' && samePerson(author, person);
}

/** A canvas not read yet. */
export function initialCanvasState(address: CanvasAddress): CanvasState {
  return {
    address,
    status: 'loading',
    error: null,
    role: null,
    person: null,
    names: null,
    layout: { revision: 0, nodes: [], edges: [] },
    states: {},
    feed: 'connecting',
    highlights: {},
    lastAuthor: {},
    notices: [],
    undo: [],
    saving: 0,
    refusals: 0,
    presence: [],
    exports: {},
    versionCounts: {},
    chains: {},
  };
}

/** `transport`: how the canvas reaches the server; the web canvas's REST routes and change feed by default. */
export function createCanvasController(
  address: CanvasAddress,
  options: { EventSource?: typeof EventSource; transport?: CanvasTransport } = {},
): CanvasController {
  const transport = options.transport ?? restTransport(address, options.EventSource);
  const store = createStore<CanvasState>(() => initialCanvasState(address));
  let stopFeed: (() => void) | null = null;
  let noticeId = 0;
  let closed = false;

  const notify = (tone: Notice['tone'], text: string, keep?: string, nodeIds?: string[]) => {
    noticeId += 1;
    const notice: Notice = {
      id: noticeId,
      tone,
      text,
      ...(keep ? { keep } : {}),
      ...(nodeIds?.length ? { nodeIds } : {}),
    };
    store.setState((state) => ({ notices: [...state.notices.slice(-4), notice] }));
    // News goes away by itself; a warning, an error or anything holding the person's text stays until dismissed.
    if (tone === 'info' && !keep)
      setTimeout(
        () => store.setState((state) => ({ notices: state.notices.filter((kept) => kept.id !== notice.id) })),
        INFO_NOTICE_MS,
      );
  };
  const chains = transport.chains ? chainController(transport.chains, store, notify) : null;

  function applyEvent(event: LayoutEventData): void {
    const state = store.getState();
    if (event.revision <= state.layout.revision) return;
    if (event.revision !== state.layout.revision + 1) {
      // A gap: the feed missed something. Re-read, then listen again from there.
      void reload();
      return;
    }
    const layout = applyLayoutEvent(state.layout, event);
    const lastAuthor = { ...state.lastAuthor };
    const highlights = { ...state.highlights };
    const mine = isMine(event.author, state.person);
    const until = Date.now() + HIGHLIGHT_MS;
    for (const change of event.changes) {
      if (change.kind !== 'node') continue;
      lastAuthor[change.id] = event.author;
      if (!mine && change.change !== 'delete') highlights[change.id] = { label: authorLabel(event.author), until };
    }
    store.setState({ layout, lastAuthor, highlights });
    if (!mine) setTimeout(() => expireHighlights(), HIGHLIGHT_MS + 50);
    // What someone else added may be outside the view: say so, with a way to go and look.
    const added = event.changes
      .filter((change) => change.kind === 'node' && change.change === 'create' && change.node)
      .map((change) => change.node!);
    if (!mine && added.length > 0) {
      const what = added.length === 1 ? `"${nodeName(added[0]!)}"` : `${added.length} nodes`;
      notify(
        'info',
        `${authorLabel(event.author)} added ${what}.`,
        undefined,
        added.map((node) => node.id),
      );
    }
  }

  function expireHighlights(): void {
    const now = Date.now();
    const highlights = Object.fromEntries(
      Object.entries(store.getState().highlights).filter(([, value]) => value.until > now),
    );
    store.setState({ highlights });
  }

  function openFeed(after: number): void {
    stopFeed?.();
    stopFeed = null;
    if (closed) return;
    stopFeed = transport.follow(after, {
      layout: applyEvent,
      nodeState: (nodeId, state) =>
        store.setState((current) => {
          const states = { ...current.states };
          if (state) states[nodeId] = state;
          else delete states[nodeId];
          return { states };
        }),
      snapshot: showSnapshot,
      reset: () => void reload(),
      presence: (entries) => {
        const me = store.getState().person;
        const mine = me ? `person:${me.issuer}|${me.subject}` : null;
        store.setState({ presence: entries.filter((entry) => entry.key !== mine) });
      },
      exportState: (state) =>
        store.setState((current) => ({ exports: { ...current.exports, [state.export_id]: state } })),
      status: (feed) => store.setState({ feed }),
    });
  }

  function showSnapshot(snapshot: CanvasSnapshot): void {
    store.setState({
      layout: {
        revision: snapshot.layout.revision,
        nodes: parentsFirst(snapshot.layout.nodes as CanvasNode[]),
        edges: snapshot.layout.edges as CanvasEdge[],
      },
      states: snapshot.node_states as Record<string, NodeRuntimeState>,
      versionCounts: versionCountsOf(snapshot),
    });
    chains?.resume(snapshot);
  }

  async function readSnapshot(): Promise<void> {
    showSnapshot(await transport.snapshot());
  }

  async function reload(): Promise<void> {
    try {
      await readSnapshot();
      openFeed(store.getState().layout.revision);
    } catch (error) {
      // Access that ended (removed from the project, signed out elsewhere) is a screen of its own, not a notice.
      const status = failureStatus(error);
      if (status === 'error') {
        notify('error', `Could not re-read the canvas: ${(error as Error).message}`);
        return;
      }
      stopFeed?.();
      stopFeed = null;
      store.setState({ status, error: (error as Error).message, feed: 'closed' });
    }
  }

  /** Who changed which node after `revision` (from the history), so a change that no longer applies can say who. */
  async function learnAuthorsSince(revision: number): Promise<void> {
    try {
      const page = await transport.history();
      const lastAuthor = { ...store.getState().lastAuthor };
      for (const entry of [...page.revisions].reverse()) {
        if (entry.revision <= revision) continue;
        for (const change of entry.changes) if (change.kind === 'node') lastAuthor[change.id] = entry.author;
      }
      store.setState({ lastAuthor });
    } catch {
      // Names in a notice are a courtesy: without them it says "someone".
    }
  }

  function failureStatus(error: unknown): Status {
    if (error instanceof ApiError) {
      if (error.status === 401) return 'signed-out';
      if (error.status === 403) return 'forbidden';
      if (error.status === 404) return 'missing';
    }
    return 'error';
  }

  /**
   * The person's writes still waiting for their answer. The feed can show a change before its answer reaches the page
   * (the answer is what puts it on the undo list), so an undo waits for these first: Ctrl+Z pressed as a deleted card
   * disappears undoes that delete rather than finding nothing to undo.
   */
  const inFlight = new Set<Promise<boolean>>();

  async function submit(intent: Intent): Promise<boolean> {
    store.setState((state) => ({ saving: state.saving + 1 }));
    const applying = applyIntent(intent);
    inFlight.add(applying);
    try {
      const applied = await applying;
      if (!applied) store.setState((state) => ({ refusals: state.refusals + 1 }));
      return applied;
    } finally {
      inFlight.delete(applying);
      store.setState((state) => ({ saving: state.saving - 1 }));
    }
  }

  /** Builds the intent on the layout shown and sends it; on a conflict, re-reads and builds it again on what is there. */
  async function applyIntent(intent: Intent): Promise<boolean> {
    const key = newKey();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const before = store.getState().layout;
      const built = intent.build(before);
      if (!Array.isArray(built)) {
        notify('warning', built.notApplicable, intent.keep);
        return false;
      }
      if (built.length === 0) return true;
      try {
        const receipt = await transport.changes(before.revision, built, key, intent.label);
        intent.settled?.({ revision: receipt.revision });
        if (intent.undoable !== false) {
          const inverse = inverseOperations(before, built);
          if (inverse && inverse.length > 0)
            store.setState((state) => ({
              undo: [...state.undo.slice(-49), { label: intent.label, operations: inverse }],
            }));
        }
        // The feed brings the change itself; if it is down, re-read rather than show a stale canvas.
        setTimeout(() => {
          if (store.getState().layout.revision < receipt.revision) void reload();
        }, 1500);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'revision_conflict' && attempt < MAX_ATTEMPTS) {
          await readSnapshot();
          await learnAuthorsSince(before.revision);
          openFeed(store.getState().layout.revision);
          continue;
        }
        intent.settled?.({ error: error as Error });
        notify('error', `${intent.label}: ${(error as Error).message}`, intent.keep);
        return false;
      }
    }
    notify('error', `${intent.label}: the canvas kept changing under this change; try again.`, intent.keep);
    return false;
  }

  return {
    store,
    notify,
    async load() {
      store.setState({ status: 'loading', error: null });
      try {
        const { role, person, names } = await transport.whoAmI();
        await readSnapshot();
        store.setState({ status: 'ready', role, person, names: names ?? null });
        openFeed(store.getState().layout.revision);
      } catch (error) {
        store.setState({ status: failureStatus(error), error: (error as Error).message });
      }
    },
    submit,
    async undoLast() {
      await Promise.allSettled([...inFlight]);
      const last = store.getState().undo.at(-1);
      if (!last) {
        notify('info', 'Nothing of yours to undo.');
        return;
      }
      store.setState((state) => ({ undo: state.undo.slice(0, -1) }));
      const operations = last.operations;
      const done = await submit({
        label: `Undo ${last.label.toLowerCase()}`,
        undoable: false,
        build: (layout) => {
          const ids = new Set(layout.nodes.map((node) => node.id));
          const missing = operations.find((operation) => operation.op === 'update_node' && !ids.has(operation.node_id));
          return missing && missing.op === 'update_node'
            ? {
                notApplicable: `Cannot undo ${last.label.toLowerCase()}: "${missing.node_id}" was deleted by ${authorLabel(store.getState().lastAuthor[missing.node_id])}.`,
              }
            : operations;
        },
      });
      if (done) notify('info', `Undone: ${last.label.toLowerCase()}.`);
    },
    async revertTo(revision) {
      try {
        await transport.revert(store.getState().layout.revision, revision);
        notify('info', `Reverted to revision ${revision}.`);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'revision_conflict') {
          notify('warning', 'The canvas changed just now; look at the history again before reverting.');
          await reload();
        } else {
          notify('error', `Revert failed: ${(error as Error).message}`);
        }
      }
    },
    estimate(nodeId) {
      return transport.estimate(nodeId);
    },
    async runNode(nodeId, idempotencyKey) {
      try {
        const run = await transport.submitRun(nodeId, idempotencyKey);
        return run;
      } catch (error) {
        notify('error', `The run did not start: ${(error as Error).message}`);
        return null;
      }
    },
    runsVariants: transport.submitRunVariants !== undefined,
    async runVariants(nodeId, count, idempotencyKey) {
      if (!transport.submitRunVariants) return null;
      try {
        return (await transport.submitRunVariants(nodeId, count, idempotencyKey)).runs;
      } catch (error) {
        notify('error', `The runs did not start: ${(error as Error).message}`);
        return null;
      }
    },
    chains,
    listsVersions: transport.versions !== undefined,
    async versions(nodeId) {
      return transport.versions ? transport.versions(nodeId) : null;
    },
    async pickVersion(nodeId, runId) {
      if (!transport.pickVersion) return false;
      try {
        await transport.pickVersion(nodeId, runId, store.getState().layout.revision);
        return true;
      } catch (error) {
        notify('error', `That version was not picked: ${(error as Error).message}`);
        return false;
      }
    },
    async cancelRun(runId) {
      try {
        await transport.cancelRun(runId);
      } catch (error) {
        notify('error', `Cancel failed: ${(error as Error).message}`);
      }
    },
    reportPresence(report) {
      transport.reportPresence?.(report).catch(() => undefined);
    },
    dismiss(id) {
      store.setState((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
    },
    close() {
      closed = true;
      stopFeed?.();
      store.setState({ feed: 'closed' });
    },
  };
}

/** Per node, how many result versions the snapshot says it has (`result_versions`, beside node_states). */
export function versionCountsOf(snapshot: CanvasSnapshot): Record<string, number> {
  const versions = (snapshot as { result_versions?: Record<string, { count: number }> }).result_versions ?? {};
  return Object.fromEntries(Object.entries(versions).map(([nodeId, entry]) => [nodeId, entry.count]));
}
