import type { App } from '@modelcontextprotocol/ext-apps';
import { getViewportForBounds, type ReactFlowInstance } from '@xyflow/react';
import { FocusInput, VIEW_LIST_MAX, ViewSelection, ViewState } from '../../../src/contract/canvas-page-tools.js';
import type { CanvasNode } from '../../../src/contract/index.js';
import type { FlowNode } from '../cards/card-data.js';
import { MIN_ZOOM } from '../canvas/fit.js';
import type { CanvasController } from '../model/canvas-state.js';
import { drawnBoxes, measuredSizes, type Box } from '../model/placement.js';
import { boardOf } from '../model/shots.js';
import { useShotSelection } from '../model/shot-selection.js';
import { overviewTitle, text } from '../model/values.js';

/**
 * Tools the MCP App's view offers its host's model (ext-apps `App.registerTool`; docs/contract.md, "Tools from the
 * canvas view"): what the person selected (cards and shots), what is on screen, and bringing a card or a shot into
 * view. They answer from the view's own state, so the model can know what the person sees even where its host drops
 * the context updates the view sends. A host that never calls them loses nothing.
 */

/** What the tools read and move: the view on screen, once there is one. */
export interface CanvasView {
  controller: CanvasController;
  flow: ReactFlowInstance<FlowNode>;
  /** The pane's size on screen, in pixels. */
  pane(): { width: number; height: number };
  /** Makes these cards the selected ones. */
  selectNodes(ids: string[]): void;
}

const current: { view: CanvasView | null } = { view: null };

/** The view the tools answer from (AppCanvas sets it while a canvas is drawn, and clears it when it goes). */
export function setCanvasView(view: CanvasView | null): void {
  current.view = view;
}

/** A shot's number as its board shows it: its own, else its place (1, 2, 3). */
function shotNumber(shot: Record<string, unknown>, index: number): string {
  return text(shot.number) ?? String(index + 1);
}

export function selectionOf(view: CanvasView): ViewSelection {
  const { nodes } = view.controller.store.getState().layout;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const selected = view.flow
    .getNodes()
    .filter((node) => node.selected && byId.has(node.id))
    .map((node) => byId.get(node.id)!);
  const shots = useShotSelection.getState().shots.flatMap(({ boardId, shotId }) => {
    const board = byId.get(boardId);
    if (board?.type !== 'storyboardNode') return [];
    const { shots: boardShots } = boardOf(board);
    const index = boardShots.findIndex((shot) => shot.id === shotId);
    if (index < 0) return [];
    const shot = boardShots[index]!;
    return [
      {
        node_id: boardId,
        shot_id: shotId,
        number: shotNumber(shot, index),
        caption: text(shot.caption) ?? text(shot.action) ?? null,
      },
    ];
  });
  return {
    nodes: selected.slice(0, VIEW_LIST_MAX).map((node) => ({
      node_id: node.id,
      type: node.type,
      title: overviewTitle(node.type, node.data as Record<string, unknown>, node.id),
    })),
    shots: shots.slice(0, VIEW_LIST_MAX),
  };
}

function overlap(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/** Where each card is drawn, in canvas coordinates (measured where React Flow has measured it). */
function boxesOf(view: CanvasView, nodes: CanvasNode[]): Map<string, Box> {
  const boxes = drawnBoxes(nodes, measuredSizes(view.flow.getNodes()));
  return new Map(nodes.map((node, index) => [node.id, boxes[index]!]));
}

/** A storyboard filling at least this share of the view is "the board on screen". */
const BOARD_SHARE = 0.25;

export function viewOf(view: CanvasView): ViewState {
  const { layout, address } = view.controller.store.getState();
  const { x, y, zoom } = view.flow.getViewport();
  const pane = view.pane();
  const region = { x: -x / zoom, y: -y / zoom, width: pane.width / zoom, height: pane.height / zoom };
  const boxes = boxesOf(view, layout.nodes);
  const centre = { x: region.x + region.width / 2, y: region.y + region.height / 2 };
  const distance = (box: Box) => Math.hypot(box.x + box.width / 2 - centre.x, box.y + box.height / 2 - centre.y);
  const visible = layout.nodes
    .filter((node) => node.hidden !== true && overlap(boxes.get(node.id)!, region) > 0)
    .sort((a, b) => distance(boxes.get(a.id)!) - distance(boxes.get(b.id)!));
  const area = region.width * region.height;
  const board = visible
    .filter((node) => node.type === 'storyboardNode')
    .map((node) => ({ node, share: overlap(boxes.get(node.id)!, region) / area }))
    .sort((a, b) => b.share - a.share)[0];
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    project_id: address.projectId,
    canvas_id: address.canvasId,
    revision: layout.revision,
    zoom: round(zoom),
    region: { x: round(region.x), y: round(region.y), width: round(region.width), height: round(region.height) },
    board:
      board && board.share >= BOARD_SHARE
        ? {
            node_id: board.node.id,
            title: overviewTitle(board.node.type, board.node.data as Record<string, unknown>, board.node.id),
          }
        : null,
    visible_node_ids: visible.slice(0, VIEW_LIST_MAX).map((node) => node.id),
    visible_count: visible.length,
  };
}

/** The margin left around what focus brings into view, as a fraction of the pane. */
const FOCUS_PADDING = 0.15;
/** A card is brought no closer than its natural size; a shot may be shown larger, to read it. */
const CARD_ZOOM = 1;
const SHOT_ZOOM = 2;

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** The shot's frame on the board's card as drawn, in canvas coordinates, once the card is on screen. */
async function frameBox(view: CanvasView, boardId: string, shotId: string): Promise<Box | null> {
  for (let frame = 0; frame < 10; frame += 1) {
    await nextFrame();
    const element = document.querySelector(
      `.react-flow__node[data-id="${CSS.escape(boardId)}"] [data-shot-id="${CSS.escape(shotId)}"]`,
    );
    const rect = element?.getBoundingClientRect();
    if (rect && rect.width > 0) {
      const start = view.flow.screenToFlowPosition({ x: rect.left, y: rect.top });
      const end = view.flow.screenToFlowPosition({ x: rect.right, y: rect.bottom });
      return { x: start.x, y: start.y, width: end.x - start.x, height: end.y - start.y };
    }
  }
  return null;
}

/** Brings the card (and the shot on it) into view and selects it; why not, naming the field, when it cannot. */
export async function focus(view: CanvasView, input: FocusInput): Promise<ViewState | { refusal: string }> {
  const { layout } = view.controller.store.getState();
  const node = layout.nodes.find((each) => each.id === input.node_id);
  if (!node) return { refusal: `node_id: there is no node "${input.node_id}" on this canvas.` };
  if (input.shot_id !== undefined) {
    if (node.type !== 'storyboardNode')
      return { refusal: `shot_id: "${input.node_id}" is a ${node.type}, not a storyboard: it has no shots.` };
    if (!boardOf(node).shots.some((shot) => shot.id === input.shot_id))
      return { refusal: `shot_id: the storyboard "${input.node_id}" has no shot "${input.shot_id}".` };
  }
  const pane = view.pane();
  const fit = (box: Box, maxZoom: number) =>
    view.flow.setViewport(getViewportForBounds(box, pane.width, pane.height, MIN_ZOOM, maxZoom, FOCUS_PADDING));
  await fit(boxesOf(view, layout.nodes).get(node.id)!, CARD_ZOOM);
  view.selectNodes([node.id]);
  if (input.shot_id === undefined) useShotSelection.getState().clear();
  else {
    useShotSelection.getState().select({ boardId: node.id, shotId: input.shot_id }, false);
    // The frame, with its neighbours around it, where a small frame on a large board would be hard to read.
    const frame = await frameBox(view, node.id, input.shot_id);
    if (frame && frame.width * view.flow.getZoom() < pane.width / 4)
      await fit(
        { x: frame.x - frame.width, y: frame.y - frame.height, width: frame.width * 3, height: frame.height * 3 },
        SHOT_ZOOM,
      );
  }
  await nextFrame();
  return viewOf(view);
}

const NO_VIEW = 'No canvas is shown in this view yet: call get_canvas first.';

function answer<T>(structuredContent: T, text: string) {
  return { content: [{ type: 'text' as const, text }], structuredContent };
}

function refusal(message: string) {
  return { content: [{ type: 'text' as const, text: message }], isError: true as const };
}

/** Declares the view's tools on the App: before it connects, so the host lists them from the start. */
export function registerViewTools(app: App): void {
  app.registerTool(
    'get_selection',
    {
      title: 'What the person selected',
      description:
        'The cards (nodes) and shots the person has selected in the canvas view, with their ids and titles: what "this" or "these" refers to.',
      outputSchema: ViewSelection,
      annotations: { readOnlyHint: true },
    },
    () => {
      const view = current.view;
      if (!view) return refusal(NO_VIEW);
      const selection = selectionOf(view);
      const said = [
        ...selection.nodes.map((node) => `${node.type} "${node.title}" (${node.node_id})`),
        ...selection.shots.map((shot) => `shot ${shot.number} (${shot.shot_id}) of ${shot.node_id}`),
      ];
      return answer(selection, said.length > 0 ? `Selected: ${said.join('; ')}.` : 'Nothing is selected.');
    },
  );
  app.registerTool(
    'get_view',
    {
      title: 'What is on screen',
      description:
        'What the canvas view shows: the region in canvas coordinates, the zoom, the storyboard filling it (if one does) and the visible node ids.',
      outputSchema: ViewState,
      annotations: { readOnlyHint: true },
    },
    () => {
      const view = current.view;
      if (!view) return refusal(NO_VIEW);
      const state = viewOf(view);
      return answer(
        state,
        `${state.visible_count} nodes on screen at zoom ${state.zoom}${state.board ? `, on the board "${state.board.title}" (${state.board.node_id})` : ''}.`,
      );
    },
  );
  app.registerTool(
    'focus',
    {
      title: 'Show a card or a shot',
      description:
        "Brings a node (or a shot of a storyboard node) into the person's view and selects it. Changes nothing on the canvas.",
      inputSchema: FocusInput,
      outputSchema: ViewState,
    },
    async (input) => {
      const view = current.view;
      if (!view) return refusal(NO_VIEW);
      const shown = await focus(view, input);
      if ('refusal' in shown) return refusal(shown.refusal);
      return answer(shown, `Showing ${input.shot_id ? `shot ${input.shot_id} of ` : ''}${input.node_id}.`);
    },
  );
}
