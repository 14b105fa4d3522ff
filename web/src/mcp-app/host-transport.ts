import type { App } from '@modelcontextprotocol/ext-apps';
import {
  BatchReceipt,
  CancelRunResult,
  CanvasSnapshot,
  dataOf,
  NodeRun,
  RunEstimate,
  type CanvasNode,
  type LayoutOperation,
  type PresenceEntry,
} from '../../../src/contract/index.js';
import { ApiError, type CanvasAddress } from '../model/api.js';
import type { CanvasTransport, FeedHandlers } from '../model/transport.js';
import type { z } from 'zod';

/**
 * The MCP App's way to the server (docs/architecture.md, "The canvas as an MCP App"): every read and write is a tool
 * call its host makes for it with the connection's grant (`App.callServerTool`), the page itself reaching nothing.
 * Writes go through the app-only tools (apply_canvas_changes, estimate_canvas_node_run, submit_canvas_node_run) and the
 * published cancel; there is no feed to listen to from inside a host, so the canvas is read again every few seconds,
 * and what the person changed is told to the model with the MCP Apps context update.
 */

export interface AppAccess {
  edit: boolean;
  run: boolean;
}

/** How often the app reads the canvas again for what others (the agent included) changed. */
export const POLL_MS = 2000;
/** A large canvas is read again less often: each read is the whole canvas. */
const LARGE_CANVAS_NODES = 500;
const LARGE_POLL_MS = 10_000;
/** The person's changes the model is told about: the most recent ones. */
const CONTEXT_CHANGES = 20;

const STATUS_OF: Record<string, number> = { unauthenticated: 401, forbidden: 403, not_found: 404 };

function nodeLabel(node: CanvasNode | undefined, id: string): string {
  const displayName = node?.data.displayName;
  const label = dataOf(node, 'groupNode')?.label;
  const name = typeof displayName === 'string' && displayName ? displayName : typeof label === 'string' ? label : '';
  return name ? `"${name}" (${id})` : id;
}

/**
 * For a canvas too large for a host's result limits (a get_canvas of 1,000 nodes is ~194,000 characters; Claude Code
 * keeps ~25,000 tokens of a result): where the model reads it in pieces instead (src/mcp/canvas-resources.ts).
 */
export function largeCanvasNote(address: CanvasAddress, nodeCount: number): string | null {
  if (nodeCount <= LARGE_CANVAS_NODES) return null;
  const base = `canvas://${address.projectId}/${address.canvasId}`;
  return (
    `This canvas has ${nodeCount} nodes: instead of get_canvas, read the resource ${base}/outline (ids, types, names, positions), ` +
    `one node with ${base}/nodes/{node_id}, and what changed with ${base}/changes?since={revision}.`
  );
}

/** What the model is told of the person's changes in the app: each update replaces the last, so it holds them all. */
export function modelContextText(
  address: CanvasAddress,
  revision: number,
  changes: string[],
  nodeCount: number,
): string {
  return [
    `The person changed canvas ${address.projectId}/${address.canvasId} in the canvas view; it is now at layout revision ${revision}.`,
    'Read it again before writing. Their changes, oldest first:',
    ...changes.map((line) => `- ${line}`),
    largeCanvasNote(address, nodeCount),
  ]
    .filter((line): line is string => line !== null)
    .join('\n');
}

/** One line per operation, in words a model reads easily, with the ids it needs to address the nodes. */
export function describeOperations(operations: LayoutOperation[], nodes: Map<string, CanvasNode>): string[] {
  return operations.map((operation) => {
    switch (operation.op) {
      case 'create_node':
        return `added ${operation.node.type} ${nodeLabel(operation.node, operation.node.id)}`;
      case 'delete_node':
        return `deleted ${nodeLabel(nodes.get(operation.node_id), operation.node_id)}`;
      case 'create_edge':
        return `connected ${operation.edge.source} to ${operation.edge.target}`;
      case 'delete_edge':
        return `removed the connection ${operation.edge_id}`;
      case 'update_node': {
        const { set } = operation;
        const what = nodeLabel(nodes.get(operation.node_id), operation.node_id);
        const parts = [
          set.position ? `moved ${what} to (${set.position.x}, ${set.position.y})` : null,
          set.data ? `edited ${what}` : null,
          set.parentId !== undefined
            ? `put ${what} ${set.parentId ? `into ${set.parentId}` : 'at the canvas root'}`
            : null,
          set.width !== undefined || set.height !== undefined ? `resized ${what}` : null,
        ].filter(Boolean);
        return parts.length > 0 ? parts.join(', ') : `changed ${what}`;
      }
    }
  });
}

export function hostTransport(app: App, address: CanvasAddress, access: AppAccess): CanvasTransport {
  const canvas = { project_id: address.projectId, canvas_id: address.canvasId };
  let nodes = new Map<string, CanvasNode>();
  const told: string[] = [];

  async function call<T>(name: string, args: Record<string, unknown>, success: z.ZodType<T>): Promise<T> {
    const result = await app.callServerTool({ name, arguments: { ...canvas, ...args } });
    const structured = result.structuredContent as
      { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined;
    if (result.isError) {
      const error = structured?.error;
      const code = error?.code ?? 'unknown';
      throw new ApiError(STATUS_OF[code] ?? 400, code, error?.message ?? `${name} failed.`, error?.details ?? {});
    }
    const parsed = success.safeParse(result.structuredContent);
    if (!parsed.success)
      throw new ApiError(502, 'bad_result', `${name} answered something this view does not understand.`);
    return parsed.data;
  }

  async function snapshot(): Promise<CanvasSnapshot> {
    const read = await call('get_canvas', {}, CanvasSnapshot);
    nodes = new Map((read.layout.nodes as CanvasNode[]).map((node) => [node.id, node]));
    return read;
  }

  /** The model hears what the person changed on its next turn (each update replaces the last: it holds them all). */
  function tell(label: string, operations: LayoutOperation[], revision: number): void {
    if (!app.getHostCapabilities()?.updateModelContext) return;
    told.push(`${label}: ${describeOperations(operations, nodes).join('; ')}`);
    told.splice(0, Math.max(0, told.length - CONTEXT_CHANGES));
    const text = modelContextText(address, revision, told, nodes.size);
    void app
      .updateModelContext({
        content: [{ type: 'text', text }],
        structuredContent: { project_id: address.projectId, canvas_id: address.canvasId, revision, changes: [...told] },
      })
      .catch(() => undefined);
  }

  const readOnly = (what: string) =>
    Promise.reject(new ApiError(403, 'forbidden', `${what} is not available in this view: open the full canvas.`));

  return {
    whoAmI: async () => ({ role: access.edit ? 'editor' : 'viewer', person: null }),
    snapshot,
    async changes(baseRevision, operations, clientSaveId, label) {
      if (!access.edit) return readOnly('Editing');
      const receipt = await call(
        'apply_canvas_changes',
        { base_revision: baseRevision, client_save_id: clientSaveId, operations },
        BatchReceipt,
      );
      tell(label, operations, receipt.revision);
      return receipt;
    },
    history: () => readOnly('History'),
    revert: () => readOnly('Revert'),
    estimate: (nodeId) =>
      access.run ? call('estimate_canvas_node_run', { node_id: nodeId }, RunEstimate) : readOnly('Running'),
    submitRun: (nodeId, idempotencyKey) =>
      access.run
        ? call('submit_canvas_node_run', { node_id: nodeId, idempotency_key: idempotencyKey }, NodeRun)
        : readOnly('Running'),
    cancelRun: (runId) =>
      access.run ? call('cancel_canvas_node_run', { run_id: runId }, CancelRunResult) : readOnly('Cancelling'),
    follow(_after, handlers: FeedHandlers) {
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let shown = '';
      const poll = async () => {
        try {
          const read = await snapshot();
          if (stopped) return;
          handlers.status('live');
          const seen = JSON.stringify([read.layout, read.node_states]);
          if (seen !== shown) {
            shown = seen;
            handlers.snapshot(read);
          }
          // get_canvas says who else is on the canvas (its extra `presence` field).
          handlers.presence((read as { presence?: PresenceEntry[] }).presence ?? []);
        } catch {
          if (!stopped) handlers.status('reconnecting');
        }
        if (!stopped) timer = setTimeout(() => void poll(), nodes.size > LARGE_CANVAS_NODES ? LARGE_POLL_MS : POLL_MS);
      };
      handlers.status('connecting');
      timer = setTimeout(() => void poll(), POLL_MS);
      return () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
  };
}
