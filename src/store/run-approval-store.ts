import { z } from 'zod';
import { insertRow } from './row-statements.js';
import { bumpStatesVersion } from './run-store.js';
import type { SqlDriver } from './sql-driver.js';

/** Paid runs of external agents waiting for a person's yes (migrations/029_run_approvals.sql). */

const ApprovalRow = z.object({
  id: z.string(),
  project_id: z.string(),
  canvas_id: z.string(),
  node_id: z.string(),
  token_id: z.string(),
  agent_name: z.string(),
  idempotency_key: z.string(),
  estimate: z.coerce.number(),
  status: z.enum(['pending', 'approved', 'declined']),
  requested_at: z.coerce.number(),
  decided_by: z.string().nullable(),
  decided_at: z.coerce.number().nullable(),
});

export type StoredRunApproval = z.infer<typeof ApprovalRow>;

const COLUMNS =
  'id, project_id, canvas_id, node_id, token_id, agent_name, idempotency_key, estimate, status, requested_at, decided_by, decided_at';

export function createRunApprovalStore(driver: SqlDriver, clock: () => number) {
  const parse = (row: unknown) => ApprovalRow.parse(row);
  return {
    /**
     * The approval of one submission (token, canvas, node and idempotency key), asked for once. A person's yes holds
     * for the estimate they saw: asked again for a dearer run (the node changed since), the approval is pending again
     * with the new estimate, in one guarded statement.
     */
    async ask(request: {
      id: string;
      projectId: string;
      canvasId: string;
      nodeId: string;
      tokenId: string;
      agentName: string;
      idempotencyKey: string;
      estimate: number;
    }): Promise<StoredRunApproval> {
      const find = () =>
        driver.get(
          `SELECT ${COLUMNS} FROM run_approvals WHERE token_id = ? AND project_id = ? AND canvas_id = ? AND node_id = ? AND idempotency_key = ?`,
          [request.tokenId, request.projectId, request.canvasId, request.nodeId, request.idempotencyKey],
        );
      const known = await find();
      if (known) {
        const approval = parse(known);
        if (approval.status === 'declined' || request.estimate <= approval.estimate) return approval;
        await driver.transaction(async (tx) => {
          const changed = await tx.run(
            `UPDATE run_approvals SET status = 'pending', estimate = ?, decided_by = NULL, decided_at = NULL, requested_at = ?
               WHERE id = ? AND status <> 'declined' AND estimate < ?`,
            [request.estimate, clock(), approval.id, request.estimate],
          );
          if (changed.changes > 0) await bumpStatesVersion(driver, tx, request.projectId, request.canvasId);
        });
        return parse(await find());
      }
      await driver.transaction(async (tx) => {
        await insertRow(
          tx,
          'run_approvals',
          {
            id: request.id,
            project_id: request.projectId,
            canvas_id: request.canvasId,
            node_id: request.nodeId,
            token_id: request.tokenId,
            agent_name: request.agentName,
            idempotency_key: request.idempotencyKey,
            estimate: request.estimate,
            status: 'pending',
            requested_at: clock(),
          },
          'ON CONFLICT DO NOTHING',
        );
        // Open pages hear of it with the canvas's run states.
        await bumpStatesVersion(driver, tx, request.projectId, request.canvasId);
      });
      return parse(await find());
    },

    async list(
      projectId: string,
      canvasId: string,
      status: StoredRunApproval['status'] | null,
    ): Promise<StoredRunApproval[]> {
      const rows = await driver.all(
        `SELECT ${COLUMNS} FROM run_approvals WHERE project_id = ? AND canvas_id = ?${status ? ' AND status = ?' : ''}
           ORDER BY requested_at DESC, id DESC LIMIT 100`,
        status ? [projectId, canvasId, status] : [projectId, canvasId],
      );
      return rows.map(parse);
    },

    /** A person's answer to a pending approval; false when it was already answered (or is not there). */
    async decide(
      projectId: string,
      canvasId: string,
      id: string,
      decision: 'approved' | 'declined',
      decidedBy: string,
    ): Promise<boolean> {
      return driver.transaction(async (tx) => {
        const changed = await tx.run(
          "UPDATE run_approvals SET status = ?, decided_by = ?, decided_at = ? WHERE project_id = ? AND canvas_id = ? AND id = ? AND status = 'pending'",
          [decision, decidedBy, clock(), projectId, canvasId, id],
        );
        if (changed.changes > 0) await bumpStatesVersion(driver, tx, projectId, canvasId);
        return changed.changes > 0;
      });
    },
  };
}

export type RunApprovalStore = ReturnType<typeof createRunApprovalStore>;
