import { z } from 'zod';
import {
  AddNodeInput,
  AddShotInput,
  DeleteNodeInput,
  DeleteShotInput,
  ReadCanvasInput,
  UpdateNodeInput,
  UpdateShotInput,
  type CanvasPageWriteResult,
  type CanvasShotSummary,
  type ReadCanvasResult,
  type ShotFieldsInput,
} from '../../../src/contract/canvas-page-tools.js';
import { CanvasNode as CanvasNodeSchema, type CanvasNode, type ErrorCode } from '../../../src/contract/index.js';
import { ApiError, newKey } from './api.js';
import type { CanvasController, CanvasState, Intent } from './canvas-state.js';
import { createItems, deleteItems } from './intents.js';
import type { Layout } from './layout.js';
import { NODE_TYPE_FACTS, newNodeId, paletteNode } from './palette.js';
import { drawnBoxes, freeSpotNear } from './placement.js';
import { boardChange, boardOf, editShot, removeShot, type Shot } from './shots.js';
import { overviewTitle, recordOf, text } from './values.js';

/**
 * WebMCP (docs/contract.md, "WebMCP"): where the browser offers an agent the page's tools (`document.modelContext`,
 * or `navigator.modelContext` in earlier drafts), the web canvas registers its own: read the canvas as this page
 * shows it, and add, update and delete nodes and shots. Each write carries the revision of the agent's last read and
 * is refused, naming the canvas's revision now, if the canvas changed since; it is an intent of the person's own
 * canvas store, sent with the person's session (their rights and never more) and put on their undo stack, so Undo
 * (Ctrl+Z) takes it back. A browser without the API gets nothing registered and loses nothing.
 */

/** A tool as WebMCP registers it (the draft's ModelContextTool). */
export interface WebMcpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
  execute(input: unknown): Promise<WebMcpAnswer>;
}

/** What a tool answers: MCP's tool result, which agents of WebMCP read as they read an MCP server's. */
export interface WebMcpAnswer {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: true;
}

/** The API as the drafts have shaped it: registerTool (with an AbortSignal, or unregisterTool), or provideContext. */
interface ModelContextApi {
  registerTool?(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
  unregisterTool?(name: string): unknown;
  provideContext?(context: { tools: WebMcpTool[] }): unknown;
  clearContext?(): unknown;
}

/** The browser's model context, if it offers one: the current draft's `document.modelContext`, else `navigator`'s. */
export function modelContextOf(
  document: object | undefined = globalThis.document,
  navigator: object | undefined = globalThis.navigator,
): ModelContextApi | null {
  for (const owner of [document, navigator]) {
    const context = (owner as { modelContext?: unknown } | undefined)?.modelContext;
    if (context && typeof context === 'object') {
      const api = context as ModelContextApi;
      if (typeof api.registerTool === 'function' || typeof api.provideContext === 'function') return api;
    }
  }
  return null;
}

/** How long a write waits for the page to show the revision it made, so the agent's next write may build on it. */
const SHOWN_WAIT_MS = 5000;

const answer = (structured: Record<string, unknown>): WebMcpAnswer => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

function refusal(code: ErrorCode, message: string, details: Record<string, unknown> = {}): WebMcpAnswer {
  return {
    content: [{ type: 'text', text: message }],
    structuredContent: { error: { code, message, details } },
    isError: true,
  };
}

/** A refusal rather than the node or board asked for. */
const isAnswer = (value: CanvasNode | WebMcpAnswer): value is WebMcpAnswer => 'structuredContent' in value;

function invalid(error: z.ZodError): WebMcpAnswer {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  const first = issues[0]!;
  return refusal('invalid_arguments', `${first.path || 'input'}: ${first.message}`, { issues: issues.slice(0, 20) });
}

function stale(current: number, base: number): WebMcpAnswer {
  return refusal(
    'revision_conflict',
    `The canvas is at revision ${current}, not ${base}: it changed since your read. Call read_canvas again, then write with base_revision ${current}.`,
    { current_revision: current, base_revision: base },
  );
}

const WORD_FIELDS = [
  'caption',
  'action',
  'dialogue',
  'notes',
  'scene',
  'location',
  'look',
  'shotType',
  'shotSize',
  'angle',
  'movement',
  'status',
  'lensMm',
  'durationMs',
  'cast',
] as const;

/** A shot as the agent reads it: its words, and whether it has a picture (never its drawing or its earlier pictures). */
function shotSummary(shot: Shot, index: number): CanvasShotSummary {
  const words = Object.fromEntries(WORD_FIELDS.filter((field) => shot[field] !== undefined).map((f) => [f, shot[f]]));
  return {
    ...words,
    shot_id: shot.id,
    number: text(shot.number) ?? String(index + 1),
    caption: text(shot.caption) ?? null,
    has_picture: typeof shot.imageUrl === 'string' && shot.imageUrl !== '',
  };
}

export function readCanvas(state: CanvasState, input: ReadCanvasInput): ReadCanvasResult {
  const { layout, address } = state;
  const wanted = input.node_ids ? new Set(input.node_ids) : null;
  const chosen = wanted ? layout.nodes.filter((node) => wanted.has(node.id)) : layout.nodes;
  const page = chosen.slice(input.offset, input.offset + input.limit);
  const ids = new Set(page.map((node) => node.id));
  return {
    project_id: address.projectId,
    canvas_id: address.canvasId,
    revision: layout.revision,
    node_count: chosen.length,
    next_offset: input.offset + page.length < chosen.length ? input.offset + page.length : null,
    nodes: page.map((node) => {
      const data = { ...recordOf(node.data) };
      const board = node.type === 'storyboardNode' ? boardOf(node) : null;
      if (board) delete data.frames;
      return {
        id: node.id,
        type: node.type,
        title: overviewTitle(node.type, data, node.id),
        position: node.position,
        ...(node.parentId !== undefined ? { parent_id: node.parentId } : {}),
        data,
        ...(board ? { shots: board.shots.map(shotSummary) } : {}),
      };
    }),
    edges: layout.edges
      .filter((edge) => ids.has(edge.source) || ids.has(edge.target))
      .map((edge) => ({ id: edge.id, source: edge.source, target: edge.target })),
  };
}

/** A shot's fields as the shot store takes them: a field set to null is removed (undefined there). */
function shotFields(fields: ShotFieldsInput | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields ?? {}).map(([field, value]) => [field, value ?? undefined]));
}

/** Resolves once the page shows `revision` (the feed brings it; the store re-reads when the feed is down). */
function shown(controller: CanvasController, revision: number): Promise<void> {
  return new Promise((resolve) => {
    if (controller.store.getState().layout.revision >= revision) return resolve();
    const timer = setTimeout(done, SHOWN_WAIT_MS);
    const stop = controller.store.subscribe((state) => {
      if (state.layout.revision >= revision) done();
    });
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
  });
}

export interface CanvasToolOptions {
  /** Where a node added without a position goes near: the middle of the person's view. */
  viewCentre?: () => { x: number; y: number };
}

/** The canvas's WebMCP tools: the read, and (for a person who may edit) the writes. */
export function canvasTools(controller: CanvasController, options: CanvasToolOptions = {}): WebMcpTool[] {
  const authors = () => controller.store.getState().lastAuthor;
  const editable = () => {
    const { role } = controller.store.getState();
    return role === 'editor' || role === 'owner';
  };

  /**
   * One write: refused when the canvas is no longer at `base`, else the person's own intent (their session, their
   * undo stack). The answer is the revision it made, once the page shows it.
   */
  async function write(
    base: number,
    intent: Intent,
    ids: { node_id?: string; shot_id?: string },
  ): Promise<WebMcpAnswer> {
    if (!editable()) return refusal('forbidden', 'The person whose page this is may view this canvas, not edit it.');
    const now = controller.store.getState().layout.revision;
    if (now !== base) return stale(now, base);
    let changedTo: number | null = null;
    let outcome: { revision: number } | { error: Error } | null = null;
    const done = await controller.submit({
      label: `Browser agent: ${intent.label.charAt(0).toLowerCase()}${intent.label.slice(1)}`,
      build(layout) {
        // What the agent read is no longer what is there (someone wrote meanwhile): refused, not merged.
        if (layout.revision !== base) {
          changedTo = layout.revision;
          return { notApplicable: `A browser agent's change was not applied: the canvas changed since it read it.` };
        }
        return intent.build(layout);
      },
      settled(result) {
        outcome = result;
      },
    });
    if (changedTo !== null) return stale(changedTo, base);
    const settled = outcome as { revision: number } | { error: Error } | null;
    if (!done || (settled && 'error' in settled)) {
      const error = settled && 'error' in settled ? settled.error : null;
      if (error instanceof ApiError && error.code === 'revision_conflict') {
        const current = controller.store.getState().layout.revision;
        return stale(current, base);
      }
      return error instanceof ApiError
        ? refusal(error.code as ErrorCode, error.message, error.details)
        : refusal('internal', error?.message ?? 'The change was not applied.');
    }
    const revision = settled ? settled.revision : base;
    await shown(controller, revision);
    const result: CanvasPageWriteResult = { revision, ...ids };
    return answer(result);
  }

  const layout = (): Layout => controller.store.getState().layout;
  const nodeNamed = (id: string) => layout().nodes.find((node) => node.id === id);
  const noNode = (id: string, field = 'node_id') =>
    refusal('not_found', `${field}: there is no node "${id}" on this canvas.`, { [field]: id });
  const boardNamed = (id: string): CanvasNode | WebMcpAnswer => {
    const node = nodeNamed(id);
    if (!node) return noNode(id);
    if (node.type !== 'storyboardNode')
      return refusal('invalid_arguments', `node_id: "${id}" is a ${node.type}, not a storyboard: it has no shots.`);
    return node;
  };
  const noShot = (board: string, shot: string, field = 'shot_id') =>
    refusal('not_found', `${field}: the storyboard "${board}" has no shot "${shot}".`, { [field]: shot });
  /** A node as it would be stored, or why not, naming the field. */
  const checked = (node: CanvasNode): CanvasNode | WebMcpAnswer => {
    const parsed = CanvasNodeSchema.safeParse(node);
    return parsed.success ? parsed.data : invalid(parsed.error);
  };

  function tool<S extends z.ZodType>(
    name: string,
    title: string,
    description: string,
    schema: S,
    run: (input: z.output<S>) => Promise<WebMcpAnswer> | WebMcpAnswer,
    readOnly = false,
  ): WebMcpTool {
    return {
      name,
      title,
      description,
      inputSchema: z.toJSONSchema(schema, { io: 'input', target: 'draft-07' }) as Record<string, unknown>,
      ...(readOnly ? { annotations: { readOnlyHint: true } } : {}),
      async execute(input) {
        const parsed = schema.safeParse(input ?? {});
        if (!parsed.success) return invalid(parsed.error);
        try {
          return await run(parsed.data);
        } catch (error) {
          return refusal('internal', (error as Error).message);
        }
      },
    };
  }

  const read = tool(
    'read_canvas',
    'Read the canvas',
    'The storyboard canvas open on this page, as the person sees it now: its revision, nodes (a storyboard with its shots) and connections. Writes carry this revision as base_revision.',
    ReadCanvasInput,
    (input) => answer(readCanvas(controller.store.getState(), input)),
    true,
  );
  if (!editable()) return [read];

  const writeNote = ' Carries base_revision (from read_canvas or your last write); the person can undo it.';
  return [
    read,
    tool(
      'add_node',
      'Add a node',
      `Adds a node (card) of a type, its data over the type's defaults, at a position or a free spot.${writeNote}`,
      AddNodeInput,
      (input) => {
        if (input.parent_id !== undefined && !nodeNamed(input.parent_id)) return noNode(input.parent_id, 'parent_id');
        if (input.node_id !== undefined && nodeNamed(input.node_id))
          return refusal('already_exists', `node_id: there is a node "${input.node_id}" already.`);
        const position =
          input.position ?? freeSpotNear(drawnBoxes(layout().nodes), options.viewCentre?.() ?? { x: 0, y: 0 });
        const made = paletteNode(NODE_TYPE_FACTS[input.type], position, input.node_id ?? newNodeId(input.type));
        const node = checked({
          ...made,
          data: { ...recordOf(made.data), ...input.data },
          ...(input.parent_id !== undefined ? { parentId: input.parent_id } : {}),
        } as CanvasNode);
        if (isAnswer(node)) return node;
        return write(input.base_revision, createItems([node], [], `Add ${node.type}`), { node_id: node.id });
      },
    ),
    tool(
      'update_node',
      'Update a node',
      `Sets fields of a node's data (merged over what it has) and/or its position.${writeNote}`,
      UpdateNodeInput,
      (input) => {
        const node = nodeNamed(input.node_id);
        if (!node) return noNode(input.node_id);
        const next = checked({
          ...node,
          ...(input.position ? { position: input.position } : {}),
          ...(input.data ? { data: { ...recordOf(node.data), ...input.data } } : {}),
        } as CanvasNode);
        if (isAnswer(next)) return next;
        return write(
          input.base_revision,
          {
            label: `Edit ${overviewTitle(node.type, recordOf(node.data), node.id)}`,
            build: (now) => {
              const current = now.nodes.find((each) => each.id === input.node_id);
              if (!current) return { notApplicable: `"${input.node_id}" was deleted meanwhile.` };
              return [
                {
                  op: 'update_node',
                  node_id: input.node_id,
                  set: {
                    ...(input.position ? { position: input.position } : {}),
                    ...(input.data ? { data: { ...recordOf(current.data), ...input.data } } : {}),
                  },
                },
              ];
            },
          },
          { node_id: input.node_id },
        );
      },
    ),
    tool(
      'delete_node',
      'Delete a node',
      `Deletes a node and its connections.${writeNote}`,
      DeleteNodeInput,
      (input) => {
        if (!nodeNamed(input.node_id)) return noNode(input.node_id);
        return write(input.base_revision, deleteItems([input.node_id], [], layout()), { node_id: input.node_id });
      },
    ),
    tool(
      'add_shot',
      'Add a shot',
      `Adds a shot to a storyboard node (after a shot, or at the end), with its shot-list fields; the board numbers it.${writeNote}`,
      AddShotInput,
      (input) => {
        const board = boardNamed(input.node_id);
        if (isAnswer(board)) return board;
        const { shots } = boardOf(board);
        if (input.after_shot_id !== undefined && !shots.some((shot) => shot.id === input.after_shot_id))
          return noShot(input.node_id, input.after_shot_id, 'after_shot_id');
        const shotId = `shot-${newKey().slice(0, 8)}`;
        const fields = Object.fromEntries(
          Object.entries(shotFields(input.fields)).filter(([, value]) => value !== undefined),
        );
        const intent = boardChange(input.node_id, 'Add a shot', authors, ({ shots: now }) => {
          const after =
            input.after_shot_id === undefined ? now.length - 1 : now.findIndex((s) => s.id === input.after_shot_id);
          const shot: Shot = { id: shotId, imageUrl: null, status: 'draft', ...fields };
          return { shots: [...now.slice(0, after + 1), shot, ...now.slice(after + 1)] };
        });
        return write(input.base_revision, intent, { node_id: input.node_id, shot_id: shotId });
      },
    ),
    tool(
      'update_shot',
      'Update a shot',
      `Sets shot-list fields of one shot (caption, action, shotSize, …); null removes a field.${writeNote}`,
      UpdateShotInput,
      (input) => {
        const board = boardNamed(input.node_id);
        if (isAnswer(board)) return board;
        if (!boardOf(board).shots.some((shot) => shot.id === input.shot_id))
          return noShot(input.node_id, input.shot_id);
        const intent = editShot(input.node_id, input.shot_id, shotFields(input.set), authors);
        return write(input.base_revision, intent, { node_id: input.node_id, shot_id: input.shot_id });
      },
    ),
    tool(
      'delete_shot',
      'Delete a shot',
      `Removes one shot from a storyboard node; the others are numbered again.${writeNote}`,
      DeleteShotInput,
      (input) => {
        const board = boardNamed(input.node_id);
        if (isAnswer(board)) return board;
        if (!boardOf(board).shots.some((shot) => shot.id === input.shot_id))
          return noShot(input.node_id, input.shot_id);
        return write(input.base_revision, removeShot(input.node_id, input.shot_id, authors), {
          node_id: input.node_id,
          shot_id: input.shot_id,
        });
      },
    ),
  ];
}

/**
 * Registers the canvas's tools with the browser's model context, if it has one; answers how to take them away again
 * (the page leaves the canvas, or the person's rights change). Does nothing where the browser offers no WebMCP.
 */
export function registerCanvasTools(
  controller: CanvasController,
  options: CanvasToolOptions = {},
  context: ModelContextApi | null = modelContextOf(),
): () => void {
  if (!context) return () => undefined;
  const tools = canvasTools(controller, options);
  if (typeof context.registerTool === 'function') {
    const abort = new AbortController();
    const handles: unknown[] = [];
    for (const each of tools) {
      try {
        const handle = context.registerTool(each, { signal: abort.signal });
        // The current draft answers a promise, rejected when the signal unregisters the tool: expected, not an error.
        if (handle instanceof Promise) handle.catch(() => undefined);
        else handles.push(handle);
      } catch {
        // A tool the browser refuses (a name taken by another script of the page) leaves the others registered.
      }
    }
    return () => {
      abort.abort();
      for (const handle of handles) {
        try {
          (handle as { unregister?: () => void } | undefined)?.unregister?.();
        } catch {
          // Already gone.
        }
      }
      // Drafts without the signal unregister by name.
      for (const each of tools) {
        try {
          context.unregisterTool?.(each.name);
        } catch {
          // Already gone (the signal took it away).
        }
      }
    };
  }
  context.provideContext!({ tools });
  return () => {
    if (typeof context.clearContext === 'function') context.clearContext();
    else context.provideContext!({ tools: [] });
  };
}
