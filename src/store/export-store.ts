import { z } from 'zod';
import { bumpStatesVersion } from './run-store.js';
import { insertRow } from './row-statements.js';
import type { AssetStorage } from './records.js';
import { jobLeases, type JobLease } from './job-leases.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import type { StoredAssetKind } from './asset-records.js';

/**
 * Export jobs (migrations/027_exports_and_share_links.sql): queued by a person, claimed by a worker under a lease
 * renewed by heartbeats (as node runs are, without chains or costs), finished with the file recorded as an asset in the
 * same transaction. Every change of a job bumps its canvas's states version, which is what tells open pages (the feed).
 */

export const EXPORT_STATUSES = ['queued', 'running', 'cancel_requested', 'succeeded', 'failed', 'cancelled'] as const;
export type StoredExportStatus = (typeof EXPORT_STATUSES)[number];

const ExportRow = z.object({
  id: z.string(),
  project_id: z.string(),
  canvas_id: z.string(),
  node_id: z.string(),
  kind: z.string(),
  options: z.string(),
  revision: z.coerce.number(),
  status: z.enum(EXPORT_STATUSES),
  progress_percent: z.coerce.number().nullable(),
  progress_message: z.string().nullable(),
  created_by: z.string(),
  created_by_name: z.string(),
  created_at: z.coerce.number(),
  finished_at: z.coerce.number().nullable(),
  attempt: z.coerce.number(),
  asset_id: z.string().nullable(),
  file_name: z.string().nullable(),
  byte_size: z.coerce.number().nullable(),
  mime_type: z.string().nullable(),
  warnings: z.string(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
});

export interface StoredExport {
  id: string;
  projectId: string;
  canvasId: string;
  nodeId: string;
  kind: string;
  options: Record<string, unknown>;
  revision: number;
  status: StoredExportStatus;
  progress: { percent: number | null; message: string | null };
  /** The person's id (the subject of their session), and their name in words. */
  createdBy: string;
  createdByName: string;
  createdAt: number;
  finishedAt: number | null;
  attempt: number;
  file: { assetId: string; name: string; bytes: number; contentType: string } | null;
  warnings: string[];
  error: { code: string; message: string } | null;
}

const COLUMNS = `e.id, e.project_id, e.canvas_id, e.node_id, e.kind, e.options, e.revision, e.status, e.progress_percent,
  e.progress_message, e.created_by, e.created_by_name, e.created_at, e.finished_at, e.attempt, e.asset_id, e.file_name,
  a.byte_size, a.mime_type, e.warnings, e.error_code, e.error_message`;
const FROM = 'FROM export_jobs e LEFT JOIN assets a ON a.id = e.asset_id';

function parse(row: unknown): StoredExport {
  const r = ExportRow.parse(row);
  return {
    id: r.id,
    projectId: r.project_id,
    canvasId: r.canvas_id,
    nodeId: r.node_id,
    kind: r.kind,
    options: z.record(z.string(), z.unknown()).parse(JSON.parse(r.options)),
    revision: r.revision,
    status: r.status,
    progress: { percent: r.progress_percent, message: r.progress_message },
    createdBy: r.created_by,
    createdByName: r.created_by_name,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    attempt: r.attempt,
    file:
      r.asset_id && r.file_name
        ? { assetId: r.asset_id, name: r.file_name, bytes: r.byte_size ?? 0, contentType: r.mime_type ?? '' }
        : null,
    warnings: z.array(z.string()).parse(JSON.parse(r.warnings)),
    error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  };
}

/** A worker's hold on a job (src/store/job-leases.ts). */
export type ExportLease = JobLease;

/** The file a finished export made, staged by the worker and recorded as an asset when the job completes. */
export interface ExportAsset {
  assetId: string;
  kind: StoredAssetKind;
  mimeType: string;
  byteSize: number;
  storage: AssetStorage;
  storageKey: string | null;
  fileName: string;
}

export type ExportOutcome =
  | { status: 'succeeded'; asset: ExportAsset; warnings: string[] }
  | { status: 'failed'; error: { code: string; message: string } }
  | { status: 'cancelled' };

/** How many exports one person, and one project, may have queued or running at once. */
export interface ExportCaps {
  perPerson: number;
  perProject: number;
}

/** Why an export was not queued: the person or the project already has `limit` under way. */
export interface ExportsFull {
  scope: 'person' | 'project';
  active: number;
  limit: number;
}

const ACTIVE = "status IN ('queued', 'running', 'cancel_requested')";
// Any constant: the first key of the PostgreSQL advisory locks that take one person's exports one at a time.
const PERSON_EXPORTS_LOCK = 7_270_735;

/** Jobs a worker stopped renewing are given back this many times before they fail (a file that crashes a worker). */
const MAX_ATTEMPTS = 3;

export function createExportStore(driver: SqlDriver, clock: () => number) {
  // Locks only the job's row (PostgreSQL refuses to lock the outer join's nullable side).
  const lockJob = driver.forUpdate ? ' FOR UPDATE OF e' : '';

  async function touched(tx: SqlExecutor, projectId: string, canvasId: string): Promise<void> {
    await bumpStatesVersion(driver, tx, projectId, canvasId);
  }

  const leases = jobLeases(driver, { name: 'export_jobs', order: 'j.created_at, j.id' });

  async function leased(tx: SqlExecutor, lease: ExportLease): Promise<StoredExport | undefined> {
    const row = await tx.get(`SELECT ${COLUMNS} ${FROM} WHERE e.id = ? AND ${leases.guard('e')}${lockJob}`, [
      lease.jobId,
      ...leases.params(lease),
    ]);
    return row ? parse(row) : undefined;
  }

  return {
    async create(
      job: Pick<
        StoredExport,
        'id' | 'projectId' | 'canvasId' | 'nodeId' | 'kind' | 'options' | 'revision' | 'createdBy' | 'createdByName'
      > & { source: unknown },
      caps: ExportCaps,
    ): Promise<{ created: StoredExport } | { full: ExportsFull }> {
      const createdAt = clock();
      const full = await driver.transaction(async (tx): Promise<ExportsFull | null> => {
        // Counted and inserted under locks on the person and the project (SQLite's writer is one at a time already),
        // so two exports started at once cannot both take the last place.
        if (driver.dialect === 'postgres')
          await tx.get(`SELECT pg_advisory_xact_lock(${PERSON_EXPORTS_LOCK}, hashtext(?))`, [job.createdBy]);
        await tx.get(`SELECT id FROM projects WHERE id = ?${driver.forUpdate}`, [job.projectId]);
        const counted = async (where: string, value: string) =>
          Number((await tx.get(`SELECT COUNT(*) AS n FROM export_jobs WHERE ${where} = ? AND ${ACTIVE}`, [value]))?.n);
        const person = await counted('created_by', job.createdBy);
        if (person >= caps.perPerson) return { scope: 'person', active: person, limit: caps.perPerson };
        const project = await counted('project_id', job.projectId);
        if (project >= caps.perProject) return { scope: 'project', active: project, limit: caps.perProject };
        await insertRow(tx, 'export_jobs', {
          id: job.id,
          project_id: job.projectId,
          canvas_id: job.canvasId,
          node_id: job.nodeId,
          kind: job.kind,
          options: JSON.stringify(job.options),
          source: JSON.stringify(job.source),
          revision: job.revision,
          status: 'queued',
          created_by: job.createdBy,
          created_by_name: job.createdByName,
          created_at: createdAt,
        });
        await touched(tx, job.projectId, job.canvasId);
        return null;
      });
      return full ? { full } : { created: (await this.get(job.projectId, job.canvasId, job.id))! };
    },

    async get(projectId: string, canvasId: string, id: string): Promise<StoredExport | undefined> {
      const row = await driver.get(
        `SELECT ${COLUMNS} ${FROM} WHERE e.project_id = ? AND e.canvas_id = ? AND e.id = ?`,
        [projectId, canvasId, id],
      );
      return row ? parse(row) : undefined;
    },

    /** The newest first, at most `limit`. */
    async list(projectId: string, canvasId: string, limit = 50): Promise<StoredExport[]> {
      const rows = await driver.all(
        `SELECT ${COLUMNS} ${FROM} WHERE e.project_id = ? AND e.canvas_id = ? ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
        [projectId, canvasId, limit],
      );
      return rows.map(parse);
    },

    /** What a job renders, as queued (src/exports/board-source.ts parses it). */
    async source(id: string): Promise<unknown> {
      const row = await driver.get('SELECT source FROM export_jobs WHERE id = ?', [id]);
      return row ? JSON.parse(z.object({ source: z.string() }).parse(row).source) : undefined;
    },

    /** Asks the worker to stop; a queued job is cancelled at once. False when the job has already finished. */
    async requestCancel(projectId: string, canvasId: string, id: string): Promise<boolean> {
      return driver.transaction(async (tx) => {
        const queued = await tx.run(
          "UPDATE export_jobs SET status = 'cancelled', finished_at = ? WHERE project_id = ? AND canvas_id = ? AND id = ? AND status = 'queued'",
          [clock(), projectId, canvasId, id],
        );
        const running = await tx.run(
          "UPDATE export_jobs SET status = 'cancel_requested' WHERE project_id = ? AND canvas_id = ? AND id = ? AND status = 'running'",
          [projectId, canvasId, id],
        );
        const changed = queued.changes + running.changes > 0;
        if (changed) await touched(tx, projectId, canvasId);
        return changed;
      });
    },

    /** Takes the oldest queued job, or nothing. Safe with any number of workers and processes. */
    claimNext(workerId: string, leaseMs: number): Promise<StoredExport | undefined> {
      return driver.transaction(async (tx) => {
        const id = await leases.nextQueued(tx);
        if (!id) return undefined;
        const claimed = await leases.claim(
          tx,
          id,
          { workerId, expiresAt: clock() + leaseMs },
          { assignments: 'progress_percent = 0, progress_message = NULL', params: [] },
        );
        if (!claimed) return undefined;
        const row = parse(await tx.get(`SELECT ${COLUMNS} ${FROM} WHERE e.id = ?`, [id]));
        await touched(tx, row.projectId, row.canvasId);
        return row;
      });
    },

    /** Extends the lease and records progress: whether to go on, stop (cancel requested) or give up (lost). */
    heartbeat(
      lease: ExportLease,
      leaseMs: number,
      progress: { percent: number; message: string } | null,
    ): Promise<'running' | 'cancel_requested' | 'lost'> {
      return driver.transaction(async (tx) => {
        const job = await leased(tx, lease);
        if (!job) return 'lost';
        const changed =
          progress !== null && (progress.percent !== job.progress.percent || progress.message !== job.progress.message);
        await leases.extend(tx, lease, clock() + leaseMs, {
          assignments: 'progress_percent = ?, progress_message = ?',
          params: [
            changed ? progress.percent : job.progress.percent,
            changed ? progress.message : job.progress.message,
          ],
        });
        if (changed) await touched(tx, job.projectId, job.canvasId);
        return job.status === 'cancel_requested' ? 'cancel_requested' : 'running';
      });
    },

    /**
     * Finishes a job the worker still holds (false, with nothing changed, when it lost the lease). A job whose cancel
     * was requested is recorded cancelled even if its file was made: `publish` then never runs, and no asset is left.
     */
    complete(lease: ExportLease, outcome: ExportOutcome, publish: () => void): Promise<boolean> {
      return driver.transaction(async (tx) => {
        const job = await leased(tx, lease);
        if (!job) return false;
        const now = clock();
        const final: ExportOutcome = job.status === 'cancel_requested' ? { status: 'cancelled' } : outcome;
        if (final.status === 'succeeded') {
          publish();
          const { asset } = final;
          await insertRow(tx, 'assets', {
            id: asset.assetId,
            project_id: job.projectId,
            canvas_id: job.canvasId,
            run_id: null,
            kind: asset.kind,
            mime_type: asset.mimeType,
            byte_size: asset.byteSize,
            created_at: now,
            storage: asset.storage,
            storage_key: asset.storageKey,
            uploaded_by: JSON.stringify({ export: job.id, person: job.createdBy }),
            file_name: asset.fileName,
          });
          await tx.run(
            `UPDATE export_jobs SET status = 'succeeded', finished_at = ?, asset_id = ?, file_name = ?, warnings = ?,
               progress_percent = 100, lease_owner = NULL, lease_expires_at = NULL WHERE id = ?`,
            [now, asset.assetId, asset.fileName, JSON.stringify(final.warnings), job.id],
          );
        } else {
          await tx.run(
            `UPDATE export_jobs SET status = ?, finished_at = ?, error_code = ?, error_message = ?, lease_owner = NULL,
               lease_expires_at = NULL WHERE id = ?`,
            [
              final.status,
              now,
              final.status === 'failed' ? final.error.code : null,
              final.status === 'failed' ? final.error.message : null,
              job.id,
            ],
          );
        }
        await touched(tx, job.projectId, job.canvasId);
        return true;
      });
    },

    /** Gives a job back to the queue (this process is stopping): another worker takes it up. */
    async release(lease: ExportLease): Promise<void> {
      await driver.transaction(async (tx) => {
        const job = await leased(tx, lease);
        if (!job) return;
        const cancelled = job.status === 'cancel_requested';
        // A stopping process gives the attempt back: only workers that died count towards failing the job.
        await tx.run(
          `UPDATE export_jobs SET status = ?, finished_at = ?, lease_owner = NULL, lease_expires_at = NULL,
             attempt = attempt - 1 WHERE id = ?`,
          [cancelled ? 'cancelled' : 'queued', cancelled ? clock() : null, job.id],
        );
        await touched(tx, job.projectId, job.canvasId);
      });
    },

    /**
     * Jobs whose worker stopped renewing its lease (it died): queued again, or failed after MAX_ATTEMPTS, or cancelled
     * when that was asked. Returns how many went back to the queue.
     */
    recoverExpired(): Promise<number> {
      return driver.transaction(async (tx) => {
        const now = clock();
        const rows = (
          await leases.expired(tx, now, { columns: COLUMNS, from: FROM.slice('FROM '.length), alias: 'e' })
        ).map(parse);
        let requeued = 0;
        for (const job of rows) {
          const next =
            job.status === 'cancel_requested' ? 'cancelled' : job.attempt >= MAX_ATTEMPTS ? 'failed' : 'queued';
          if (next === 'queued') requeued += 1;
          await tx.run(
            `UPDATE export_jobs SET status = ?, lease_owner = NULL, lease_expires_at = NULL, finished_at = ?,
               error_code = ?, error_message = ? WHERE id = ?`,
            [
              next,
              next === 'queued' ? null : now,
              next === 'failed' ? 'worker_lost' : null,
              next === 'failed' ? `The export stopped ${MAX_ATTEMPTS} times without finishing.` : null,
              job.id,
            ],
          );
          await touched(tx, job.projectId, job.canvasId);
        }
        return requeued;
      });
    },

    /** The project's and canvas's titles (printed on exports), their ids when they have none. */
    async titles(projectId: string, canvasId: string): Promise<{ project: string; canvas: string }> {
      const row = await driver.get(
        `SELECT p.title AS project_title, c.title AS canvas_title FROM projects p JOIN canvases c ON c.project_id = p.id
           WHERE p.id = ? AND c.id = ?`,
        [projectId, canvasId],
      );
      const titles = z
        .object({ project_title: z.string().nullable(), canvas_title: z.string().nullable() })
        .optional()
        .parse(row);
      return { project: titles?.project_title ?? projectId, canvas: titles?.canvas_title ?? canvasId };
    },

    /** The state of a canvas's recent jobs, keyed by id (the feed tells open pages what changed). */
    async recentStates(projectId: string, canvasId: string): Promise<Map<string, string>> {
      const rows = await driver.all(
        `SELECT id, status, progress_percent, progress_message, finished_at FROM export_jobs
           WHERE project_id = ? AND canvas_id = ? ORDER BY created_at DESC, id DESC LIMIT 20`,
        [projectId, canvasId],
      );
      return new Map(
        rows.map((row) => {
          const r = z
            .object({
              id: z.string(),
              status: z.string(),
              progress_percent: z.coerce.number().nullable(),
              progress_message: z.string().nullable(),
            })
            .parse(row);
          return [
            r.id,
            JSON.stringify({
              export_id: r.id,
              status: r.status === 'cancel_requested' ? 'running' : r.status,
              progress: { percent: r.progress_percent, message: r.progress_message },
            }),
          ];
        }),
      );
    },
  };
}

export type ExportStore = ReturnType<typeof createExportStore>;
