import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  ProjectId,
  TOOL_SETS,
  TOOL_SETS_HEADER,
  ToolSetName,
  jsonBoundsIssue,
  type SubmitCanvasNodeRunArgs,
} from '../contract/index.js';
import { CanvasError, invalidArguments, invalidArgumentsOf, toCanvasError } from '../shared/errors.js';
import type { BodyFault } from '../validation/check-body.js';
import type { Logger } from '../shared/logger.js';
import type { BackendClient, ToolCaller } from './backend-client.js';
import type { AssetUrls } from './asset-urls.js';
import { boundaryRefusal } from './canvas-boundary.js';
import { CANVAS_APP_URI, type CanvasApp } from './canvas-app.js';
import { notePresence, type AgentPresence } from './agent-presence.js';
import { plainToolCall } from './plain-envelope.js';
import { CompleteParams, createPrompts, PromptGetParams } from './prompts.js';
import { CANVAS_RESOURCE_TEMPLATES, createCanvasResources } from './canvas-resources.js';
import { SERVER_INFO, type EraFrame } from './era.js';
import {
  ALL_PROTOCOL_VERSIONS,
  PRIMARY_PROTOCOL_VERSION,
  RPC_ERROR,
  SERVER_INSTRUCTIONS,
  isSupportedProtocolVersion,
  rpcErrorBody,
  rpcResultBody,
  type JsonRpcId,
  type RpcReply,
} from './protocol.js';
import { listedTool, type ToolDefinition } from './tool-registry.js';
import { toolIconPath } from './server-card.js';
import { createReadChanges } from './read-changes.js';
import { createSpendConfirmation } from './spend-confirmation.js';
import {
  createToolTasks,
  parseTaskId,
  TASK_TOOLS,
  TASKS_CAPABILITY,
  TASKS_PROTOCOL_VERSION,
  TaskRequest,
  taskOf,
} from './tool-tasks.js';
import { loadSkillCatalog, SKILL_URI_ROOT, SKILLS_EXTENSION_ID, type SkillCatalog } from './skill-catalog.js';
import { toolErrorResult, toolSuccessReply } from './tool-results.js';

/**
 * Answers one JSON-RPC request, in either protocol era: the era (src/mcp/era.ts) says which methods exist and adds
 * its fields to results; the tools, their arguments and their errors are the same in both. Protocol faults (unknown method, malformed params, unknown tool) are JSON-RPC
 * errors; everything a tool itself reports (invalid arguments, conflicts, refusals) is a result with
 * isError: true that a model can read and act on.
 */

export interface DispatcherOptions {
  client: BackendClient;
  tools: readonly ToolDefinition[];
  /** The tools an `assistant` token (the canvas chat's agent) lists and may call; default: `tools`. */
  assistantTools?: readonly ToolDefinition[];
  /** Who is on each canvas: agents' calls mark them there, get_canvas says who else is. */
  presence?: AgentPresence | null;
  /** What OAuth connections list and call: the six, and the MCP App's app-only tools (src/mcp/tool-registry.ts). */
  connectorTools?: readonly ToolDefinition[];
  /** The origin tools' icons are served from (MCP `icons`); '' until it is known, and then no icons are listed. */
  iconOrigin?: () => string;
  /** The key spend confirmations' requestState is signed with (a deployment's shared secret; else this process's). */
  stateKey?: () => Promise<string>;
  /** What a token with tool sets lists: the six and the sets' tools; absent: tool sets are off. */
  toolSetTools?: (sets: readonly ToolSetName[]) => readonly ToolDefinition[];
  logger: Logger;
  /** Makes the asset URLs of results absolute (src/mcp/asset-urls.ts). */
  assetUrls: AssetUrls;
  /** The ui:// resource of the canvas as an MCP App (src/mcp/canvas-app.ts). */
  canvasApp: CanvasApp;
  /** The skills served through the Skills extension (src/mcp/skill-catalog.ts); default: the package's `skills/`. */
  skills?: SkillCatalog;
}

const SkillGetParams = z.object({ uri: z.string().min(1).max(2048) });
const TaskParams = z.object({ taskId: z.string().min(1).max(1024) });
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** A tools/call that asks to run as a task: only at the revision that defines tasks, with a `task` object. */
function asksForTask(request: JSONRPCRequest, era: EraFrame): boolean {
  if (era.name !== 'legacy' || era.protocolVersion !== TASKS_PROTOCOL_VERSION) return false;
  const task = (request.params as { task?: unknown } | undefined)?.task;
  return task !== undefined && TaskRequest.safeParse(task).success;
}

export interface DispatchContext {
  caller: ToolCaller;
  era: EraFrame;
  /** A logger with the request's fields, made only when there is something to log. */
  log: () => Logger;
  /** params.arguments exactly as the client sent them (before any schema rebuilt them). */
  rawArguments?: unknown;
  /** The arguments of a large body, already bounded and parsed with the tool's schema on a worker thread. */
  checkedArguments?: unknown;
  /** Told the error of a tool call that failed, for the access log line. */
  outcome?: (error: CanvasError) => void;
}

const ProjectScope = z.looseObject({ project_id: ProjectId });

/**
 * A set of tools by name, and its tools/list result built once, in registry order: the list never changes while the
 * server runs, and the same order on every call lets clients cache it (2026-07-28 tools.mdx: "SHOULD return tools in
 * a deterministic order").
 */
function toolSet(definitions: readonly ToolDefinition[], iconOrigin: () => string) {
  let listResult: { tools: object[] } | null = null;
  return {
    byName: new Map(definitions.map((tool) => [tool.name, tool])),
    /** Built on the first list, once the server's public origin (for the icons' URLs) is known. */
    get listResult() {
      const origin = iconOrigin();
      if (listResult) return listResult;
      const tools = definitions.map((tool) =>
        origin ? { ...listedTool(tool), icons: [{ src: `${origin}${toolIconPath(tool.icon)}` }] } : listedTool(tool),
      );
      if (origin) listResult = { tools };
      return { tools };
    },
  };
}

function toolSetsOf(caller: ToolCaller, allowed: readonly ToolSetName[]): ToolSetName[] {
  const asked = caller.requestedToolSets;
  if (asked === undefined || asked === null) return [...allowed];
  const sets: ToolSetName[] = [];
  for (const name of asked) {
    const known = ToolSetName.safeParse(name);
    if (!known.success)
      throw new CanvasError(
        'invalid_arguments',
        `${TOOL_SETS_HEADER}: "${name}" is not a tool set of this server; it has ${Object.keys(TOOL_SETS).join(', ')}.`,
        { header: TOOL_SETS_HEADER, tool_set: name },
      );
    if (!allowed.includes(known.data))
      throw new CanvasError(
        'forbidden',
        `${TOOL_SETS_HEADER}: the tool set "${name}" is not enabled for this ${caller.connector ? 'connection' : 'token'}; a project owner enables it (${caller.connector ? 'on the connection' : 'when issuing the token'}).`,
        { header: TOOL_SETS_HEADER, tool_set: name },
      );
    if (!sets.includes(known.data)) sets.push(known.data);
  }
  return sets;
}

/**
 * A tool this caller does not list: unknown, and when it belongs to a tool set, which set and who enables it, so an
 * agent asking for reply_to_comment learns it needs `review` rather than that the tool does not exist.
 */
function unknownTool(caller: ToolCaller, name: string): { message: string; details?: Record<string, unknown> } {
  const set = (Object.keys(TOOL_SETS) as ToolSetName[]).find((each) =>
    (TOOL_SETS[each].tools as readonly string[]).includes(name),
  );
  if (!set || caller.principal.purpose === 'assistant') return { message: `Unknown tool: ${name}` };
  const holder = caller.connector ? 'connection' : 'token';
  const allowed = caller.connector ? (caller.connector.grant.toolSets ?? []) : caller.principal.toolSets;
  const why = allowed.includes(set)
    ? `this request did not name it in ${TOOL_SETS_HEADER}`
    : `it is not enabled for this ${holder}; a project owner enables it (${caller.connector ? 'on the connection' : 'when issuing the token'})`;
  return {
    message: `Unknown tool: ${name}: it is in the tool set "${set}", and ${why}.`,
    details: { tool_set: set },
  };
}

export function createDispatcher(options: DispatcherOptions) {
  const iconOrigin = options.iconOrigin ?? (() => '');
  const everyone = toolSet(options.tools, iconOrigin);
  const assistant = options.assistantTools ? toolSet(options.assistantTools, iconOrigin) : everyone;
  const connector = options.connectorTools ? toolSet(options.connectorTools, iconOrigin) : everyone;
  const withSets = new Map<string, ReturnType<typeof toolSet>>();
  /**
   * A caller's tools: the assistant's and a connector's lists as they are; else the six, and the tool sets its owner
   * enabled, narrowed to those the request names in X-MCP-Toolsets. A set the token was not given is refused by name
   * (a CanvasError the caller answers as a JSON-RPC error).
   */
  const toolsOf = (caller: ToolCaller) => {
    if (caller.principal.purpose === 'assistant') return assistant;
    const base = caller.connector ? connector : everyone;
    const sets = toolSetsOf(
      caller,
      caller.connector ? (caller.connector.grant.toolSets ?? []) : caller.principal.toolSets,
    );
    if (sets.length === 0 || !options.toolSetTools) return base;
    const key = `${caller.connector ? 'connector' : 'token'}:${[...sets].sort().join(',')}`;
    let tools = withSets.get(key);
    if (!tools) {
      // The sets' tools, for the model too; a connection keeps its MCP App's app-only tools beside them.
      const chosen = options.toolSetTools(sets);
      const names = new Set(chosen.map((tool) => tool.name));
      const kept = caller.connector ? [...base.byName.values()].filter((tool) => !names.has(tool.name)) : [];
      withSets.set(key, (tools = toolSet([...chosen, ...kept], iconOrigin)));
    }
    return tools;
  };
  /** The caller's tools, or the answer to a request whose tool sets are refused (invalid params), its outcome told. */
  const callerTools = (
    request: JSONRPCRequest,
    context: DispatchContext,
  ): { tools: ReturnType<typeof toolSet> } | { refusal: RpcReply } => {
    try {
      return { tools: toolsOf(context.caller) };
    } catch (error) {
      const refusal = toCanvasError(error);
      context.outcome?.(refusal);
      return { refusal: [rpcErrorBody(request.id, RPC_ERROR.invalidParams, refusal.message, refusal.details)] };
    }
  };
  const capabilities = {
    tools: { listChanged: false },
    resources: { subscribe: false, listChanged: false },
    prompts: { listChanged: false },
    completions: {},
    extensions: { [SKILLS_EXTENSION_ID]: {} },
  };
  const skills = options.skills ?? loadSkillCatalog();
  const canvasResources = createCanvasResources(options.client, options.assetUrls);
  const readChanges = createReadChanges(options.client);
  const spendConfirmation = createSpendConfirmation({ client: options.client, stateKey: options.stateKey });
  const prompts = createPrompts(options.client);
  const tasks = createToolTasks(options.client);

  /** prompts/get and completion/complete: their params parsed once, their refusals as the other reads answer them. */
  async function promptCall(
    request: JSONRPCRequest,
    context: DispatchContext,
    answer: (params: unknown) => Promise<object>,
  ): Promise<RpcReply> {
    try {
      return [
        rpcResultBody(request.id, await answer(request.params), context.era.resultHead + context.era.privateHead),
      ];
    } catch (error) {
      const canvasError = toCanvasError(error);
      if (canvasError.code === 'internal') context.log().error({ err: error }, `${request.method} failed unexpectedly`);
      context.outcome?.(canvasError);
      if (canvasError.code === 'invalid_arguments')
        return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, canvasError.message, canvasError.details)];
      return [refusalBody(request.id, canvasError)];
    }
  }
  /** tasks/get, tasks/result and tasks/cancel: the task id read once, checked against the caller's boundary. */
  async function taskCall(
    request: JSONRPCRequest,
    context: DispatchContext,
    answer: (taskId: string) => Promise<string | RpcReply>,
  ): Promise<RpcReply> {
    const params = TaskParams.safeParse(request.params);
    if (!params.success)
      return [
        rpcErrorBody(request.id, RPC_ERROR.invalidParams, `Invalid ${request.method} params: expected { taskId }.`),
      ];
    try {
      const outside = boundaryRefusal(context.caller, parseTaskId(params.data.taskId));
      if (outside) throw new CanvasError('forbidden', outside);
      const reply = await answer(params.data.taskId);
      return typeof reply === 'string' ? [reply] : reply;
    } catch (error) {
      const canvasError = toCanvasError(error);
      if (canvasError.code === 'internal') context.log().error({ err: error }, `${request.method} failed unexpectedly`);
      context.outcome?.(canvasError);
      // An unknown or ended task is the caller's mistake in its params (2025-11-25, "Tasks", error handling).
      if (canvasError.code === 'invalid_arguments' || canvasError.code === 'not_found')
        return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, canvasError.message, { taskId: params.data.taskId })];
      return [refusalBody(request.id, canvasError)];
    }
  }
  const paramsOf = <T>(schema: z.ZodType<T>, params: unknown, method: string): T => {
    const parsed = schema.safeParse(params);
    if (!parsed.success) throw new CanvasError('invalid_arguments', `Invalid ${method} params.`);
    return parsed.data;
  };

  function initialize(request: JSONRPCRequest): RpcReply {
    const parsed = InitializeRequestSchema.safeParse(request);
    if (!parsed.success) {
      return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, 'Invalid initialize params.')];
    }
    const requested = parsed.data.params.protocolVersion;
    const protocolVersion = isSupportedProtocolVersion(requested) ? requested : PRIMARY_PROTOCOL_VERSION;
    return [
      rpcResultBody(request.id, {
        protocolVersion,
        // Tasks are the 2025-11-25 revision's (src/mcp/tool-tasks.ts): declared to the clients that speak it.
        capabilities:
          protocolVersion === TASKS_PROTOCOL_VERSION ? { ...capabilities, tasks: TASKS_CAPABILITY } : capabilities,
        serverInfo: SERVER_INFO,
        instructions: SERVER_INSTRUCTIONS,
      }),
    ];
  }

  /** 2026-07-28 server/discover: what initialize answered, without a handshake (server/discover.mdx). */
  function discover(request: JSONRPCRequest, era: EraFrame): RpcReply {
    const result = { supportedVersions: ALL_PROTOCOL_VERSIONS, capabilities, instructions: SERVER_INSTRUCTIONS };
    return [rpcResultBody(request.id, result, era.resultHead + era.cacheHead)];
  }

  /**
   * resources/read: the canvas app (every caller that may call tools may read it), and the views of a canvas that fit
   * a host's result limits (src/mcp/canvas-resources.ts), read with the caller's own rights on the canvas.
   */
  async function readResource(request: JSONRPCRequest, context: DispatchContext): Promise<RpcReply> {
    const { era } = context;
    const parsed = ReadResourceRequestSchema.safeParse(request);
    if (!parsed.success)
      return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, 'Invalid resources/read params: expected { uri }.')];
    const { uri } = parsed.data.params;
    if (uri === CANVAS_APP_URI)
      return [rpcResultBody(request.id, { contents: [options.canvasApp.contents()] }, era.resultHead + era.cacheHead)];
    if (uri.startsWith(SKILL_URI_ROOT)) {
      const file = skills.read(uri);
      if (!file) return [rpcErrorBody(request.id, era.resourceNotFoundCode, `Resource not found: ${uri}`, { uri })];
      return [rpcResultBody(request.id, { contents: [file] }, era.resultHead + era.cacheHead)];
    }
    try {
      const contents = await canvasResources.read(uri, context.caller);
      if (!contents) return [rpcErrorBody(request.id, era.resourceNotFoundCode, `Resource not found: ${uri}`, { uri })];
      return [rpcResultBody(request.id, { contents: [contents] }, era.resultHead + era.privateHead)];
    } catch (error) {
      const canvasError = toCanvasError(error);
      if (canvasError.code === 'internal') context.log().error({ err: error }, 'resource read failed unexpectedly');
      context.outcome?.(canvasError);
      if (canvasError.code === 'not_found')
        return [rpcErrorBody(request.id, era.resourceNotFoundCode, canvasError.message, { uri })];
      if (canvasError.code === 'invalid_arguments')
        return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, canvasError.message, { uri })];
      return [refusalBody(request.id, canvasError)];
    }
  }

  async function callTool(request: JSONRPCRequest, context: DispatchContext): Promise<RpcReply> {
    const params = plainToolCall(request) ?? CallToolRequestSchema.safeParse(request).data?.params;
    if (!params) {
      return [
        rpcErrorBody(request.id, RPC_ERROR.invalidParams, 'Invalid tools/call params: expected { name, arguments }.'),
      ];
    }
    const { name } = params;
    const resolved = callerTools(request, context);
    if ('refusal' in resolved) return resolved.refusal;
    const tool = resolved.tools.byName.get(name);
    if (!tool) {
      const unknown = unknownTool(context.caller, name);
      return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, unknown.message, unknown.details)];
    }
    // The arguments as sent: the SDK's parse rebuilds objects, which would silently drop a "__proto__" key.
    const rawArguments = context.rawArguments ?? params.arguments ?? {};

    try {
      const checked = context.checkedArguments !== undefined;
      const bounds = checked ? null : jsonBoundsIssue(rawArguments);
      if (bounds) throw invalidArgumentsOf([bounds]);
      const outside = boundaryRefusal(context.caller, rawArguments);
      if (outside) throw new CanvasError('forbidden', outside);
      // Rights first, from project_id alone: a caller without them never makes the server validate a large body.
      if (tool.need !== null) {
        const scope = ProjectScope.safeParse(rawArguments);
        if (scope.success) await options.client.authorize(context.caller, scope.data.project_id, tool.need);
      }
      const args = checked
        ? { success: true as const, data: context.checkedArguments, error: undefined }
        : tool.input.safeParse(rawArguments);
      // Spec: "argument violates its schema … the call is rejected" before anything is forwarded.
      if (!args.success) throw invalidArguments(args.error, rawArguments);
      // A paid run an external agent submits on the 2026-07-28 era waits for its person's yes (src/mcp/spend-confirmation.ts).
      let caller = context.caller;
      if (tool.name === 'submit_canvas_node_run') {
        const gate = await spendConfirmation.gate(
          context.caller,
          // The params as sent: the SDK's schema drops the 2026-07-28 members inputResponses and requestState.
          request.params,
          args.data as SubmitCanvasNodeRunArgs,
          context.era.name === 'modern',
        );
        if (gate.kind === 'ask')
          return [
            rpcResultBody(
              request.id,
              gate.result,
              context.era.resultHead.replace('"resultType":"complete"', '"resultType":"input_required"'),
            ),
          ];
        if (gate.kind === 'declined') throw gate.error;
        // What the person said yes to bounds the run: one made dearer between the yes and the submission is refused.
        if (gate.ceiling !== undefined) caller = { ...caller, spendCeiling: gate.ceiling };
      }
      const answered = await tool.invoke(options.client, caller, args.data as never);
      const taskKind = TASK_TOOLS[tool.name];
      if (taskKind && asksForTask(request, context.era)) {
        // The run or export is started exactly as without a task; the client gets its task to poll instead.
        return [rpcResultBody(request.id, { task: taskOf(taskKind, answered) }, context.era.resultHead)];
      }
      const result = options.assetUrls.absolute(
        tool.name === 'get_canvas'
          ? await readChanges.decorate(context.caller, args.data as { project_id: string; canvas_id: string }, answered)
          : answered,
      );
      const payload = options.presence
        ? notePresence(options.presence, tool.name, args.data, context.caller, result)
        : result;
      const extra = tool.extraContent ? await tool.extraContent(options.client, payload.json) : [];
      const meta = tool.resultMeta ? tool.resultMeta(args.data as never, options.assetUrls, context.caller) : null;
      return toolSuccessReply(request.id, payload, context.era, extra, meta);
    } catch (error) {
      const canvasError = toCanvasError(error);
      if (canvasError.code === 'internal') context.log().error({ err: error }, 'tool call failed unexpectedly');
      context.outcome?.(canvasError);
      return toolErrorResult(request.id, canvasError, context.era);
    }
  }

  return {
    /**
     * Answers a tools/call whose arguments a worker thread found invalid (a large body, never parsed on this
     * thread): the caller's rights on the project come first, then the invalid arguments.
     */
    async refuseToolCall(
      id: JsonRpcId,
      refusal: { tool: string; fault: BodyFault; projectId: string | null },
      context: DispatchContext,
    ): Promise<RpcReply> {
      const tool = toolsOf(context.caller).byName.get(refusal.tool);
      if (!tool) {
        const unknown = unknownTool(context.caller, refusal.tool);
        return [rpcErrorBody(id, RPC_ERROR.invalidParams, unknown.message, unknown.details)];
      }
      let error = new CanvasError(refusal.fault.code, refusal.fault.message, refusal.fault.details);
      try {
        if (tool.need !== null && refusal.projectId !== null && ProjectId.safeParse(refusal.projectId).success) {
          await options.client.authorize(context.caller, refusal.projectId, tool.need);
        }
      } catch (caught) {
        error = toCanvasError(caught);
      }
      context.outcome?.(error);
      return toolErrorResult(id, error, context.era);
    },

    async dispatch(request: JSONRPCRequest, context: DispatchContext): Promise<RpcReply> {
      const { era } = context;
      if (!era.hasMethod(request.method)) {
        return [rpcErrorBody(request.id, RPC_ERROR.methodNotFound, `Method not found: ${request.method}`)];
      }
      switch (request.method) {
        case 'initialize':
          return initialize(request);
        case 'ping':
          return [rpcResultBody(request.id, {})];
        case 'server/discover':
          return discover(request, era);
        case 'tools/list': {
          const resolved = callerTools(request, context);
          if ('refusal' in resolved) return resolved.refusal;
          return [rpcResultBody(request.id, resolved.tools.listResult, era.resultHead + era.cacheHead)];
        }
        case 'tools/call':
          return callTool(request, context);
        case 'resources/list':
          return [
            rpcResultBody(
              request.id,
              { resources: [options.canvasApp.listing(), ...skills.listed] },
              era.resultHead + era.cacheHead,
            ),
          ];
        case 'tasks/get':
          return taskCall(request, context, async (taskId) =>
            rpcResultBody(request.id, await tasks.get(context.caller, taskId)),
          );
        case 'tasks/cancel':
          return taskCall(request, context, async (taskId) =>
            rpcResultBody(request.id, await tasks.cancel(context.caller, taskId)),
          );
        case 'tasks/result':
          return taskCall(request, context, async (taskId) => {
            const { payload } = await tasks.result(context.caller, taskId);
            // The record as get_canvas_node_run or get_export answers it, whatever its ending, tied to its task.
            const reply = toolSuccessReply(request.id, options.assetUrls.absolute(payload), context.era, [], {
              [RELATED_TASK_META]: { taskId },
            });
            return reply;
          });
        case 'skills/list':
          return [rpcResultBody(request.id, { skills: skills.entries }, era.resultHead + era.cacheHead)];
        case 'skills/get': {
          const params = SkillGetParams.safeParse(request.params);
          if (!params.success)
            return [rpcErrorBody(request.id, RPC_ERROR.invalidParams, 'Invalid skills/get params: expected { uri }.')];
          const skill = skills.get(params.data.uri);
          if (!skill)
            return [
              rpcErrorBody(request.id, RPC_ERROR.invalidParams, `No skill is served at ${params.data.uri}`, {
                uri: params.data.uri,
              }),
            ];
          return [rpcResultBody(request.id, { skill }, era.resultHead + era.cacheHead)];
        }
        case 'resources/templates/list':
          return [
            rpcResultBody(request.id, { resourceTemplates: CANVAS_RESOURCE_TEMPLATES }, era.resultHead + era.cacheHead),
          ];
        case 'resources/read':
          return readResource(request, context);
        case 'prompts/list':
          return [rpcResultBody(request.id, prompts.list(), era.resultHead + era.cacheHead)];
        case 'prompts/get':
          return promptCall(request, context, (params) =>
            prompts.get(context.caller, paramsOf(PromptGetParams, params, 'prompts/get')),
          );
        case 'completion/complete':
          return promptCall(request, context, (params) =>
            prompts.complete(context.caller, paramsOf(CompleteParams, params, 'completion/complete')),
          );
        default:
          return [rpcErrorBody(request.id, RPC_ERROR.methodNotFound, `Method not found: ${request.method}`)];
      }
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;

export function refusalBody(id: JsonRpcId, error: CanvasError): string {
  return rpcErrorBody(id, RPC_ERROR.serverRefusal, error.message, {
    code: error.code,
    retryable: error.retryable,
    ...error.details,
  });
}
