import type { Node } from '@xyflow/react';
import type { CanvasNode, NodeRuntimeState } from '../../../src/contract/index.js';

/**
 * What a card is given: the node as stored, its run state and who just changed it. Declared with the cards, under the
 * canvas that builds these nodes from the layout (canvas/flow-nodes.ts), so the cards never import the canvas.
 */
export interface CardData extends Record<string, unknown> {
  node: CanvasNode;
  state: NodeRuntimeState | undefined;
  highlight: string | undefined;
}

export type FlowNode = Node<CardData>;
