import { z } from 'zod';
import { CanvasId, ProjectId, ResourceId, RunId } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import type { JsonPayload } from '../shared/json-payload.js';
import type { BackendClient, ToolCaller } from './backend-client.js';

/**
 * Tasks (MCP 2025-11-25, "Tasks", experimental): a paid run or an export started as a task the client polls and
 * cancels. A task is not a second record: its id names the run or the export (kind, project, canvas, id), and every
 * `tasks/*` request reads or cancels that record with the caller's own rights, through the same backend calls the
 * tools make. So the run stays the truth, a cancel is the run's cancel, and nothing is kept that could drift.
 *
 * Only a client that declares the 2025-11-25 revision and sends `task` in its `tools/call` gets a task; every other
 * call answers exactly as before.
 */

/** The revision that defines tasks; 2026-07-28 moved them to an extension (SEP-2663) no official client speaks yet. */
export const TASKS_PROTOCOL_VERSION = '2025-11-25';

/** What `initialize` declares at that revision: task-augmented tools/call, and tasks/cancel. */
export const TASKS_CAPABILITY = { cancel: {}, requests: { tools: { call: {} } } } as const;

export type TaskKind = 'run' | 'export';

/** The tools that may answer as a task, and the record each one starts. */
export const TASK_TOOLS: Readonly<Record<string, TaskKind>> = {
  submit_canvas_node_run: 'run',
  export_board: 'export',
};

/** How often a client should ask again: a generation or an export takes seconds, not milliseconds. */
const POLL_INTERVAL_MS = 1000;
/** How long tasks/result waits for the record to end before answering the task as it stands. */
const RESULT_WAIT_MS = 50_000;
const RESULT_POLL_MS = 200;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface Task {
  taskId: string;
  status: TaskStatus;
  ttl: null; // the record is kept as long as the project keeps it
  createdAt: string;
  lastUpdatedAt: string;
  pollInterval: number;
  statusMessage?: string;
}

interface TaskRef {
  kind: TaskKind;
  project_id: string;
  canvas_id: string;
  id: string;
}

/** The fields of a run or an export record a task is made of; both records have more, which stays in the result. */
const RecordFacts = z.looseObject({
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string().optional(),
  finished_at: z.string().nullable().optional(),
  project_id: z.string(),
  canvas_id: z.string(),
  run_id: z.string().optional(),
  export_id: z.string().optional(),
  error: z.looseObject({ message: z.string() }).nullable().optional(),
});
type RecordFacts = z.infer<typeof RecordFacts>;

/** A run's or an export's status as a task's: queued, running and cancel_requested are all still working. */
function taskStatusOf(status: string): TaskStatus {
  if (status === 'succeeded') return 'completed';
  if (status === 'failed' || status === 'cancelled') return status;
  return 'working';
}

export const isTerminalTask = (status: TaskStatus) =>
  status === 'completed' || status === 'failed' || status === 'cancelled';

/** Never part of an id (the contract forbids it in every one), so a task id splits back into exactly its parts. */
const SEPARATOR = '/';

function taskIdOf(ref: TaskRef): string {
  return [ref.kind, ref.project_id, ref.canvas_id, ref.id].join(SEPARATOR);
}

/** Reads a task id back; its parts are identifiers the contract checks, so a forged id names nothing it should not. */
export function parseTaskId(taskId: string): TaskRef {
  const [kind, project_id, canvas_id, id, ...rest] = taskId.split(SEPARATOR);
  const parts = z
    .object({
      kind: z.enum(['run', 'export']),
      project_id: ProjectId,
      canvas_id: CanvasId,
      id: kind === 'run' ? RunId : ResourceId,
    })
    .safeParse({ kind, project_id, canvas_id, id });
  if (!parts.success || rest.length > 0)
    throw new CanvasError('invalid_arguments', `No task is known by the id "${taskId.slice(0, 200)}".`);
  return parts.data;
}

function factsOf(payload: JsonPayload): RecordFacts {
  return RecordFacts.parse(JSON.parse(payload.json));
}

export function taskOf(kind: TaskKind, payload: JsonPayload): Task {
  const record = factsOf(payload);
  const id = kind === 'run' ? record.run_id : record.export_id;
  if (!id) throw new Error(`a ${kind} record without its id`);
  const status = taskStatusOf(record.status);
  const message =
    record.status === 'cancel_requested'
      ? 'Cancel requested: the generation may still finish; ask again for the final state.'
      : record.error?.message;
  return {
    taskId: taskIdOf({ kind, project_id: record.project_id, canvas_id: record.canvas_id, id }),
    status,
    ttl: null,
    createdAt: record.created_at,
    lastUpdatedAt: record.updated_at ?? record.finished_at ?? record.created_at,
    pollInterval: POLL_INTERVAL_MS,
    ...(message ? { statusMessage: message } : {}),
  };
}

/** tasks/get, tasks/result and tasks/cancel, each through the backend with the caller's rights. */
export function createToolTasks(client: BackendClient) {
  const read = (caller: ToolCaller, ref: TaskRef): Promise<JsonPayload> =>
    ref.kind === 'run'
      ? client.getRun(caller, { project_id: ref.project_id, canvas_id: ref.canvas_id, run_id: ref.id })
      : client.getExport(caller, { project_id: ref.project_id, canvas_id: ref.canvas_id, export_id: ref.id });

  return {
    async get(caller: ToolCaller, taskId: string): Promise<Task> {
      const ref = parseTaskId(taskId);
      return taskOf(ref.kind, await read(caller, ref));
    },

    /**
     * The record once it has ended (the spec's tasks/result blocks until the task is terminal). Clients ask only
     * after tasks/get said it ended; a client that asks early waits, up to RESULT_WAIT_MS, then gets the record as it
     * stands, which is still a true answer.
     */
    async result(
      caller: ToolCaller,
      taskId: string,
      signal?: AbortSignal,
    ): Promise<{ kind: TaskKind; task: Task; payload: JsonPayload }> {
      const ref = parseTaskId(taskId);
      const deadline = Date.now() + RESULT_WAIT_MS;
      for (;;) {
        const payload = await read(caller, ref);
        const task = taskOf(ref.kind, payload);
        if (isTerminalTask(task.status) || Date.now() >= deadline || signal?.aborted)
          return { kind: ref.kind, task, payload };
        await new Promise((resolve) => setTimeout(resolve, RESULT_POLL_MS));
      }
    },

    /**
     * The run's or export's own cancel. A task that already ended is refused, as the revision says. A run that was
     * running answers `cancel_requested`, which stays `working` here with a message: the generation may still finish,
     * and a task's status never claims more than its record (SEP-2663 makes the same choice).
     */
    async cancel(caller: ToolCaller, taskId: string): Promise<Task> {
      const ref = parseTaskId(taskId);
      const before = taskOf(ref.kind, await read(caller, ref));
      if (isTerminalTask(before.status))
        throw new CanvasError('invalid_arguments', `The task ${taskId} already ended (${before.status}).`);
      if (ref.kind === 'run')
        await client.cancelRun(caller, { project_id: ref.project_id, canvas_id: ref.canvas_id, run_id: ref.id });
      else
        await client.cancelExport(caller, {
          project_id: ref.project_id,
          canvas_id: ref.canvas_id,
          export_id: ref.id,
        });
      return taskOf(ref.kind, await read(caller, ref));
    },
  };
}

export type ToolTasks = ReturnType<typeof createToolTasks>;

/** The `task` member of a tools/call's params, when the client asked for one. */
export const TaskRequest = z.looseObject({ ttl: z.number().int().nonnegative().optional() });
