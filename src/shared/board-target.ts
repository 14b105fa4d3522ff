import { GUIDE_NAMES, LIMITS, NodeId, type GuideName } from '../contract/index.js';
import { CanvasError } from './errors.js';

/**
 * What a board picture shows (src/render/): the whole canvas, a region of it in canvas coordinates, or one node (a
 * storyboard as a contact sheet of its shots, a group with what it holds), as PNG or WebP. Read from the query of
 * `canvas://{project_id}/{canvas_id}/board.png` and of the REST route `…/canvases/{canvas_id}/board.png`. A
 * storyboard's contact sheet can carry framing guides over each shot (`guides=titleSafe,actionSafe`).
 */

export type BoardFormat = 'png' | 'webp';

export type BoardTarget =
  | { kind: 'canvas' }
  | { kind: 'region'; x: number; y: number; width: number; height: number }
  | { kind: 'node'; nodeId: string };

export interface BoardView {
  target: BoardTarget;
  format: BoardFormat;
  /** Framing guides over each shot of a storyboard's contact sheet, in the order asked; none when absent. */
  guides?: GuideName[];
}

/** A stable text for a target: the render cache's key. */
export function boardTargetKey(target: BoardTarget): string {
  if (target.kind === 'canvas') return 'canvas';
  if (target.kind === 'node') return `node:${target.nodeId}`;
  return `region:${target.x},${target.y},${target.width},${target.height}`;
}

const REGION = ['x', 'y', 'width', 'height'] as const;

function number(value: string, name: string, positive: boolean): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || Math.abs(parsed) > LIMITS.coordinate)
    throw new CanvasError('invalid_arguments', `${name} must be a number within ±${LIMITS.coordinate}.`, {
      field: name,
    });
  if (positive && parsed <= 0)
    throw new CanvasError('invalid_arguments', `${name} must be more than 0.`, { field: name });
  return parsed;
}

/** `guides=titleSafe,actionSafe`: known names, each once; an unknown one is refused naming it. */
function guidesOf(value: string | null | undefined): GuideName[] | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const names: GuideName[] = [];
  for (const name of value.split(',').map((each) => each.trim())) {
    if (!(GUIDE_NAMES as readonly string[]).includes(name))
      throw new CanvasError(
        'invalid_arguments',
        `guides: ${name.slice(0, 40)} is not a guide (${GUIDE_NAMES.join(', ')}).`,
        {
          field: 'guides',
        },
      );
    if (!names.includes(name as GuideName)) names.push(name as GuideName);
  }
  return names;
}

/**
 * The view a query names: `node_id`, or all four of `x`, `y`, `width`, `height`, or neither; `format=png|webp`;
 * `guides` (a comma-separated list) only with a storyboard's `node_id`, the one view that draws shots in their frame
 * shape (the board picture says so when the node is not a storyboard).
 */
export function parseBoardView(query: { get(name: string): string | null | undefined }): BoardView {
  const format = query.get('format') ?? 'png';
  if (format !== 'png' && format !== 'webp')
    throw new CanvasError('invalid_arguments', 'format must be png or webp.', { field: 'format' });
  const guides = guidesOf(query.get('guides'));
  const nodeId = query.get('node_id');
  const given = REGION.filter((name) => (query.get(name) ?? null) !== null);
  if (nodeId !== null && nodeId !== undefined) {
    if (given.length > 0)
      throw new CanvasError('invalid_arguments', 'Name either node_id or a region (x, y, width, height), not both.');
    if (!NodeId.safeParse(nodeId).success)
      throw new CanvasError('invalid_arguments', 'node_id is not a valid node id.', { field: 'node_id' });
    return { target: { kind: 'node', nodeId }, format, ...(guides ? { guides } : {}) };
  }
  if (guides)
    throw new CanvasError(
      'invalid_arguments',
      "guides are drawn on a storyboard's contact sheet: name the board with node_id.",
      { field: 'guides' },
    );
  if (given.length === 0) return { target: { kind: 'canvas' }, format };
  if (given.length < REGION.length)
    throw new CanvasError('invalid_arguments', 'A region needs all of x, y, width and height.', {
      field: REGION.find((name) => !given.includes(name)),
    });
  const [x, y, width, height] = REGION.map((name) =>
    number(query.get(name)!, name, name === 'width' || name === 'height'),
  );
  return { target: { kind: 'region', x: x!, y: y!, width: width!, height: height! }, format };
}

/** The query text of a view (empty for the whole canvas as PNG), for URIs and links. */
export function boardViewQuery(view: BoardView): string {
  const params = new URLSearchParams();
  if (view.target.kind === 'node') params.set('node_id', view.target.nodeId);
  if (view.target.kind === 'region') for (const name of REGION) params.set(name, String(view.target[name]));
  if (view.format !== 'png') params.set('format', view.format);
  if (view.guides?.length) params.set('guides', view.guides.join(','));
  const text = params.toString();
  return text ? `?${text}` : '';
}
