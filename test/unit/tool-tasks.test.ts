import { describe, expect, it } from 'vitest';
import { parseTaskId, taskOf } from '../../src/mcp/tool-tasks.js';
import { jsonPayload } from '../../src/shared/json-payload.js';

/** A run's or an export's record read as a 2025-11-25 task (src/mcp/tool-tasks.ts): the record is the truth. */

const run = (status: string, extra: Record<string, unknown> = {}) =>
  jsonPayload({
    run_id: 'run_1',
    project_id: 'p1',
    canvas_id: 'c1',
    status,
    created_at: '2026-11-28T10:00:00.000Z',
    updated_at: '2026-11-28T10:00:05.000Z',
    error: null,
    ...extra,
  });

describe('tasks from run and export records', () => {
  it('maps every run status, keeping a requested cancel working with a message, since the generation may still finish', () => {
    const statuses = Object.fromEntries(
      ['queued', 'running', 'cancel_requested', 'succeeded', 'failed', 'cancelled'].map((status) => [
        status,
        taskOf('run', run(status)).status,
      ]),
    );
    expect(statuses).toEqual({
      queued: 'working',
      running: 'working',
      cancel_requested: 'working',
      succeeded: 'completed',
      failed: 'failed',
      cancelled: 'cancelled',
    });
    expect(taskOf('run', run('cancel_requested')).statusMessage).toMatch(/may still finish/);
    expect(taskOf('run', run('failed', { error: { code: 'provider', message: 'The model refused.' } }))).toMatchObject({
      statusMessage: 'The model refused.',
      lastUpdatedAt: '2026-11-28T10:00:05.000Z',
      ttl: null,
    });
  });

  it('names the record in the task id, and reads only ids whose every part the contract accepts', () => {
    const task = taskOf('run', run('queued'));
    expect(task.taskId).toBe('run/p1/c1/run_1');
    expect(parseTaskId(task.taskId)).toEqual({ kind: 'run', project_id: 'p1', canvas_id: 'c1', id: 'run_1' });
    for (const forged of ['run/p1/c1', 'run/p1/c1/run_1/x', 'job/p1/c1/x', 'run/p1/c 1/run_1', 'run/p1/c1/..'])
      expect(() => parseTaskId(forged), forged).toThrow(/No task is known/);
  });
});
