import { Background, ReactFlow, ReactFlowProvider, useReactFlow, type Edge } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { NODE_CARDS } from '../cards/index.js';
import { fitCanvas } from '../canvas/fit.js';
import { CanvasContext, useCanvasState } from '../canvas/context.js';
import { toFlowEdges, toFlowNodes, type FlowNode } from '../canvas/flow-nodes.js';
import type { ReadOnlyController } from '../model/read-only.js';

/** The canvas a get_canvas result holds, drawn with the web canvas's cards, read-only. */

const ACTIVE = new Set(['queued', 'running', 'cancel_requested']);

function Flow() {
  const layout = useCanvasState((state) => state.layout);
  const states = useCanvasState((state) => state.states);
  const flow = useReactFlow<FlowNode>();
  const [nodes, setNodes] = useState<FlowNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const fitted = useRef(-1);
  useEffect(() => setNodes((previous) => toFlowNodes(layout.nodes, states, {}, false, previous)), [layout.nodes, states]);
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
      onNodesChange={() => undefined}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable={false}
      deleteKeyCode={null}
      onlyRenderVisibleElements
      minZoom={0.05}
      maxZoom={2}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={24} />
    </ReactFlow>
  );
}

function Summary({ onOpen }: { onOpen: (() => void) | null }) {
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
      <span className="spacer" />
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
 * and from nowhere when it is unknown (issue 17, defect 5).
 */
export function AppCanvas({ controller, onOpen, mediaOrigin }: { controller: ReadOnlyController; onOpen: (() => void) | null; mediaOrigin: string | null }) {
  const context = useMemo(() => ({ controller, skills: null, viewOnly: true, mediaOrigin }), [controller, mediaOrigin]);
  return (
    <CanvasContext.Provider value={context}>
      <ReactFlowProvider>
        <div className="app-screen">
          <Summary onOpen={onOpen} />
          <main className="canvas app-canvas">
            <Flow />
          </main>
        </div>
      </ReactFlowProvider>
    </CanvasContext.Provider>
  );
}
