import {
  applyNodeChanges,
  Background,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStoreApi,
  type Edge,
} from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { NODE_CARDS } from '../cards/index.js';
import { fitCanvas, MAX_ZOOM, MIN_ZOOM } from '../canvas/fit.js';
import { CanvasContext, useCanvasState } from '../ui/canvas-context.js';
import type { FlowNode } from '../cards/card-data.js';
import { toFlowEdges, toFlowNodes } from '../canvas/flow-nodes.js';
import type { CanvasController } from '../model/canvas-state.js';
import { CanvasView } from '../canvas/CanvasView.js';
import { Notices } from '../panels/Notices.js';
import { WhoIsHere } from '../canvas/PresenceLayer.js';
import { useShotSelection } from '../model/shot-selection.js';
import { setCanvasView } from './view-tools.js';

/**
 * The canvas a get_canvas result holds, drawn with the web canvas's cards: read-only, or, when the connection's grant
 * allows and the host relays tool calls (`editing`), the web canvas's own editing view (moves, text, delete, runs).
 */

const ACTIVE = new Set(['queued', 'running', 'cancel_requested']);

function Flow() {
  const layout = useCanvasState((state) => state.layout);
  const states = useCanvasState((state) => state.states);
  const flow = useReactFlow<FlowNode>();
  const [nodes, setNodes] = useState<FlowNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const fitted = useRef(-1);
  useEffect(
    () => setNodes((previous) => toFlowNodes(layout.nodes, states, {}, false, previous)),
    [layout.nodes, states],
  );
  useEffect(() => setEdges((previous) => toFlowEdges(layout.edges, previous, false)), [layout.edges]);
  useEffect(() => {
    if (fitted.current === layout.revision || layout.nodes.length === 0) return;
    fitted.current = layout.revision;
    requestAnimationFrame(() => {
      fitCanvas(flow, layout.nodes);
      if (flow.getZoom() > 1) void flow.zoomTo(1);
    });
  }, [layout, flow]);
  return (
    <ReactFlow<FlowNode>
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_CARDS}
      // Read-only, but the person may select cards (and shots): what the host's model asks about (get_selection).
      onNodesChange={(changes) =>
        setNodes((current) =>
          applyNodeChanges(
            changes.filter((change) => change.type === 'select'),
            current,
          ),
        )
      }
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable
      deleteKeyCode={null}
      onlyRenderVisibleElements
      minZoom={MIN_ZOOM}
      maxZoom={MAX_ZOOM}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={24} />
    </ReactFlow>
  );
}

/**
 * The view the host's model asks about through the view's tools (view-tools.ts): this canvas as drawn, and the shots
 * the person selects on boards (a click on a frame; Ctrl, Cmd or Shift adds; a click elsewhere on the canvas clears).
 */
function ViewToolsSource({ controller }: { controller: CanvasController }) {
  const flow = useReactFlow<FlowNode>();
  const flowStore = useStoreApi<FlowNode>();
  useEffect(() => {
    const selection = useShotSelection.getState();
    useShotSelection.setState({ tracking: true });
    setCanvasView({
      controller,
      flow,
      pane: () => {
        const rect = document.querySelector('.app-canvas .react-flow')?.getBoundingClientRect();
        return rect
          ? { width: rect.width, height: rect.height }
          : { width: window.innerWidth, height: window.innerHeight };
      },
      selectNodes: (ids) => flowStore.getState().addSelectedNodes(ids),
    });
    const frameOf = (target: EventTarget | null) =>
      target instanceof Element ? target.closest<HTMLElement>('[data-shot-id][data-board-id]') : null;
    const onPointerDown = (event: PointerEvent) => {
      const additive = event.ctrlKey || event.metaKey || event.shiftKey;
      const frame = frameOf(event.target);
      if (frame) selection.select({ boardId: frame.dataset.boardId!, shotId: frame.dataset.shotId! }, additive);
      else if (!additive && event.target instanceof Element && event.target.closest('.react-flow')) selection.clear();
    };
    // A frame reached with the keyboard is selected too (a click's focus is not: the click has said what it selects).
    const onFocusIn = (event: FocusEvent) => {
      const frame = frameOf(event.target);
      if (frame?.matches(':focus-visible'))
        selection.select({ boardId: frame.dataset.boardId!, shotId: frame.dataset.shotId! }, false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      setCanvasView(null);
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [controller, flow, flowStore]);
  return null;
}

function Summary({ onOpen, editing }: { onOpen: (() => void) | null; editing: boolean }) {
  const saving = useCanvasState((state) => state.saving);
  const role = useCanvasState((state) => state.role);
  const problem = useCanvasState((state) =>
    state.status === 'ready' || state.status === 'loading' ? null : state.error,
  );
  const address = useCanvasState((state) => state.address);
  const revision = useCanvasState((state) => state.layout.revision);
  const nodeCount = useCanvasState((state) => state.layout.nodes.length);
  const states = useCanvasState((state) => state.states);
  const runs = Object.values(states);
  const active = runs.filter((state) => ACTIVE.has(state.lastRunStatus)).length;
  const failed = runs.filter((state) => state.lastRunStatus === 'failed').length;
  return (
    <header className="topbar app-topbar">
      <h1>
        {address.projectId} <span className="muted">/</span> {address.canvasId}
      </h1>
      <span className="chip">revision {revision}</span>
      <span className="chip">{nodeCount} nodes</span>
      {active ? <span className="chip run-running">{active} running</span> : null}
      {failed ? <span className="chip run-failed">{failed} failed</span> : null}
      {editing && saving > 0 ? <span className="muted">Saving…</span> : null}
      {editing && problem ? (
        <span className="chip chip-warning" role="alert">
          The canvas could not be read: {problem}
        </span>
      ) : null}
      <span className="spacer" />
      {editing ? <WhoIsHere /> : null}
      {editing && role === 'viewer' ? <span className="chip chip-warning">View only</span> : null}
      {onOpen ? (
        <button type="button" className="button-small button-primary" onClick={onOpen}>
          Open the full canvas
        </button>
      ) : null}
    </header>
  );
}

/**
 * `mediaOrigin` is the canvas-mcp server's origin (that of the full canvas's URL): cards draw media from it alone,
 * and from nowhere when it is unknown (docs/security.md, "The web canvas and the MCP App").
 */
export function AppCanvas({
  controller,
  onOpen,
  mediaOrigin,
  editing,
}: {
  controller: CanvasController;
  onOpen: (() => void) | null;
  mediaOrigin: string | null;
  editing: boolean;
}) {
  const context = useMemo(
    () => ({ controller, skills: null, viewOnly: !editing, mediaOrigin, takesFiles: false }),
    [controller, mediaOrigin, editing],
  );
  return (
    <CanvasContext.Provider value={context}>
      <ReactFlowProvider>
        <div className="app-screen">
          <Summary onOpen={onOpen} editing={editing} />
          <main className="canvas app-canvas">
            {editing ? <CanvasView onSelect={() => undefined} /> : <Flow />}
            <ViewToolsSource controller={controller} />
            {editing ? <Notices /> : null}
          </main>
        </div>
      </ReactFlowProvider>
    </CanvasContext.Provider>
  );
}
