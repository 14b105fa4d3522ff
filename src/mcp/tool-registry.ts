import type { z } from 'zod';
import {
  HIDDEN_TOOL_CONTRACTS,
  TOOL_SETS,
  type ToolSetName,
  TOOL_CONTRACTS,
  toolJsonSchemas,
  webCanvasPath,
  type JsonSchemaObject,
} from '../contract/index.js';
import type { JsonPayload } from '../shared/json-payload.js';
import type { Need } from '../backend/auth/access.js';
import type { BackendClient, ToolCaller } from './backend-client.js';
import type { AssetUrls } from './asset-urls.js';
import {
  APP_ONLY_TOOL_META,
  CANVAS_APP_ACCESS_META,
  CANVAS_APP_TOOL_META,
  CANVAS_URL_META,
  appAccessOf,
} from './canvas-app.js';
import { runOutputLinks } from './run-output-links.js';
import { STORYBOARDING_SKILL_URI } from './skill-catalog.js';
import { TASK_TOOLS } from './tool-tasks.js';

/**
 * The registry of tools. The six published tools are listed and callable; the registry may hold more
 * (spec: Rules 2), which stay hidden unless the server is started with --enable-hidden-tools.
 */

/**
 * A canvas's result `_meta` is the same object on every read of it, so its text is made once (src/mcp/tool-results.ts):
 * get_canvas is the call agents make most.
 */
const canvasMetas = new Map<string, Record<string, unknown>>();
function canvasMetaOf(url: string): Record<string, unknown> {
  let meta = canvasMetas.get(url);
  if (meta === undefined) {
    if (canvasMetas.size >= 1000) canvasMetas.clear();
    meta = { [CANVAS_URL_META]: url };
    canvasMetas.set(url, meta);
  }
  return meta;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  input: z.ZodType;
  /** What tools/list shows of `input` when it differs (create_canvas_node: the spec's node types only). */
  publishedInput?: z.ZodType;
  /** The structured result of a successful call (`output` is success | error). */
  success: z.ZodType;
  output: z.ZodType;
  /**
   * The project right a call needs, checked from `project_id` alone before the arguments are parsed in full;
   * null for a tool that reads no project.
   */
  need: Need | null;
  published: boolean;
  invoke(client: BackendClient, caller: ToolCaller, args: never): Promise<JsonPayload>;
  /** Content items added after the JSON text of a success (its URLs already absolute); the structured result is unchanged. */
  extraContent?(client: BackendClient, json: string): Promise<object[]>;
  /** The icon hosts show beside it (served at /mcp/i/{icon}.svg). */
  icon: ToolIcon;
  /** The tool's `_meta` in tools/list (get_canvas names its MCP App). */
  meta?: Record<string, unknown>;
  /** The `_meta` of a successful result; content and structured result are unchanged by it. */
  resultMeta?(args: never, urls: AssetUrls, caller: ToolCaller): Record<string, unknown>;
}

const RUN_ID_RULE =
  'run_id is a node run id of this project and canvas (node_states[node_id].externalRunId in get_canvas ' +
  'or the submit response): never a chat run id (X-Agent-Run-Id) and never a skill run id (data.skillRunId).';

/** Which icon a tool shows (MCP `icons`; docs/contract.md, "Discovery"): reading, changing the canvas, or a run. */
export type ToolIcon = 'read' | 'write' | 'run';

function define<I extends z.ZodType>(
  definition: Omit<ToolDefinition, 'input' | 'invoke' | 'extraContent' | 'resultMeta'> & {
    extraContent?: ToolDefinition['extraContent'];
    input: I;
    invoke(client: BackendClient, caller: ToolCaller, args: z.output<I>): Promise<JsonPayload>;
    resultMeta?(args: z.output<I>, urls: AssetUrls, caller: ToolCaller): Record<string, unknown>;
  },
): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  define({
    name: 'list_zone_skills',
    icon: 'read',
    need: null,
    title: 'List zone skills',
    description:
      'List the registered skills: skill_id, title, description, and input_schema (of skillNode.data.parameters). ' +
      'Call this before creating a skillNode: use a skill_id from this list with parameters that match its input_schema. ' +
      'A skill in the catalog does not imply a standalone way to execute it.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: TOOL_CONTRACTS.list_zone_skills.input,
    success: TOOL_CONTRACTS.list_zone_skills.success,
    output: TOOL_CONTRACTS.list_zone_skills.output,
    published: true,
    invoke: (client, caller) => client.listSkills(caller),
  }),
  define({
    name: 'get_canvas',
    icon: 'read',
    need: 'viewer',
    title: 'Read canvas',
    description:
      'Read one canvas: layout {revision, nodes, edges} and node_states (the state of node runs, apart from the layout). ' +
      'Pass layout.revision as base_revision to create_canvas_node and delete_canvas_node; address nodes by layout.nodes[].id; ' +
      'never send read results back as a layout or node. Large canvas: resource canvas://{project_id}/{canvas_id}/outline. ' +
      `How to storyboard here: the skill ${STORYBOARDING_SKILL_URI}.`,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: TOOL_CONTRACTS.get_canvas.input,
    success: TOOL_CONTRACTS.get_canvas.success,
    output: TOOL_CONTRACTS.get_canvas.output,
    published: true,
    invoke: (client, caller, args) => client.getCanvas(caller, args),
    // Hosts that render MCP Apps show the canvas itself beside the result (src/mcp/canvas-app.ts).
    meta: CANVAS_APP_TOOL_META,
    resultMeta: (args, urls, caller) => {
      const url = urls.resolve(webCanvasPath(args.project_id, args.canvas_id));
      return caller.connector
        ? { [CANVAS_URL_META]: url, [CANVAS_APP_ACCESS_META]: appAccessOf(caller.connector) }
        : canvasMetaOf(url);
    },
  }),
  define({
    name: 'create_canvas_node',
    icon: 'write',
    need: 'editor',
    title: 'Create canvas node',
    description:
      'Atomically add exactly one node {id (new), type, position {x, y}, data of the type}, based on base_revision: layout.revision of your get_canvas read. ' +
      'On revision_conflict re-read, merge and resubmit with the new layout.revision. ' +
      'A text node is textAnnotationNode with data.content and data.displayName. A skillNode needs a skill_id from list_zone_skills. ' +
      'Needs X-Agent-Run-Id (your canvas chat run). A retry with the same client_save_id replays the receipt. ' +
      `Rules and storyboards: ${STORYBOARDING_SKILL_URI}.`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: TOOL_CONTRACTS.create_canvas_node.input,
    publishedInput: TOOL_CONTRACTS.create_canvas_node.publishedInput,
    success: TOOL_CONTRACTS.create_canvas_node.success,
    output: TOOL_CONTRACTS.create_canvas_node.output,
    published: true,
    invoke: (client, caller, args) => client.createNode(caller, args),
  }),
  define({
    name: 'delete_canvas_node',
    icon: 'write',
    need: 'editor',
    title: 'Delete canvas node',
    description:
      'Atomically delete exactly one node, by its exact id from layout.nodes[].id of get_canvas (never by name), with its connected edges; ' +
      'its children move to its parent and keep their place, and its active node runs are asked to stop (cancelled_run_ids). Pass the latest layout.revision as base_revision; ' +
      'on revision_conflict re-read with get_canvas and decide again. Needs X-Agent-Run-Id.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    input: TOOL_CONTRACTS.delete_canvas_node.input,
    success: TOOL_CONTRACTS.delete_canvas_node.success,
    output: TOOL_CONTRACTS.delete_canvas_node.output,
    published: true,
    invoke: (client, caller, args) => client.deleteNode(caller, args),
  }),
  define({
    name: 'get_canvas_node_run',
    icon: 'read',
    need: 'viewer',
    title: 'Get node run',
    description:
      'Read the authoritative state and result of one node run: status (queued, running, cancel_requested, succeeded, failed, cancelled), ' +
      `progress, outputs, error and cost. ${RUN_ID_RULE} Poll it after cancel_canvas_node_run to learn whether the run really stopped.`,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: TOOL_CONTRACTS.get_canvas_node_run.input,
    success: TOOL_CONTRACTS.get_canvas_node_run.success,
    output: TOOL_CONTRACTS.get_canvas_node_run.output,
    published: true,
    invoke: (client, caller, args) => client.getRun(caller, args),
    extraContent: runOutputLinks,
  }),
  define({
    name: 'cancel_canvas_node_run',
    icon: 'run',
    need: 'editor',
    title: 'Cancel node run',
    description:
      'Request cancellation of an active node run. The answer cancel_requested means only that the request was accepted: the generation may still ' +
      'finish, so keep polling get_canvas_node_run with the same run_id for the authoritative state. A run that already ended answers its terminal ' +
      `status unchanged. ${RUN_ID_RULE}`,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    input: TOOL_CONTRACTS.cancel_canvas_node_run.input,
    success: TOOL_CONTRACTS.cancel_canvas_node_run.success,
    output: TOOL_CONTRACTS.cancel_canvas_node_run.output,
    published: true,
    invoke: (client, caller, args) => client.cancelRun(caller, args),
  }),
  define({
    name: 'submit_canvas_node_run',
    icon: 'run',
    need: 'editor',
    title: 'Submit node run',
    description:
      'Start a paid generation run for one node (imageNode, imageGenNode, audioNode, scriptNode or skillNode). Costs credits. ' +
      'Reuse the same idempotency_key when retrying one submission so it is never charged twice. Answers the node run record.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    input: HIDDEN_TOOL_CONTRACTS.submit_canvas_node_run.input,
    success: HIDDEN_TOOL_CONTRACTS.submit_canvas_node_run.success,
    output: HIDDEN_TOOL_CONTRACTS.submit_canvas_node_run.output,
    published: false,
    invoke: (client, caller, args) => client.submitRun(caller, args),
  }),
  define({
    name: 'create_canvas_edge',
    icon: 'write',
    need: 'editor',
    title: 'Connect two nodes',
    description:
      'Atomically add one edge {id (new on this canvas), source, target} between two nodes, by their exact ids from layout.nodes, at base_revision (the layout.revision you read). ' +
      'On revision_conflict re-read and resubmit. Needs a canvas edit authorization.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.create_canvas_edge.input,
    success: HIDDEN_TOOL_CONTRACTS.create_canvas_edge.success,
    output: HIDDEN_TOOL_CONTRACTS.create_canvas_edge.output,
    published: false,
    invoke: (client, caller, args) => client.createEdge(caller, args),
  }),
  define({
    name: 'apply_canvas_changes',
    icon: 'write',
    need: 'editor',
    title: 'Change the canvas',
    description:
      'Atomically apply a batch of layout operations (create_node, update_node, delete_node, create_edge, delete_edge) at base_revision, as one revision. ' +
      'On revision_conflict re-read and build the batch again. Needs a canvas edit authorization.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.apply_canvas_changes.input,
    success: HIDDEN_TOOL_CONTRACTS.apply_canvas_changes.success,
    output: HIDDEN_TOOL_CONTRACTS.apply_canvas_changes.output,
    published: false,
    invoke: (client, caller, args) => client.applyChanges(caller, args),
  }),
  define({
    name: 'estimate_canvas_node_run',
    icon: 'read',
    need: 'viewer',
    title: 'Estimate a node run',
    description: "What a run of one node would cost, and the project's budget.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.estimate_canvas_node_run.input,
    success: HIDDEN_TOOL_CONTRACTS.estimate_canvas_node_run.success,
    output: HIDDEN_TOOL_CONTRACTS.estimate_canvas_node_run.output,
    published: false,
    invoke: (client, caller, args) => client.estimateRun(caller, args),
  }),
  define({
    name: 'export_board',
    icon: 'write',
    need: 'editor',
    title: 'Export a storyboard',
    description:
      'Start an export of a storyboardNode: kind pdf_board, animatic (MP4), shot_list_csv, shot_list_xlsx, shot_list_pdf, otio, otioz, fcp_xml, fcpxml or edl, with its options. ' +
      'A job the server runs (no credits); follow it with get_export until status is succeeded, failed or cancelled.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.export_board.input,
    success: HIDDEN_TOOL_CONTRACTS.export_board.success,
    output: HIDDEN_TOOL_CONTRACTS.export_board.output,
    published: false,
    invoke: (client, caller, args) => client.exportBoard(caller, args),
  }),
  define({
    name: 'get_export',
    icon: 'read',
    need: 'viewer',
    title: 'Read an export',
    description:
      "An export's status and progress; once succeeded, file.url is a signed download link (it expires: read again for a fresh one), and warnings name what the file lacks.",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.get_export.input,
    success: HIDDEN_TOOL_CONTRACTS.get_export.success,
    output: HIDDEN_TOOL_CONTRACTS.get_export.output,
    published: false,
    invoke: (client, caller, args) => client.getExport(caller, args),
  }),
  define({
    name: 'tidy_canvas',
    icon: 'write',
    need: 'editor',
    title: 'Tidy the canvas',
    description:
      "Lay out some nodes of one parent again (node_ids), or the canvas's top-level nodes, along their connections (mode flow) or in a grid, as one revision at base_revision. Needs a canvas edit authorization.",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.tidy_canvas.input,
    success: HIDDEN_TOOL_CONTRACTS.tidy_canvas.success,
    output: HIDDEN_TOOL_CONTRACTS.tidy_canvas.output,
    published: false,
    invoke: (client, caller, args) => client.tidyCanvas(caller, args),
  }),
  define({
    name: 'reply_to_comment',
    icon: 'write',
    need: 'viewer',
    title: 'Reply to a comment',
    description:
      'Reply in a comment thread of the canvas as this agent (shown under its token name): body is plain text, @name mentions a member. ' +
      'Read threads first: resource canvas://{project_id}/{canvas_id}/threads (open ones) or canvas://{project_id}/{canvas_id}/nodes/{node_id}/threads. ' +
      'Agents reply and resolve; they never start threads and never approve. Answers the thread.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.reply_to_comment.input,
    success: HIDDEN_TOOL_CONTRACTS.reply_to_comment.success,
    output: HIDDEN_TOOL_CONTRACTS.reply_to_comment.output,
    published: false,
    invoke: (client, caller, args) => client.replyToComment(caller, args),
  }),
  define({
    name: 'resolve_comment_thread',
    icon: 'write',
    need: 'viewer',
    title: 'Resolve a comment thread',
    description:
      'Resolve a comment thread of the canvas once its point is dealt with (status resolved, the default), or reopen it (status open). ' +
      'Resolving is not approving: review states stay for people. Answers the thread.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: HIDDEN_TOOL_CONTRACTS.resolve_comment_thread.input,
    success: HIDDEN_TOOL_CONTRACTS.resolve_comment_thread.success,
    output: HIDDEN_TOOL_CONTRACTS.resolve_comment_thread.output,
    published: false,
    invoke: (client, caller, args) => client.resolveCommentThread(caller, args),
  }),
];

/** A tool as tools/list describes it, with schemas generated from the contract once. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
  annotations: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

/** Built once per tool: generating its JSON Schemas from the contract is the costliest part of a start. */
const listed = new WeakMap<ToolDefinition, ListedTool>();

export function listedTool(definition: ToolDefinition): ListedTool {
  const known = listed.get(definition);
  if (known) return known;
  const built: ListedTool = {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    ...toolJsonSchemas(definition),
    // The title once, at the top (2025-06-18 on): a second copy in annotations would cost every session bytes.
    annotations: definition.annotations,
    // A paid run or an export may answer as a task a 2025-11-25 client polls (src/mcp/tool-tasks.ts).
    ...(definition.name in TASK_TOOLS ? { execution: { taskSupport: 'optional' as const } } : {}),
    ...(definition.meta ? { _meta: definition.meta } : {}),
  };
  listed.set(definition, built);
  return built;
}

export function enabledTools(enableHiddenTools: boolean): ToolDefinition[] {
  return TOOL_DEFINITIONS.filter((definition) => definition.published || enableHiddenTools);
}

/**
 * What a token with tool sets lists (docs/contract.md, "Tools beyond the six"): the six, then the tools of the sets, in
 * registry order. The sets were checked against what its owner enabled before this is asked.
 */
export function toolSetTools(sets: readonly ToolSetName[], enableHiddenTools: boolean): ToolDefinition[] {
  const names = new Set<string>(sets.flatMap((set) => TOOL_SETS[set].tools));
  return TOOL_DEFINITIONS.filter(
    (definition) => definition.published || enableHiddenTools || names.has(definition.name),
  );
}

/** Tools beyond the six that the canvas chat's own agent also lists and may call (an `assistant` token). */
const ASSISTANT_TOOLS = new Set([
  'submit_canvas_node_run',
  'create_canvas_edge',
  'apply_canvas_changes',
  'tidy_canvas',
]);

/**
 * What the in-product assistant sees (docs/chat.md): the six, run submission (which the chat wraps in the person's
 * approval), connecting two nodes, which a person asking for a chain of frames expects, and a batch of changes, which
 * changing a shot's fields or order is (an update of its board). Every other caller's list is unchanged: the published
 * interface stays exactly the six tools.
 */
export function assistantTools(enableHiddenTools: boolean): ToolDefinition[] {
  return TOOL_DEFINITIONS.filter(
    (definition) => definition.published || enableHiddenTools || ASSISTANT_TOOLS.has(definition.name),
  );
}

/** The app-only tools of the MCP App: what the canvas drawn in a host does when the person edits it there. */
const APP_TOOLS = new Set(['apply_canvas_changes', 'estimate_canvas_node_run', 'submit_canvas_node_run']);

/**
 * What an OAuth connection lists: the six for the model, and the MCP App's own tools marked app-only
 * (`_meta.ui.visibility: ["app"]`), which hosts never show the model or let it call: the model still sees exactly the
 * six. Every other caller's list is unchanged.
 */
export function connectorTools(enableHiddenTools: boolean): ToolDefinition[] {
  return TOOL_DEFINITIONS.flatMap((definition) => {
    if (definition.published) return [definition];
    if (APP_TOOLS.has(definition.name))
      return [enableHiddenTools ? definition : { ...definition, meta: APP_ONLY_TOOL_META }];
    return enableHiddenTools ? [definition] : [];
  });
}
