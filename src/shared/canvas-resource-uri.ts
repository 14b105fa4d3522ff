import { CanvasId, NodeId, ProjectId } from '../contract/index.js';
import { parseBoardView, type BoardView } from './board-target.js';
import { CanvasError } from './errors.js';

/**
 * The canvas resources' URIs (`canvas://{project_id}/{canvas_id}/…`, src/mcp/canvas-resources.ts), parsed in one place:
 * the MCP server reads them, and the connector gate checks which canvas a read names.
 */

export const CANVAS_RESOURCE_SCHEME = 'canvas://';
const SCHEME = CANVAS_RESOURCE_SCHEME;

export type CanvasResource =
  | { kind: 'outline'; projectId: string; canvasId: string; page: number }
  | { kind: 'node'; projectId: string; canvasId: string; nodeId: string }
  | { kind: 'changes'; projectId: string; canvasId: string; since: number }
  | ({ kind: 'board'; projectId: string; canvasId: string } & BoardView)
  | { kind: 'threads'; projectId: string; canvasId: string; nodeId: string | null; status: ThreadStatusFilter }
  | { kind: 'drawing'; projectId: string; canvasId: string; nodeId: string; shotId: string };

/** Which comment threads a threads resource answers (docs/contract.md, "Review tools and comment resources"). */
export const THREAD_STATUS_FILTERS = ['all', 'open', 'resolved'] as const;
export type ThreadStatusFilter = (typeof THREAD_STATUS_FILTERS)[number];

function threadStatus(value: string | null, fallback: ThreadStatusFilter, uri: string): ThreadStatusFilter {
  if (value === null) return fallback;
  const known = THREAD_STATUS_FILTERS.find((status) => status === value);
  if (!known)
    throw new CanvasError('invalid_arguments', `status in ${uri} is one of ${THREAD_STATUS_FILTERS.join(', ')}.`);
  return known;
}

function segment(
  value: string | undefined,
  schema: { safeParse(value: unknown): { success: boolean } },
  what: string,
  uri: string,
): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value ?? '');
  } catch {
    throw new CanvasError('invalid_arguments', `${what} in ${uri} is not valid percent-encoding.`);
  }
  if (!schema.safeParse(decoded).success)
    throw new CanvasError('invalid_arguments', `${what} in ${uri} is not a valid id.`);
  return decoded;
}

function wholeNumber(value: string | null, name: string, min: number, uri: string): number | null {
  if (value === null) return null;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new CanvasError('invalid_arguments', `${name} in ${uri} must be a whole number of at least ${min}.`);
  return Number(value);
}

/** The canvas resource a URI names, null when it names none of ours. */
export function parseCanvasResource(uri: string): CanvasResource | null {
  if (!uri.startsWith(SCHEME)) return null;
  const [path = '', query = ''] = uri.slice(SCHEME.length).split('?', 2);
  const parts = path.split('/');
  const params = new URLSearchParams(query);
  const ids = () => ({
    projectId: segment(parts[0], ProjectId, 'project_id', uri),
    canvasId: segment(parts[1], CanvasId, 'canvas_id', uri),
  });
  if (parts.length === 3 && parts[2] === 'outline')
    return { kind: 'outline', ...ids(), page: wholeNumber(params.get('page'), 'page', 1, uri) ?? 1 };
  if (parts.length === 4 && parts[2] === 'nodes')
    return { kind: 'node', ...ids(), nodeId: segment(parts[3], NodeId, 'node_id', uri) };
  if (parts.length === 3 && parts[2] === 'changes') {
    const since = wholeNumber(params.get('since'), 'since', 0, uri);
    if (since === null) throw new CanvasError('invalid_arguments', `${uri} needs since=<revision>.`);
    return { kind: 'changes', ...ids(), since };
  }
  // Comment threads: the canvas's, open ones unless status says otherwise; one node's, all of them.
  if (parts.length === 3 && parts[2] === 'threads')
    return { kind: 'threads', ...ids(), nodeId: null, status: threadStatus(params.get('status'), 'open', uri) };
  if (parts.length === 5 && parts[2] === 'nodes' && parts[4] === 'threads')
    return {
      kind: 'threads',
      ...ids(),
      nodeId: segment(parts[3], NodeId, 'node_id', uri),
      status: threadStatus(params.get('status'), 'all', uri),
    };
  // A shot's drawing: its strokes, layer by layer.
  if (parts.length === 7 && parts[2] === 'nodes' && parts[4] === 'shots' && parts[6] === 'drawing') {
    const shotId = decodeURIComponent(parts[5] ?? '');
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(shotId))
      throw new CanvasError('invalid_arguments', `${uri}: shot_id is not a shot id.`);
    return { kind: 'drawing', ...ids(), nodeId: segment(parts[3], NodeId, 'node_id', uri), shotId };
  }
  // The board as a picture: `board.png`, the format in the query (`format=webp`).
  if (parts.length === 3 && parts[2] === 'board.png') return { kind: 'board', ...ids(), ...parseBoardView(params) };
  return null;
}

/** The URI of a canvas's picture (get_canvas carries it as `board_image_uri`). */
export function boardImageUri(projectId: string, canvasId: string): string {
  return `${SCHEME}${encodeURIComponent(projectId)}/${encodeURIComponent(canvasId)}/board.png`;
}
