import { dataOf, type CanvasNode, type CanvasSnapshot } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import {
  CANVAS_RESOURCE_SCHEME as SCHEME,
  parseCanvasResource,
  type CanvasResource,
} from '../shared/canvas-resource-uri.js';
import { jsonPayload } from '../shared/json-payload.js';
import type { AssetUrls } from './asset-urls.js';
import type { BackendClient, ToolCaller } from './backend-client.js';

/**
 * Views of a canvas that fit an agent host's result limits (docs/architecture.md, "Large canvases").
 * `get_canvas` stays exact to the spec and answers the whole canvas, which at 1,000 nodes is past
 * what Claude Code (≈25,000 tokens) and claude.ai (≈150,000 characters) accept. These resources answer the same
 * canvas in pieces, each well under both limits at any size:
 *
 * - `canvas://{project_id}/{canvas_id}/outline{?page}`: one tab-separated line per node (id, type, name, position,
 *   size, parent) and the edges leaving them, 1,000 nodes a page;
 * - `canvas://{project_id}/{canvas_id}/nodes/{node_id}`: one node with its run state and its edges;
 * - `canvas://{project_id}/{canvas_id}/changes{?since}`: the revisions after one, with what each changed and who;
 * - `canvas://{project_id}/{canvas_id}/board.png{?node_id,x,y,width,height,format,guides}`: the canvas as a picture
 *   (src/render/), a blob of image content;
 * - `canvas://{project_id}/{canvas_id}/threads{?status}` and `canvas://{project_id}/{canvas_id}/nodes/{node_id}/threads`:
 *   comment threads, `{threads: ThreadView[]}`, which agents with the `review` tool set answer.
 */

export const OUTLINE_PAGE_NODES = 1000;
const CHANGES_MAX_REVISIONS = 500;
const HISTORY_PAGE = 200;
const NAME_CHARS = 60;

export const CANVAS_RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/outline{?page}',
    name: 'canvas-outline',
    title: 'Canvas outline',
    description:
      `Every node of a canvas, one tab-separated line each (id, type, name, x, y, width, height, parent), and the edges leaving them; ${OUTLINE_PAGE_NODES} nodes a page (page=1, 2, …; the first line names the revision and the next page). ` +
      "Read this instead of get_canvas when a canvas is large: it stays within a host's result limit at any size. Then read single nodes with canvas-node.",
    mimeType: 'text/tab-separated-values',
  },
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/nodes/{node_id}',
    name: 'canvas-node',
    title: 'One canvas node',
    description:
      'One node of a canvas as get_canvas has it, with its run state (node_states), its incoming and outgoing edges, and the canvas revision to write against.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/changes{?since}',
    name: 'canvas-changes',
    title: 'Canvas changes since a revision',
    description: `The revisions of a canvas after \`since\` (newest last, at most ${CHANGES_MAX_REVISIONS}): which nodes and edges each created, updated or deleted, and who. Read it after a revision_conflict instead of the whole canvas, then read the changed nodes.`,
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/board.png{?node_id,x,y,width,height,format,guides}',
    name: 'canvas-board-image',
    title: 'The board as a picture',
    description:
      'A canvas drawn as a picture (PNG, or format=webp; at most 1,568 px on the long edge and 1 MB): each node a card with its result thumbnail or its type, its name; edges as lines. node_id= a storyboard draws its contact sheet (shots with their numbers and words; guides=titleSafe,actionSafe,centre,thirds,crop9x16,crop4x5 draws those framing guides over each shot); a group draws what it holds; x, y, width, height draw a region in canvas coordinates. Look at it to judge layout, continuity or whether shots match.',
    mimeType: 'image/png',
  },
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/nodes/{node_id}/shots/{shot_id}/drawing',
    name: 'shot-drawing',
    title: "A shot's drawing",
    description:
      "The drawing on one shot of a storyboard (a shot's `drawing` in get_canvas names it), as JSON: its layers (rough, tone, ink, notes; each with opacity, visibility and lock) and their strokes, each stroke's tool, colour, size and input points [x, y, pressure] in frame coordinates (0 to 1 of the frame's width and height). To add a camera arrow, a circle or a word, add a mark to the shot's `marks` (line, arrow, rect, ellipse, pen, text; points in the same coordinates) with apply_canvas_changes: people see it at once and can undo it.",
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/threads{?status}',
    name: 'canvas-threads',
    title: 'Comment threads of a canvas',
    description:
      'The comment threads people (and guests, the assistant, agents) wrote on a canvas, as JSON {threads}: open ones unless status=all or status=resolved. ' +
      'Each thread has thread_id, its node_id (null: the canvas as a whole), shot_id, anchor, node_label, status and its comments (author {kind, name}, body, mentions), oldest first. ' +
      'With the review tool set, answer one with reply_to_comment and close it with resolve_comment_thread.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'canvas://{project_id}/{canvas_id}/nodes/{node_id}/threads',
    name: 'canvas-node-threads',
    title: 'Comment threads of one node',
    description:
      'The comment threads on one node of a canvas (its shots, points and times included), open and resolved, as JSON {threads}, shaped as canvas-threads.',
    mimeType: 'application/json',
  },
] as const;

/** What these views read of the canvas read (get_canvas). */
type Snapshot = Pick<CanvasSnapshot, 'layout' | 'node_states'>;

/** A name to show for a node: its display name, title or label, else the start of its text; one line, cut short. */
function nameOf(node: CanvasNode): string {
  // Whichever field of its type names it: the data of any type is read as a plain record.
  const data: Readonly<Record<string, unknown>> = node.data;
  const candidate = [data.displayName, data.title, data.label, data.name, data.content, data.text, data.prompt].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return oneLine(candidate);
}

/** Text on one line of the outline, cut short. */
function oneLine(text: string | undefined): string {
  const flat = (text ?? '').replace(/[\t\r\n]+/g, ' ').trim();
  return flat.length > NAME_CHARS ? `${flat.slice(0, NAME_CHARS - 1)}…` : flat;
}

const cell = (value: number | string | undefined) => (value === undefined || value === '' ? '-' : String(value));

function shotLines(board: CanvasNode): string[] {
  const frames = dataOf(board, 'storyboardNode')?.frames ?? [];
  return frames.map((frame, index) =>
    [
      board.id,
      typeof frame.number === 'string' ? frame.number : String(index + 1),
      String(frame.id),
      typeof frame.scene === 'string' ? frame.scene : '',
      typeof frame.shotSize === 'string' ? frame.shotSize : '',
      typeof frame.status === 'string' ? frame.status : '',
      oneLine(typeof frame.caption === 'string' ? frame.caption : typeof frame.action === 'string' ? frame.action : ''),
    ]
      .map(cell)
      .join('\t'),
  );
}

function outline(snapshot: Snapshot, resource: Extract<CanvasResource, { kind: 'outline' }>): string {
  const { revision, nodes, edges } = snapshot.layout;
  const pages = Math.max(1, Math.ceil(nodes.length / OUTLINE_PAGE_NODES));
  if (resource.page > pages)
    throw new CanvasError(
      'invalid_arguments',
      `The outline of ${resource.canvasId} has ${pages} page(s) at revision ${revision}.`,
    );
  const first = (resource.page - 1) * OUTLINE_PAGE_NODES;
  const shown = nodes.slice(first, first + OUTLINE_PAGE_NODES);
  const ids = new Set(shown.map((node) => node.id));
  const base = `${SCHEME}${encodeURIComponent(resource.projectId)}/${encodeURIComponent(resource.canvasId)}`;
  const lines = [
    `# canvas ${resource.projectId}/${resource.canvasId} at revision ${revision}: ${nodes.length} nodes, ${edges.length} edges; page ${resource.page} of ${pages} (nodes ${shown.length === 0 ? 0 : first + 1}-${first + shown.length})`,
    resource.page < pages ? `# next page: ${base}/outline?page=${resource.page + 1}` : '# last page',
    `# one node: ${base}/nodes/{node_id}; changes after a revision: ${base}/changes?since={revision}`,
    'id\ttype\tname\tx\ty\twidth\theight\tparent',
    ...shown.map((node) =>
      [
        node.id,
        node.type,
        nameOf(node),
        Math.round(node.position.x),
        Math.round(node.position.y),
        cell(node.width),
        cell(node.height),
        cell(node.parentId),
      ]
        .map(cell)
        .join('\t'),
    ),
  ];
  const leaving = edges.filter((edge) => ids.has(edge.source));
  if (leaving.length > 0)
    lines.push('', 'edge\tsource\ttarget', ...leaving.map((edge) => `${edge.id}\t${edge.source}\t${edge.target}`));
  // A storyboard's shots in order (docs/storyboards.md): what an agent needs to talk about shot 2A without reading the
  // whole board; the node resource has every field.
  const shots = shown.flatMap((node) => (node.type === 'storyboardNode' ? shotLines(node) : []));
  if (shots.length > 0) lines.push('', 'board\tshot\tid\tscene\tsize\tstatus\tdescription', ...shots);
  return `${lines.join('\n')}\n`;
}

export interface CanvasResources {
  read(uri: string, caller: ToolCaller): Promise<Record<string, unknown> | null>;
}

export function createCanvasResources(client: BackendClient, assetUrls: AssetUrls): CanvasResources {
  const snapshotOf = async (caller: ToolCaller, resource: CanvasResource): Promise<Snapshot> =>
    JSON.parse(
      (await client.getCanvas(caller, { project_id: resource.projectId, canvas_id: resource.canvasId })).json,
    ) as Snapshot;

  async function changes(caller: ToolCaller, resource: Extract<CanvasResource, { kind: 'changes' }>) {
    const { layout } = await snapshotOf(caller, resource);
    const revisions: unknown[] = [];
    let before = layout.revision + 1;
    let truncated = false;
    while (before - 1 > resource.since) {
      const page = await client.canvasHistory(caller, {
        project_id: resource.projectId,
        canvas_id: resource.canvasId,
        before,
        limit: HISTORY_PAGE,
      });
      const newer = page.revisions.filter((entry) => entry.revision > resource.since);
      revisions.push(...newer);
      if (revisions.length >= CHANGES_MAX_REVISIONS) {
        truncated = true;
        break;
      }
      if (newer.length < page.revisions.length || page.next_before === null) break;
      before = page.next_before;
    }
    const kept = revisions.slice(0, CHANGES_MAX_REVISIONS).reverse();
    return {
      since: resource.since,
      revision: layout.revision,
      revisions: kept,
      truncated,
      ...(truncated ? { hint: `More than ${CHANGES_MAX_REVISIONS} revisions: read the outline again instead.` } : {}),
    };
  }

  return {
    async read(uri, caller) {
      const resource = parseCanvasResource(uri);
      if (!resource) return null;
      if (resource.kind === 'outline') {
        return {
          uri,
          mimeType: 'text/tab-separated-values',
          text: outline(await snapshotOf(caller, resource), resource),
        };
      }
      if (resource.kind === 'board') {
        const { projectId, canvasId, target, format, guides } = resource;
        const image = await client.boardImage(caller, {
          project_id: projectId,
          canvas_id: canvasId,
          view: { target, format, ...(guides ? { guides } : {}) },
        });
        return { uri, mimeType: image.mimeType, blob: image.bytes.toString('base64') };
      }
      if (resource.kind === 'threads') {
        const list = await client.listThreads(caller, {
          project_id: resource.projectId,
          canvas_id: resource.canvasId,
          ...(resource.nodeId === null ? {} : { node_id: resource.nodeId }),
          filter: resource.status,
        });
        return { uri, mimeType: 'application/json', text: JSON.stringify({ threads: list.threads }) };
      }
      if (resource.kind === 'drawing') {
        const drawing = await client.shotDrawing(caller, {
          project_id: resource.projectId,
          canvas_id: resource.canvasId,
          node_id: resource.nodeId,
          shot_id: resource.shotId,
        });
        return { uri, mimeType: 'application/json', text: JSON.stringify(drawing) };
      }
      if (resource.kind === 'node') {
        const snapshot = await snapshotOf(caller, resource);
        const node = snapshot.layout.nodes.find((each) => each.id === resource.nodeId);
        if (!node)
          throw new CanvasError(
            'not_found',
            `No node ${resource.nodeId} on canvas ${resource.canvasId} at revision ${snapshot.layout.revision}.`,
          );
        const view = {
          revision: snapshot.layout.revision,
          node,
          node_state: snapshot.node_states[resource.nodeId] ?? null,
          edges: {
            incoming: snapshot.layout.edges.filter((edge) => edge.target === resource.nodeId),
            outgoing: snapshot.layout.edges.filter((edge) => edge.source === resource.nodeId),
          },
        };
        return { uri, mimeType: 'application/json', text: assetUrls.absolute(jsonPayload(view)).json };
      }
      return { uri, mimeType: 'application/json', text: JSON.stringify(await changes(caller, resource)) };
    },
  };
}
