import { useReactFlow, useStore as useFlowStore } from '@xyflow/react';
import type { RefObject } from 'react';
import { CARD } from '../../../src/canvas/placement.js';
import { overviewTitle } from '../model/values.js';
import { useCanvasState } from '../ui/canvas-context.js';
import type { CardData, FlowNode } from '../cards/card-data.js';
import { edgePointer, type Box } from './out-of-view.js';

/**
 * An agent at work out of view: the card it touched last lies beyond the pane's edges, or under the mini-map, and the
 * person would not know. A pointer on the pane's edge, in the agent's colour, names the agent and the card and points
 * at it; a click brings the card to the middle of the view at the same zoom. It goes once the card is in view. Inside
 * the ReactFlow element.
 */

/** The mini-map's box in the pane's pixels, when it is drawn. */
function miniMapBox(pane: HTMLElement | null): Box | null {
  const miniMap = pane?.querySelector('.react-flow__minimap')?.getBoundingClientRect();
  const origin = pane?.getBoundingClientRect();
  if (!miniMap || !origin || miniMap.width === 0) return null;
  return { x: miniMap.left - origin.left, y: miniMap.top - origin.top, width: miniMap.width, height: miniMap.height };
}

export function AgentsOutOfView({ pane }: { pane: RefObject<HTMLElement | null> }) {
  const entries = useCanvasState((state) => state.presence);
  const [tx, ty, zoom] = useFlowStore((state) => state.transform);
  const width = useFlowStore((state) => state.width);
  const height = useFlowStore((state) => state.height);
  const nodeLookup = useFlowStore((state) => state.nodeLookup);
  const flow = useReactFlow<FlowNode>();
  if (width === 0 || height === 0) return null;
  const miniMap = miniMapBox(pane.current);
  const pointers = entries.flatMap((entry) => {
    if (entry.kind !== 'agent' || !entry.node_id) return [];
    const node = nodeLookup.get(entry.node_id);
    if (!node) return [];
    const { x, y } = node.internals.positionAbsolute;
    const nodeWidth = node.measured.width ?? node.width ?? CARD.width;
    const nodeHeight = node.measured.height ?? node.height ?? CARD.height;
    const card = { x: x * zoom + tx, y: y * zoom + ty, width: nodeWidth * zoom, height: nodeHeight * zoom };
    const at = edgePointer(card, { width, height }, miniMap);
    if (!at) return [];
    const centre = { x: x + nodeWidth / 2, y: y + nodeHeight / 2 };
    const stored = (node.data as CardData).node;
    const title = overviewTitle(stored.type, stored.data, stored.id);
    return [{ entry, title, at, centre }];
  });
  if (pointers.length === 0) return null;
  return (
    <div className="agents-out-of-view">
      {pointers.map(({ entry, title, at, centre }) => (
        <button
          key={entry.key}
          type="button"
          className="agent-out-of-view"
          // The name starts with the words the pointer shows (WCAG 2.5.3, axe's label-content-name-mismatch): a
          // person who says "demo-agent" to their speech software reaches it.
          aria-label={`${entry.name} · ${title}: show where ${entry.name} is working`}
          style={{
            left: at.x,
            top: at.y,
            // Anchored by its side nearest the edge, so it never hangs out of the pane.
            transform: `translate(${-(at.x / width) * 100}%, ${-(at.y / height) * 100}%)`,
            ['--presence-color' as string]: entry.color,
          }}
          onClick={() => void flow.setCenter(centre.x, centre.y, { zoom, duration: 250 })}
        >
          <span className="agent-out-of-view-arrow" style={{ transform: `rotate(${at.angle}deg)` }} aria-hidden="true">
            ➜
          </span>
          {entry.name} · {title}
        </button>
      ))}
    </div>
  );
}
