import type ElkConstructor from 'elkjs/lib/elk.bundled.js';
import type { CanvasEdge, CanvasNode } from '../contract/index.js';
import { boardSize } from './free-areas.js';
import { CARD, drawnBoxes, freeSpotNear, type Box } from './placement.js';

/**
 * Tidy (docs/ui.md, "Tidy"): new places for some nodes of one parent, laid out by ELK (elkjs):
 * `flow` follows their connections left to right (ELK's layered algorithm), `grid` packs them in rows (its box
 * algorithm). The block keeps its top-left corner where the nodes' was, unless it would then cover a node left out of
 * the tidy: then it moves, whole, to the nearest free spot. Only positions change.
 */

export type TidyMode = 'flow' | 'grid';

// Loaded at the first tidy, not with the server. The bundle is CommonJS: the import's `default` is its export, whose
// own `default` is the constructor (the typings describe the export as the constructor).
let elk: Promise<InstanceType<typeof ElkConstructor.default>> | undefined;
const elkOf = () =>
  (elk ??= import('elkjs/lib/elk.bundled.js').then(
    (bundle) => new (bundle.default as unknown as { default: typeof ElkConstructor.default }).default(),
  ));
const SPACING = '40';

const sizeOf = (node: CanvasNode) =>
  boardSize(node) ?? {
    width: node.width ?? node.style?.width ?? CARD.width,
    height: node.height ?? node.style?.height ?? CARD.height,
  };

export async function tidyPositions(
  nodes: readonly CanvasNode[],
  tidied: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  mode: TidyMode,
): Promise<Map<string, { x: number; y: number }>> {
  const ids = new Set(tidied.map((node) => node.id));
  const graph = await (
    await elkOf()
  ).layout({
    id: 'tidy',
    layoutOptions:
      mode === 'flow'
        ? {
            'elk.algorithm': 'layered',
            'elk.direction': 'RIGHT',
            'elk.spacing.nodeNode': SPACING,
            'elk.layered.spacing.nodeNodeBetweenLayers': '80',
          }
        : { 'elk.algorithm': 'box', 'elk.spacing.nodeNode': SPACING, 'elk.aspectRatio': '1.6' },
    children: tidied.map((node) => ({ id: node.id, ...sizeOf(node) })),
    edges: edges
      .filter((edge) => ids.has(edge.source) && ids.has(edge.target) && edge.source !== edge.target)
      .map((edge) => ({ id: edge.id, sources: [edge.source], targets: [edge.target] })),
  });
  const left = Math.min(...tidied.map((node) => node.position.x));
  const top = Math.min(...tidied.map((node) => node.position.y));
  const laid = new Map(
    (graph.children ?? []).map((child) => [child.id, { x: left + (child.x ?? 0), y: top + (child.y ?? 0) }]),
  );
  // Against the nodes left where they are (on the canvas itself; inside a group, its other children).
  const parent = tidied[0]?.parentId;
  const others: Box[] = drawnBoxes(
    nodes.filter((node) => !ids.has(node.id) && node.parentId === parent),
    new Map(nodes.map((node) => [node.id, sizeOf(node)])),
  );
  const block = tidied.map((node) => ({ ...laid.get(node.id)!, ...sizeOf(node) }));
  const extent = {
    width: Math.max(...block.map((box) => box.x + box.width)) - left,
    height: Math.max(...block.map((box) => box.y + box.height)) - top,
  };
  const spot = freeSpotNear(others, { x: left + extent.width / 2, y: top + extent.height / 2 }, extent);
  const shift = { x: spot.x - left, y: spot.y - top };
  return new Map([...laid].map(([id, at]) => [id, { x: Math.round(at.x + shift.x), y: Math.round(at.y + shift.y) }]));
}
