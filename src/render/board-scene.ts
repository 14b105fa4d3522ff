import { ShotMark, type CanvasNode } from '../contract/index.js';
import { aspectOf, frameGuides, type Guide, type GuideName } from '../shared/frame-shape.js';
import { boardSize } from '../canvas/free-areas.js';
import { CARD, drawnBoxes, type Box } from '../canvas/placement.js';
import type { BoardTarget } from '../shared/board-target.js';
import { CanvasError } from '../shared/errors.js';
import { nodeTypeLabel } from './node-labels.js';

/**
 * What a board picture shows, before it is drawn: cards in canvas coordinates where the page draws them (the page's
 * card sizes: src/canvas/placement.ts, a board's size from src/canvas/free-areas.ts), the edges between them, and the
 * view. A storyboard named alone becomes a contact sheet: its shots in a grid, each with its number and a line of its
 * words.
 */

export interface SceneCard extends Box {
  kind: 'card' | 'group' | 'shot';
  type: string;
  /** The node type's label (the placeholder says it). */
  label: string;
  name: string;
  /** A shot's number. */
  number?: string;
  /** A shot's words, on the contact sheet. */
  words?: string;
  /** The asset id of the picture to show. */
  picture?: string;
  /** A shot's notes-layer marks (agents' camera arrows, circles, words), drawn over its picture. */
  marks?: ShotMark[];
  /** Framing guides over a shot's frame, when the picture asks for them. */
  guides?: Guide[];
}

export interface Scene {
  view: Box;
  cards: SceneCard[];
  edges: Array<{ x1: number; y1: number; x2: number; y2: number }>;
  /** A line above a contact sheet (the board's name and its number of shots). */
  title?: string;
}

interface Output {
  kind: string;
  url: string;
}
export interface SceneSnapshot {
  layout: { nodes: CanvasNode[]; edges: Array<{ source: string; target: string }> };
  node_states: Record<string, { outputs?: Output[] } | undefined>;
}

type Data = Record<string, unknown>;
type Shot = Data & { id?: unknown };

const MARGIN = 40;
/** Drawn on the canvas inside a board's card (the page draws at most 24). */
const BOARD_FRAMES = 24;
/** On a contact sheet: more than this and the rest are counted, not drawn. */
const SHEET_SHOTS = 96;
const SHEET_CELL = 320;
const SHEET_GAP = 24;

const ASSET_PATH = /^\/assets\/(asset_[A-Za-z0-9_-]{16})(?:[?#]|$)/;

/** The asset id of a URL on this server (`/assets/<id>`, signed or not); none for anything else. */
export function assetIdOfUrl(url: unknown): string | undefined {
  return typeof url === 'string' ? ASSET_PATH.exec(url)?.[1] : undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** A name to show: the node's display name, title or label, else the start of its text; one line. */
export function nameOf(data: Data | undefined): string {
  const found = [data?.displayName, data?.title, data?.label, data?.name, data?.content, data?.text, data?.prompt]
    .map(text)
    .find(Boolean);
  return (found ?? '').replace(/\s+/g, ' ').trim();
}

function latestImage(states: SceneSnapshot['node_states'], nodeId: unknown): string | undefined {
  if (typeof nodeId !== 'string') return undefined;
  return assetIdOfUrl(states[nodeId]?.outputs?.find((output) => output.kind === 'image')?.url);
}

/** A shot's picture: its own, else the latest picture of the card that makes it (as the page shows it). */
/** A shot's marks, the ones that parse (node data is written by agents too). */
function marksOf(shot: Shot): ShotMark[] | undefined {
  const marks = Array.isArray(shot.marks) ? shot.marks.flatMap((mark) => ShotMark.safeParse(mark).data ?? []) : [];
  return marks.length ? marks : undefined;
}

/** A shot's own marks with the drawn notes of its open review threads over them. */
function withNotes(marks: ShotMark[] | undefined, notes: readonly ShotMark[] | undefined): ShotMark[] | undefined {
  return notes?.length ? [...(marks ?? []), ...notes] : marks;
}

function shotPicture(shot: Shot, states: SceneSnapshot['node_states']): string | undefined {
  return assetIdOfUrl(shot.imageUrl) ?? latestImage(states, shot.sourceNodeId);
}

function shotsOf(node: CanvasNode): Shot[] {
  const frames = (node.data as Data).frames;
  return Array.isArray(frames) ? (frames as Shot[]) : [];
}

/** A node's picture as its card shows it: its image fields, else its latest run's picture; a board's first shot's. */
function nodePicture(node: CanvasNode, states: SceneSnapshot['node_states']): string | undefined {
  const data = node.data as Data;
  if (node.type === 'storyboardNode')
    return shotsOf(node)
      .map((shot) => shotPicture(shot, states))
      .find(Boolean);
  const own = [data.imageUrl, data.previewImageUrl, data.committed_slot_url, data.resultImageUrl]
    .map(assetIdOfUrl)
    .find(Boolean);
  if (own) return own;
  if (node.type === 'uploadNode' && typeof data.mimeType === 'string' && data.mimeType.startsWith('image/'))
    return assetIdOfUrl(data.fileUrl);
  return latestImage(states, node.id);
}

function shotWords(shot: Shot): string {
  return (text(shot.caption) ?? text(shot.action) ?? text(shot.dialogue) ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * A storyboard's shots in a grid, each with its number and a line of its words, and the framing guides asked for over
 * each frame (the frames are in the board's shape here, so a guide is where the editor and the PDF draw it).
 */
export function contactSheet(
  board: CanvasNode,
  states: SceneSnapshot['node_states'],
  guideNames: readonly GuideName[] = [],
  notes?: ReadonlyMap<string, readonly ShotMark[]>,
): Scene {
  const data = board.data as Data;
  const shots = shotsOf(board);
  const guides = guideNames.length ? frameGuides(guideNames, aspectOf(data.aspectRatio)) : undefined;
  const drawn = shots.slice(0, SHEET_SHOTS);
  const columns = Math.min(
    Math.max(typeof data.columns === 'number' ? data.columns : drawn.length <= 4 ? Math.max(drawn.length, 1) : 4, 1),
    6,
  );
  const pictureHeight = Math.round(SHEET_CELL / aspectOf(data.aspectRatio));
  const cellHeight = pictureHeight + 44;
  const top = 64;
  const cards: SceneCard[] = drawn.map((shot, index) => ({
    kind: 'shot',
    type: 'storyboardNode',
    label: 'Shot',
    name: '',
    x: SHEET_GAP + (index % columns) * (SHEET_CELL + SHEET_GAP),
    y: top + Math.floor(index / columns) * (cellHeight + SHEET_GAP),
    width: SHEET_CELL,
    height: cellHeight,
    number: text(shot.number) ?? String(index + 1),
    words: shotWords(shot),
    picture: shotPicture(shot, states),
    marks: withNotes(marksOf(shot), notes?.get(String(shot.id))),
    ...(guides ? { guides } : {}),
  }));
  const rows = Math.max(1, Math.ceil(drawn.length / columns));
  const more = shots.length - drawn.length;
  const name = nameOf(data) || 'Storyboard';
  return {
    view: {
      x: 0,
      y: 0,
      width: SHEET_GAP + columns * (SHEET_CELL + SHEET_GAP),
      height: top + rows * (cellHeight + SHEET_GAP),
    },
    cards,
    edges: [],
    title: `${name} · ${shots.length} shot${shots.length === 1 ? '' : 's'}${more > 0 ? ` (first ${drawn.length} shown)` : ''}`,
  };
}

/** The cards of a board's shots inside its card on the canvas (the page's grid: 3 columns unless it says). */
function boardFrames(node: CanvasNode, box: Box, states: SceneSnapshot['node_states']): SceneCard[] {
  const data = node.data as Data;
  const columns = Math.min(Math.max(typeof data.columns === 'number' ? data.columns : 3, 1), 6);
  return shotsOf(node)
    .slice(0, BOARD_FRAMES)
    .map((shot, index) => ({
      kind: 'shot',
      type: 'storyboardNode',
      label: 'Shot',
      name: '',
      x: box.x + 20 + (index % columns) * 260,
      y: box.y + 100 + Math.floor(index / columns) * 200,
      width: 240,
      height: 180,
      number: text(shot.number) ?? String(index + 1),
      picture: shotPicture(shot, states),
      marks: marksOf(shot),
    }));
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y;

function boundsOf(boxes: readonly Box[]): Box {
  if (boxes.length === 0) return { x: 0, y: 0, width: 800, height: 500 };
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  return { x: left - MARGIN, y: top - MARGIN, width: right - left + 2 * MARGIN, height: bottom - top + 2 * MARGIN };
}

/** Nodes (and their boxes) as the page draws them: groups first, then parents before their children. */
function cardsOf(nodes: readonly CanvasNode[], boxes: readonly Box[], states: SceneSnapshot['node_states']) {
  const depth = new Map<string, number>();
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const depthOf = (node: CanvasNode, guard = 0): number => {
    const known = depth.get(node.id);
    if (known !== undefined) return known;
    const parent = node.parentId !== undefined && guard < 64 ? byId.get(node.parentId) : undefined;
    const value = parent ? depthOf(parent, guard + 1) + 1 : 0;
    depth.set(node.id, value);
    return value;
  };
  const order = nodes
    .map((node, index) => ({ node, box: boxes[index]!, index }))
    .sort(
      (a, b) =>
        Number(b.node.type === 'groupNode') - Number(a.node.type === 'groupNode') ||
        depthOf(a.node) - depthOf(b.node) ||
        a.index - b.index,
    );
  return order.flatMap(({ node, box }) => {
    const card: SceneCard = {
      ...box,
      kind: node.type === 'groupNode' ? 'group' : 'card',
      type: node.type,
      label: nodeTypeLabel(node.type),
      name: nameOf(node.data as Data),
      ...(node.type === 'groupNode' ? {} : { picture: nodePicture(node, states) }),
    };
    return node.type === 'storyboardNode' ? [card, ...boardFrames(node, box, states)] : [card];
  });
}

/** The scene of a view of a canvas; guides only on a storyboard's contact sheet (board-target.ts). */
export function buildScene(
  snapshot: SceneSnapshot,
  target: BoardTarget,
  guides: readonly GuideName[] = [],
  notes?: ReadonlyMap<string, readonly ShotMark[]>,
): Scene {
  const { nodes, edges } = snapshot.layout;
  const states = snapshot.node_states;
  if (target.kind === 'node') {
    const node = nodes.find((each) => each.id === target.nodeId);
    if (!node) throw new CanvasError('not_found', `No node ${target.nodeId} on this canvas.`);
    if (node.type === 'storyboardNode') return contactSheet(node, states, guides, notes);
  }
  if (guides.length > 0)
    throw new CanvasError(
      'invalid_arguments',
      `guides are drawn on a storyboard's contact sheet: ${target.kind === 'node' ? target.nodeId : 'this view'} is not a storyboard.`,
      {
        field: 'guides',
      },
    );
  const estimates = new Map(nodes.map((node) => [node.id, boardSize(node) ?? CARD] as const));
  const boxes = drawnBoxes(nodes, estimates);
  let shown: number[];
  let view: Box;
  if (target.kind === 'canvas') {
    shown = nodes.map((_node, index) => index);
    view = boundsOf(boxes);
  } else if (target.kind === 'region') {
    view = { x: target.x, y: target.y, width: target.width, height: target.height };
    shown = boxes.flatMap((box, index) => (intersects(box, view) ? [index] : []));
  } else {
    // A group and everything inside it, at any depth; any other node alone.
    const inside = new Set([target.nodeId]);
    for (let grew = true; grew;) {
      grew = false;
      for (const node of nodes)
        if (node.parentId !== undefined && inside.has(node.parentId) && !inside.has(node.id)) {
          inside.add(node.id);
          grew = true;
        }
    }
    shown = nodes.flatMap((node, index) => (inside.has(node.id) ? [index] : []));
    view = boundsOf(shown.map((index) => boxes[index]!));
  }
  const kept = shown.map((index) => nodes[index]!);
  const keptBoxes = shown.map((index) => boxes[index]!);
  const centre = new Map(
    kept.map((node, index) => {
      const box = keptBoxes[index]!;
      return [node.id, { x: box.x + box.width / 2, y: box.y + box.height / 2 }] as const;
    }),
  );
  return {
    view,
    cards: cardsOf(kept, keptBoxes, states),
    edges: edges.flatMap((edge) => {
      const from = centre.get(edge.source);
      const to = centre.get(edge.target);
      return from && to ? [{ x1: from.x, y1: from.y, x2: to.x, y2: to.y }] : [];
    }),
  };
}
