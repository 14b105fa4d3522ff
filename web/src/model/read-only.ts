import { createStore } from 'zustand/vanilla';
import type { CanvasEdge, CanvasNode, CanvasSnapshot, NodeRuntimeState } from '../../../src/contract/index.js';
import type { CanvasController, CanvasState } from './canvas-state.js';
import { initialCanvasState, versionCountsOf } from './canvas-store.js';
import { parentsFirst } from './layout.js';

/**
 * A canvas shown, not edited: the same cards as the web canvas drawn from a snapshot someone else read (the MCP App
 * shows the get_canvas result its host hands it). Every edit control is disabled (a viewer's role) and every action
 * does nothing.
 */
export interface ReadOnlyController extends CanvasController {
  show(snapshot: CanvasSnapshot): void;
}

function stateOf(snapshot: CanvasSnapshot): Partial<CanvasState> {
  return {
    address: { projectId: snapshot.project_id, canvasId: snapshot.canvas_id },
    status: 'ready',
    role: 'viewer',
    feed: 'closed',
    layout: {
      revision: snapshot.layout.revision,
      nodes: parentsFirst(snapshot.layout.nodes as CanvasNode[]),
      edges: snapshot.layout.edges as CanvasEdge[],
    },
    states: snapshot.node_states as Record<string, NodeRuntimeState>,
    versionCounts: versionCountsOf(snapshot),
  };
}

export function createReadOnlyController(snapshot: CanvasSnapshot): ReadOnlyController {
  const store = createStore<CanvasState>(() => ({
    ...initialCanvasState({ projectId: snapshot.project_id, canvasId: snapshot.canvas_id }),
    ...stateOf(snapshot),
  }));
  const nothing = async () => undefined;
  return {
    store,
    show: (next) => store.setState(stateOf(next)),
    load: nothing,
    submit: async () => false,
    undoLast: nothing,
    revertTo: nothing,
    estimate: () => Promise.reject(new Error('This view is read-only.')),
    runNode: async () => null,
    cancelRun: nothing,
    runsVariants: false,
    runVariants: async () => null,
    chains: null,
    listsVersions: false,
    versions: async () => null,
    pickVersion: async () => false,
    dismiss: () => undefined,
    reportPresence: () => undefined,
    notify: () => undefined,
    close: () => undefined,
  };
}
