import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  applyEdgeChanges,
  applyNodeChanges,
  useReactFlow,
  useStore,
  type Connection,
  type Edge,
  type EdgeChange,
  type NodeChange,
  type OnSelectionChangeParams,
} from '@xyflow/react';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { NODE_CARDS } from '../cards/index.js';
import { newKey } from '../model/api.js';
import { connect, createItems, deleteItems, moveNodes, updateNode } from '../model/intents.js';
import { drawnBoxes, measuredSizes, placeBlock } from '../model/placement.js';
import { SHOT_DRAG } from '../model/shots.js';
import { cardOntoShot, shotUnderPointer } from './card-onto-shot.js';
import { copySelection, pasteClipboard } from './clipboard.js';
import { filesOf, useUploads } from './FileUploads.js';
import { useCanvas, useCanvasState, useEditable } from '../ui/canvas-context.js';
import { fitCanvas, MAX_ZOOM, MIN_ZOOM } from './fit.js';
import type { FlowNode } from '../cards/card-data.js';
import { toFlowEdges, toFlowNodes } from './flow-nodes.js';
import { PresenceLayer } from './PresenceLayer.js';
import { isKeyForField } from '../ui/fields.js';
import { AgentsOutOfView } from './AgentsOutOfView.js';

/**
 * The canvas itself: React Flow drawing the layout as it is now, and turning the person's gestures into writes. One
 * write per gesture: a drag of several nodes is one batch, one revision.
 */

/** How long arrow keys rest before a keyboard move is saved. */
const KEYBOARD_MOVE_REST_MS = 400;

/** `onOpen`: Enter on a focused card asks for its details (the keyboard's double-click). */
export function CanvasView({
  onSelect,
  onOpen,
}: {
  onSelect: (nodeId: string | null) => void;
  onOpen?: (nodeId: string) => void;
}) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const layout = useCanvasState((state) => state.layout);
  const states = useCanvasState((state) => state.states);
  const highlights = useCanvasState((state) => state.highlights);
  const flow = useReactFlow<FlowNode>();
  const [nodes, setNodes] = useState<FlowNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const authors = useCallback(() => controller.store.getState().lastAuthor, [controller]);
  const fitted = useRef(false);
  const pane = useRef<HTMLDivElement>(null);
  const uploads = useUploads();

  const refusals = useCanvasState((state) => state.refusals);
  useEffect(
    () => setNodes((previous) => toFlowNodes(layout.nodes, states, highlights, editable, previous)),
    [layout.nodes, states, highlights, editable, refusals],
  );
  useEffect(() => setEdges((previous) => toFlowEdges(layout.edges, previous, editable)), [layout.edges, editable]);
  useEffect(() => {
    if (!fitted.current && layout.nodes.length > 0) {
      fitted.current = true;
      const nodesNow = layout.nodes;
      requestAnimationFrame(() => {
        fitCanvas(flow, nodesNow);
        // A small canvas is shown at its natural size rather than blown up.
        if (flow.getZoom() > 1) void flow.zoomTo(1);
      });
    }
  }, [layout.nodes, flow]);

  // Removals come from the server (the feed), not from React Flow's own state: a refused delete must not vanish.
  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => {
    setNodes((current) =>
      applyNodeChanges(
        changes.filter((change) => change.type !== 'remove'),
        current,
      ),
    );
  }, []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    setEdges((current) =>
      applyEdgeChanges(
        changes.filter((change) => change.type !== 'remove'),
        current,
      ),
    );
  }, []);

  const onNodeDragStop = useCallback(
    (event: MouseEvent | TouchEvent, dragged: FlowNode, all: FlowNode[]) => {
      const moved = all.length > 0 ? all : [dragged];
      // One card let go over a board's frame gives that shot its picture, and goes back where it was.
      const shot = moved.length === 1 ? shotUnderPointer(event, dragged.id) : null;
      if (shot && cardOntoShot(controller, dragged.id, shot)) {
        const stored = controller.store.getState().layout.nodes.find((node) => node.id === dragged.id);
        if (stored)
          setNodes((current) =>
            current.map((node) => (node.id === dragged.id ? { ...node, position: stored.position } : node)),
          );
        return;
      }
      // One node dropped into a group becomes its child (a frame holds its cards).
      if (moved.length === 1 && dragged.type !== 'groupNode') {
        const group = flow
          .getIntersectingNodes(dragged)
          .find(
            (candidate) =>
              candidate.type === 'groupNode' && candidate.id !== dragged.id && candidate.id !== dragged.parentId,
          );
        if (group && !dragged.parentId) {
          const inside = flow.getInternalNode(group.id)!.internals.positionAbsolute;
          const absolute = flow.getInternalNode(dragged.id)!.internals.positionAbsolute;
          void controller.submit(
            updateNode(
              dragged.id,
              {
                parentId: group.id,
                extent: 'parent',
                position: { x: absolute.x - inside.x, y: absolute.y - inside.y },
              },
              'Put into group',
              authors,
            ),
          );
          return;
        }
      }
      void controller.submit(
        moveNodes(
          moved.map((node) => ({
            id: node.id,
            position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
          })),
          authors,
        ),
      );
    },
    [controller, flow, authors],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const edge = {
        id: `e-${connection.source}-${connection.target}-${newKey().slice(0, 4)}`,
        source: connection.source,
        target: connection.target,
        ...(connection.sourceHandle ? { sourceHandle: connection.sourceHandle } : {}),
        ...(connection.targetHandle ? { targetHandle: connection.targetHandle } : {}),
      };
      void controller.submit(connect(edge, authors));
    },
    [controller, authors],
  );

  const onDelete = useCallback(
    ({ nodes: deletedNodes, edges: deletedEdges }: { nodes: FlowNode[]; edges: Edge[] }) => {
      if (deletedNodes.length + deletedEdges.length === 0) return;
      void controller.submit(
        deleteItems(
          deletedNodes.map((node) => node.id),
          deletedEdges.map((edge) => edge.id),
          controller.store.getState().layout,
        ),
      );
    },
    [controller],
  );

  const onSelectionChange = useCallback(
    ({ nodes: selected }: OnSelectionChangeParams) => onSelect(selected[0]?.id ?? null),
    [onSelect],
  );

  // Deleting asks first: the Delete key is easy to press by accident, on a keyboard especially.
  const [pendingDelete, setPendingDelete] = useState<{
    nodes: number;
    edges: number;
    answer: (yes: boolean) => void;
  } | null>(null);
  const onBeforeDelete = useCallback(
    ({ nodes: doomedNodes, edges: doomedEdges }: { nodes: FlowNode[]; edges: Edge[] }) =>
      new Promise<boolean>((resolve) => {
        if (doomedNodes.length + doomedEdges.length === 0) return resolve(false);
        setPendingDelete({ nodes: doomedNodes.length, edges: doomedEdges.length, answer: resolve });
      }),
    [],
  );
  const answerDelete = useCallback(
    (yes: boolean) => {
      pendingDelete?.answer(yes);
      setPendingDelete(null);
    },
    [pendingDelete],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isKeyForField(event.target)) return;
      const command = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (command && key === 'z') {
        event.preventDefault();
        if (editable) void controller.undoLast();
      } else if (command && key === 'a') {
        event.preventDefault();
        setNodes((current) => current.map((node) => ({ ...node, selected: true })));
      } else if (command && key === 'c') {
        const selected = new Set(
          flow
            .getNodes()
            .filter((node) => node.selected)
            .map((node) => node.id),
        );
        if (selected.size > 0) copySelection(controller.store.getState().layout, selected);
      } else if (command && key === 'v' && editable) {
        // Cards copied on this page are pasted once the browser's paste event has passed: when it carries files (a
        // picture copied elsewhere), they are what the person pastes, and the cards are not.
        clearTimeout(pendingCardPaste);
        pendingCardPaste = setTimeout(() => {
          const layout = controller.store.getState().layout;
          const pasted = pasteClipboard(layout);
          if (pasted) {
            // The copies land together on the nearest spot that covers no card.
            const placed = placeBlock(pasted.nodes, drawnBoxes(layout.nodes, measuredSizes(flow.getNodes())));
            void controller.submit(createItems(placed, pasted.edges, `Paste ${pasted.nodes.length} nodes`));
          }
        }, 0);
      } else if (!command && key === 'f') {
        fitCanvas(flow, controller.store.getState().layout.nodes, 200);
      } else if (!command && key === 'a') {
        // To a card's actions in one key: the focused card's (or the selected one's) first action, instead of
        // tabbing through every card before it.
        const focused = (event.target as HTMLElement | null)?.closest?.('.react-flow__node');
        const card = focused ?? document.querySelector('.react-flow__node.selected');
        const id = card?.getAttribute('data-id');
        if (!card || !id) return;
        event.preventDefault();
        const action = card.querySelector<HTMLElement>('.run-actions button:not([disabled])');
        if (action) action.focus();
        // Zoomed out, a card shows only its title: bring it close enough to show its actions, then go to them.
        else
          void flow.fitView({ nodes: [{ id }], minZoom: 1, maxZoom: 1 }).then(() =>
            requestAnimationFrame(() => {
              const node = document.querySelector(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
              node?.querySelector<HTMLElement>('.run-actions button:not([disabled])')?.focus();
            }),
          );
      } else if (!command && event.key === 'Enter') {
        const nodeId = (event.target as HTMLElement | null)?.closest?.('.react-flow__node')?.getAttribute('data-id');
        if (nodeId) onOpen?.(nodeId);
      }
    };
    let pendingCardPaste: ReturnType<typeof setTimeout> | undefined;
    const onPaste = (event: ClipboardEvent) => {
      if (!editable || !uploads || isKeyForField(event.target)) return;
      const files = filesOf(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      clearTimeout(pendingCardPaste);
      uploads.upload(files);
    };
    // Arrow keys move the selected nodes (React Flow moves them on screen). Once the keys rest, the moves are saved in
    // one write: a run of presses is one revision, as a drag is.
    let pendingMove: ReturnType<typeof setTimeout> | undefined;
    const saveKeyboardMove = () => {
      const saved = new Map(controller.store.getState().layout.nodes.map((node) => [node.id, node.position]));
      const moved = flow
        .getNodes()
        .filter((node) => node.selected)
        .filter((node) => {
          const before = saved.get(node.id);
          return (
            before !== undefined &&
            (before.x !== Math.round(node.position.x) || before.y !== Math.round(node.position.y))
          );
        });
      if (moved.length > 0)
        void controller.submit(
          moveNodes(
            moved.map((node) => ({
              id: node.id,
              position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
            })),
            authors,
          ),
        );
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (!editable || isKeyForField(event.target) || !event.key.startsWith('Arrow')) return;
      clearTimeout(pendingMove);
      pendingMove = setTimeout(saveKeyboardMove, KEYBOARD_MOVE_REST_MS);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('paste', onPaste);
      clearTimeout(pendingMove);
      clearTimeout(pendingCardPaste);
    };
  }, [controller, editable, flow, authors, onOpen, uploads]);

  return (
    <>
      {pendingDelete ? <DeleteConfirm {...pendingDelete} onAnswer={answerDelete} /> : null}
      <ReactFlow<FlowNode>
        ref={pane}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_CARDS}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        onDelete={onDelete}
        onBeforeDelete={onBeforeDelete}
        onSelectionChange={onSelectionChange}
        onDragOver={(event) => {
          if (!editable || !uploads || !event.dataTransfer.types.includes('Files')) return;
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDrop={(event) => {
          if (event.dataTransfer.types.includes(SHOT_DRAG)) return;
          const files = filesOf(event.dataTransfer);
          if (!editable || !uploads || files.length === 0) return;
          event.preventDefault();
          // The cards appear where the files were let go.
          uploads.upload(files, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
        }}
        nodesDraggable={editable}
        nodesConnectable={editable}
        edgesReconnectable={false}
        deleteKeyCode={editable ? ['Delete', 'Backspace'] : null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={['Meta', 'Control']}
        onlyRenderVisibleElements
        minZoom={MIN_ZOOM}
        maxZoom={MAX_ZOOM}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
        <MiniMap pannable zoomable />
        <PresenceLayer pane={pane} />
        <AgentsOutOfView pane={pane} />
        <ZoomScale pane={pane} />
      </ReactFlow>
    </>
  );
}

/**
 * Keeps `--zoom-inverse` (1 / zoom) on the canvas for CSS: zoomed-out cards size their titles by it, so text stays
 * readable on screen without every card rendering again as the zoom changes.
 */
function ZoomScale({ pane }: { pane: RefObject<HTMLDivElement | null> }) {
  const zoom = useStore((flow) => flow.transform[2]);
  useEffect(() => {
    pane.current?.style.setProperty('--zoom-inverse', String(1 / zoom));
  }, [pane, zoom]);
  return null;
}

/** "Delete 2 nodes?" with the answer under Enter (Delete) and Escape (Cancel). */
function DeleteConfirm({ nodes, edges, onAnswer }: { nodes: number; edges: number; onAnswer: (yes: boolean) => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  const what = [
    nodes > 0 ? `${nodes} node${nodes === 1 ? '' : 's'}` : null,
    edges > 0 ? `${edges} connection${edges === 1 ? '' : 's'}` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    <div
      className="delete-confirm"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="delete-confirm-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onAnswer(false);
      }}
    >
      <p id="delete-confirm-title">
        Delete {what}? Ctrl+Z brings {nodes + edges === 1 ? 'it' : 'them'} back.
      </p>
      <div className="delete-confirm-actions">
        <button ref={confirm} type="button" className="button-danger" onClick={() => onAnswer(true)}>
          Delete
        </button>
        <button type="button" onClick={() => onAnswer(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
