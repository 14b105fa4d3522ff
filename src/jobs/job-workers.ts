import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AssetStore, StagedAsset } from '../assets/asset-store.js';
import type { Logger } from '../shared/logger.js';
import type { HeartbeatAnswer, JobLease } from '../store/job-leases.js';

/**
 * Terminology (docs/architecture.md, "Jobs"). A **job** is work a worker does for a record in a job table (a node run, an
 * export). A worker **claims** the oldest queued job under a **lease** (its owner, the attempt, an expiry), keeps the
 * lease alive with **heartbeats** (which also carry progress and hear a cancel), and **finishes** the job in one
 * transaction that first checks it still holds the lease. A job stops early for one of four **stop reasons**: a
 * cancel, a lost lease, this process shutting down (the job is **given back**, its attempt not counted) or its
 * time running out. A worker that dies gives its job back when the lease expires: **recovery** puts it back in the
 * queue, or fails it once it has died too often.
 *
 * One machinery serves every kind of job, as graphile-worker serves every task from one claim: a kind supplies only
 * what differs (its store statements, what executing means, and the outcome of each way a job can end).
 */

export type StopReason = 'cancelled' | 'lease_lost' | 'shutdown' | 'timeout';

/** Why an execution was stopped early: the reason its AbortSignal carries. */
export class JobStop extends Error {
  constructor(readonly reason: StopReason) {
    super(`job stopped: ${reason}`);
    this.name = 'JobStop';
  }
}

export interface Progress {
  percent: number;
  message: string;
}

/** A claimed job as the machinery needs to see it. */
export interface ClaimedJob {
  id: string;
  attempt: number;
}

/** What an execution hands the machinery: the outcome to record and the files it staged to publish with it. */
export interface Executed<Outcome> {
  outcome: Outcome;
}

export interface ExecutionContext {
  signal: AbortSignal;
  log: Logger;
  /** Reports progress; the next heartbeat carries it to the record (and so to open pages). */
  progress(percent: number, message: string): void;
  /** The progress last reported (a cancelled job may be charged for the part that ran). */
  lastProgress(): Progress | null;
  /** Stages a file the job made: published in the transaction that records the outcome, discarded otherwise. */
  stage(assetId: string, key: string, bytes: Buffer): Promise<StagedAsset>;
}

/** What a kind of job supplies to the machinery. */
export interface JobKind<Job extends ClaimedJob, Outcome> {
  /** In worker ids and log lines: `run`, `export`. */
  name: string;
  /** The store's claim of the oldest queued job, or nothing. */
  claimNext(workerId: string, leaseMs: number): Promise<Job | undefined>;
  heartbeat(lease: JobLease, leaseMs: number, progress: Progress | null): Promise<HeartbeatAnswer>;
  /** Does the work; throws when it fails (or stops: the signal then says why). */
  execute(job: Job, context: ExecutionContext): Promise<Executed<Outcome>>;
  /** The outcome to record for a job cancelled or timed out, or one whose execution threw. */
  outcomeOf(
    job: Job,
    ended: { stop: 'cancelled' | 'timeout' } | { error: unknown },
    context: ExecutionContext,
  ): Outcome;
  /**
   * Records the outcome if the worker still holds the lease (false, nothing changed, when it lost it); `publish` runs
   * inside the transaction once the lease is confirmed, when the outcome keeps its files.
   */
  complete(lease: JobLease, outcome: Outcome, publish: () => void): Promise<boolean>;
  /** Gives the job back (this process is stopping): queued again without counting the attempt, or cancelled. */
  release(lease: JobLease): Promise<void>;
  /** Jobs whose worker stopped renewing its lease, put back or failed; how many went back to the queue. */
  recoverExpired(): Promise<number>;
  /** Told each outcome this process recorded (logs, metrics). */
  recorded?(job: Job, outcome: Outcome, log: Logger): void;
}

/** How a kind of job's workers keep time, as its engine is configured: each left out takes the kind's default. */
export interface JobTimings {
  /** Workers in this process; 0 runs none (a server whose jobs are done by `canvas-mcp worker`). */
  workers: number;
  leaseMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  timeoutMs?: number;
}

/**
 * The timings with their defaults: a lease of 10 s, heartbeats four to a lease and at least every 250 ms (a cancel
 * from another process is heard within one), and the kind's own poll and time limit.
 */
export function jobTimings(given: JobTimings, defaults: { pollMs: number; timeoutMs: number }): Required<JobTimings> {
  const leaseMs = given.leaseMs ?? 10_000;
  return {
    workers: given.workers,
    leaseMs,
    heartbeatMs: given.heartbeatMs ?? Math.min(250, Math.floor(leaseMs / 4)),
    pollMs: given.pollMs ?? defaults.pollMs,
    timeoutMs: given.timeoutMs ?? defaults.timeoutMs,
  };
}

export interface JobWorkerOptions extends Required<JobTimings> {
  logger: Logger;
  /** Where staged files are published (or discarded). */
  writer: AssetStore;
}

/** The workers of one kind of job in this process: claim, execute under a heartbeated lease, finish, recover. */
export function createJobWorkers<Job extends ClaimedJob, Outcome>(
  kind: JobKind<Job, Outcome>,
  options: JobWorkerOptions,
) {
  const { logger, writer, leaseMs, heartbeatMs, pollMs, timeoutMs } = options;
  const engineId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const executing = new Map<string, AbortController>();
  const sleepers = new Set<() => void>();
  let running = false;
  let loops: Array<Promise<void>> = [];
  let recoveryTimer: NodeJS.Timeout | undefined;

  function wakeAll(): void {
    for (const wake of [...sleepers]) wake();
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  }

  function stop(jobId: string, reason: StopReason): void {
    executing.get(jobId)?.abort(new JobStop(reason));
  }

  /**
   * Retries a store write while the database is away, for as long as the lease could still be valid: a job that
   * finished during a short outage is recorded once it is back, not executed again.
   */
  async function untilLeaseEnds<T>(write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + leaseMs;
    for (;;) {
      try {
        return await write();
      } catch (error) {
        if (Date.now() + heartbeatMs > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, heartbeatMs));
      }
    }
  }

  async function execute(job: Job, workerId: string): Promise<void> {
    const lease: JobLease = { jobId: job.id, workerId, attempt: job.attempt };
    const log = logger.child({ [`${kind.name}_id`]: job.id, attempt: job.attempt, worker: workerId });
    const controller = new AbortController();
    executing.set(job.id, controller);
    let progress: Progress | null = null;
    const staged: StagedAsset[] = [];
    const context: ExecutionContext = {
      signal: controller.signal,
      log,
      progress: (percent, message) => {
        progress = { percent: Math.max(0, Math.min(100, percent)), message };
      },
      lastProgress: () => progress,
      stage: async (assetId, key, bytes) => {
        const file = await writer.stage(assetId, key, bytes);
        staged.push(file);
        return file;
      },
    };
    const timeout = setTimeout(() => controller.abort(new JobStop('timeout')), timeoutMs);
    // Heartbeats renew the lease and carry progress; one at a time, never overlapping.
    let heartbeatTimer: NodeJS.Timeout | undefined;
    const heartbeat = async (): Promise<void> => {
      if (controller.signal.aborted) return;
      try {
        const answer = await kind.heartbeat(lease, leaseMs, progress);
        if (answer === 'lost') controller.abort(new JobStop('lease_lost'));
        if (answer === 'cancel_requested') controller.abort(new JobStop('cancelled'));
      } catch (error) {
        log.warn({ err: error }, `${kind.name} heartbeat failed`);
      }
      if (!controller.signal.aborted) heartbeatTimer = setTimeout(() => void heartbeat(), heartbeatMs);
    };
    heartbeatTimer = setTimeout(() => void heartbeat(), heartbeatMs);

    let ended: { kind: 'outcome'; outcome: Outcome } | { kind: 'lost' } | { kind: 'release' };
    try {
      ended = { kind: 'outcome', outcome: (await kind.execute(job, context)).outcome };
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as unknown) : null;
      const stopped = reason instanceof JobStop ? reason.reason : null;
      if (stopped === 'lease_lost') ended = { kind: 'lost' };
      else if (stopped === 'shutdown') ended = { kind: 'release' };
      else
        ended = {
          kind: 'outcome',
          outcome: kind.outcomeOf(job, stopped ? { stop: stopped } : { error }, context),
        };
    } finally {
      clearTimeout(timeout);
      clearTimeout(heartbeatTimer);
      executing.delete(job.id);
    }

    let published = false;
    try {
      if (ended.kind === 'lost') log.warn(`lease lost: another worker owns this ${kind.name} now; nothing recorded`);
      else if (ended.kind === 'release') await kind.release(lease);
      else {
        const { outcome } = ended;
        const recorded = await untilLeaseEnds(() =>
          kind.complete(lease, outcome, () => {
            writer.publish(staged);
            published = true;
          }),
        );
        if (!recorded) log.warn('lease lost before completion: nothing recorded, nothing published');
        else kind.recorded?.(job, outcome, log);
      }
    } finally {
      // Published files were renamed away (and other stores' published keys are named by their rows); whatever is
      // left was never published.
      if (staged.length > 0 && (!published || writer.storage === 'local'))
        await writer.discard(staged).catch(() => undefined);
    }
  }

  async function loop(workerId: string): Promise<void> {
    while (running) {
      let job: Job | undefined;
      try {
        job = await kind.claimNext(workerId, leaseMs);
        if (job && !running) {
          await kind.release({ jobId: job.id, workerId, attempt: job.attempt });
          break;
        }
        if (job) await execute(job, workerId);
        else await sleep(pollMs);
      } catch (error) {
        // The store failed (unreachable, say): this worker keeps going after a pause. A job it held is recovered
        // when its lease expires.
        logger.error(
          { err: error, worker: workerId, [`${kind.name}_id`]: job?.id },
          `${kind.name} worker step failed; retrying`,
        );
        await sleep(pollMs);
      }
    }
  }

  async function recover(): Promise<void> {
    try {
      if ((await kind.recoverExpired()) > 0) wakeAll();
    } catch (error) {
      logger.error({ err: error }, `${kind.name} recovery failed`);
    }
  }

  return {
    engineId,
    async start(): Promise<void> {
      if (running || options.workers === 0) return;
      running = true;
      await recover();
      recoveryTimer = setInterval(() => void recover(), Math.max(Math.floor(leaseMs / 2), 100));
      loops = Array.from({ length: options.workers }, (_, index) => loop(`${engineId}:${kind.name}:${index}`));
    },
    /** Whether the workers run (started, not stopped). */
    get running(): boolean {
      return running;
    },
    /** A job was queued: wake a worker now. */
    wake: wakeAll,
    /** A cancel was requested: stop the execution at once if it runs here. */
    cancel(jobId: string): void {
      stop(jobId, 'cancelled');
    },
    /** Stops claiming; jobs in progress are given back (queued again, or cancelled if that was requested). */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      clearInterval(recoveryTimer);
      for (const jobId of executing.keys()) stop(jobId, 'shutdown');
      wakeAll();
      await Promise.all(loops);
    },
  };
}

export type JobWorkers = ReturnType<typeof createJobWorkers>;
