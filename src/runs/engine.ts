import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RunReferenceInput, type RunOperation, type RunOutput, type SkillId } from '../contract/index.js';
import type { Logger } from '../shared/logger.js';
import type { AssetRecord } from '../store/asset-records.js';
import type { Lease, RunOutcome } from '../store/run-claims.js';
import { RunResources, type RunRow } from '../store/run-rows.js';
import type { Store } from '../store/store.js';
import type { Assets } from '../assets/assets.js';
import type { StagedAsset } from '../assets/asset-store.js';
import { assetUrl } from './asset-files.js';
import { ProviderError, type ProducedAsset, type ProviderJob } from './providers/provider.js';
import { mediaTypeOf } from '../assets/media-types.js';
import type { ProviderRegistry } from './providers/registry.js';
import type { ContentCredentials } from '../provenance/content-credentials.js';
import { fileNameOf } from '../provenance/c2pa-signer.js';

/**
 * The run engine: workers that claim queued runs, execute them with a provider under a lease kept alive by
 * heartbeats, and finish them. Cancellation is cooperative (an AbortSignal): a run may still succeed after a cancel
 * request if its provider finishes first (docs/runs.md).
 *
 * How a cancel reaches the worker running the run: in the same process at once (the backend calls
 * cancelRequested); from another process through PostgreSQL NOTIFY, and in any case at the next heartbeat.
 */

export interface RunEngineOptions {
  store: Store;
  providers: ProviderRegistry;
  assets: Assets;
  logger: Logger;
  workers: number;
  leaseMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  timeoutMs?: number;
  /** Signs pictures, sounds and films before they are stored (docs/provenance.md); none: stored as made. */
  credentials?: ContentCredentials;
  /** Told each outcome this process records (metrics). */
  onRunFinished?: (run: { status: RunOutcome['status']; operation: RunOperation; provider: string }) => void;
}

/** Why an execution stopped early. */
type StopReason = 'cancelled' | 'lease_lost' | 'shutdown' | 'timeout';

/** How often staged outputs left behind are looked for, and the least age at which they are removed. */
const STAGED_SWEEP_MS = 60 * 60_000;

class Stop extends Error {
  constructor(readonly reason: StopReason) {
    super(`run stopped: ${reason}`);
  }
}

function roundCredits(value: number): number {
  return Math.round(value * 100) / 100;
}

export function createRunEngine(options: RunEngineOptions) {
  const { store, logger } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const heartbeatMs = options.heartbeatMs ?? Math.min(250, Math.floor(leaseMs / 4));
  const pollMs = options.pollMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const engineId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  const executing = new Map<string, AbortController>();
  let sleepers: Array<() => void> = [];
  let running = false;
  let loops: Promise<void>[] = [];
  let recoveryTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  // Staged outputs older than any run can take were left by a process that died before completing its run.
  const stagedAgeMs = Math.max(STAGED_SWEEP_MS, timeoutMs + 2 * leaseMs);
  let unsubscribe: (() => Promise<void>) | undefined;

  function wakeAll(): void {
    const waiting = sleepers;
    sleepers = [];
    for (const wake of waiting) wake();
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers = sleepers.filter((sleeper) => sleeper !== done);
        resolve();
      }
      sleepers.push(done);
    });
  }

  function stopExecution(runId: string, reason: StopReason): void {
    executing.get(runId)?.abort(new Stop(reason));
  }

  async function recover(): Promise<void> {
    try {
      const recovery = await store.claims.recoverExpired();
      const total = recovery.requeued.length + recovery.failed.length + recovery.cancelled.length;
      if (total > 0) {
        logger.warn({ ...recovery }, 'recovered runs whose worker stopped renewing its lease');
        if (recovery.requeued.length > 0) wakeAll();
      }
    } catch (error) {
      logger.error({ err: error }, 'run recovery failed');
    }
  }

  /**
   * Every output is what its kind says, whichever provider made it: its type comes from its bytes (issue 29, item 2),
   * and a file of another type (an SVG or an HTML page as a picture) fails the run instead of being kept.
   */
  async function verifiedOutput(asset: ProducedAsset): Promise<ProducedAsset> {
    const verdict = await mediaTypeOf(asset.kind, asset.bytes);
    if (!verdict.ok) {
      throw new ProviderError(
        'provider_error',
        `The run's ${asset.kind} output is ${verdict.found}: it was not kept.`,
        false,
      );
    }
    return { ...asset, mimeType: verdict.mimeType };
  }

  async function execute(row: RunRow, workerId: string): Promise<void> {
    const lease: Lease = { runId: row.id, workerId, attempt: row.attempt };
    const log = logger.child({ run_id: row.id, attempt: row.attempt, worker: workerId });
    const controller = new AbortController();
    executing.set(row.id, controller);
    let progress: { percent: number; message: string } | null = null;
    let heartbeatTimer: NodeJS.Timeout | undefined;
    const timeout = setTimeout(() => controller.abort(new Stop('timeout')), timeoutMs);

    // Heartbeats renew the lease and carry progress; one at a time, never overlapping.
    const heartbeat = async (): Promise<void> => {
      if (controller.signal.aborted) return;
      try {
        const answer = await store.claims.heartbeat(lease, leaseMs, progress);
        if (answer === 'lost') controller.abort(new Stop('lease_lost'));
        if (answer === 'cancel_requested') controller.abort(new Stop('cancelled'));
      } catch (error) {
        log.warn({ err: error }, 'heartbeat failed');
      }
      if (!controller.signal.aborted) heartbeatTimer = setTimeout(() => void heartbeat(), heartbeatMs);
    };
    heartbeatTimer = setTimeout(() => void heartbeat(), heartbeatMs);

    const resources = RunResources.parse(JSON.parse(row.resources));
    const input = JSON.parse(row.input) as Record<string, unknown>;
    const job: ProviderJob = {
      runId: row.id,
      attempt: row.attempt,
      operation: row.operation as RunOperation,
      skillId: row.skill_id as SkillId | null,
      input,
      outputs: resources.map((resource) => ({ assetId: resource.asset_id, kind: resource.kind })),
      costEstimated: row.cost_estimated,
      references: RunReferenceInput.safeParse(input.references).data?.asset_ids ?? [],
    };

    let outcome: RunOutcome | 'release' | 'lost';
    const staged: StagedAsset[] = [];
    const inputs: Array<() => Promise<void>> = [];
    const writer = options.assets.writer;
    try {
      const result = await options.providers(job.operation).execute(job, {
        signal: controller.signal,
        progress: (percent, message) => {
          progress = { percent: Math.max(0, Math.min(100, percent)), message };
        },
        inputFile: async (assetId) => {
          const file = await options.assets.inputFile(assetId);
          if (!file) return null;
          inputs.push(file.release);
          return file.path;
        },
      });
      // Finished, even if a cancel was requested meanwhile: the work is done and delivered.
      const outputs: RunOutput[] = [];
      const assets: AssetRecord[] = [];
      // Content credentials (issue 37): what made each output, signed into it before it is staged.
      const credentials = options.credentials?.forRun(
        {
          runId: row.id,
          projectId: row.project_id,
          canvasId: row.canvas_id,
          nodeId: row.node_id,
          operation: job.operation,
          provider: options.providers(job.operation).name,
          model: result.model ?? null,
          inputsHash: row.inputs_hash,
          input,
          references: job.references,
        },
        log,
      );
      for (const produced of result.assets) {
        const verified = await verifiedOutput(produced);
        const asset = credentials
          ? {
              ...verified,
              bytes: await credentials.sign({
                assetId: verified.assetId,
                mimeType: verified.mimeType,
                bytes: verified.bytes,
                title: fileNameOf(verified.assetId, verified.mimeType),
              }),
            }
          : verified;
        const stagedAsset = await writer.stage(asset.assetId, `${row.id}.${row.attempt}`, asset.bytes);
        staged.push(stagedAsset);
        outputs.push({
          asset_id: asset.assetId,
          kind: asset.kind,
          url: assetUrl(asset.assetId),
          mime_type: asset.mimeType,
        });
        assets.push({
          id: asset.assetId,
          assetId: asset.assetId,
          projectId: row.project_id,
          canvasId: row.canvas_id,
          runId: row.id,
          kind: asset.kind,
          mimeType: asset.mimeType,
          byteSize: asset.bytes.length,
          storage: stagedAsset.storage,
          // A local output is renamed to its final name when published; elsewhere the staged key is the asset.
          storageKey: stagedAsset.storage === 'local' ? null : stagedAsset.storageKey,
        });
      }
      outcome = {
        status: 'succeeded',
        outputs,
        assets,
        charged: roundCredits(result.charged ?? row.cost_estimated),
        // Said only of a run that was given references: whether they reached the model.
        ...(input.references !== undefined ? { referencesUsed: result.referencesUsed ?? false } : {}),
      };
    } catch (error) {
      const stop = controller.signal.aborted ? (controller.signal.reason as Stop) : undefined;
      if (stop?.reason === 'lease_lost') outcome = 'lost';
      else if (stop?.reason === 'shutdown') outcome = 'release';
      else if (stop?.reason === 'cancelled') {
        // Charged for the part that ran, in proportion to the progress the provider reported.
        const done = (progress as { percent: number } | null)?.percent ?? 0;
        outcome = { status: 'cancelled', charged: roundCredits((row.cost_estimated * done) / 100) };
      } else if (stop?.reason === 'timeout') {
        outcome = {
          status: 'failed',
          error: { code: 'timeout', message: `The run did not finish within ${timeoutMs} ms.` },
          charged: 0,
        };
      } else if (error instanceof ProviderError) {
        outcome =
          error.retryable && row.attempt < row.max_attempts
            ? { status: 'retry', message: error.message, charged: 0 }
            : { status: 'failed', error: { code: error.code, message: error.message }, charged: 0 };
      } else {
        log.error({ err: error }, 'run failed unexpectedly');
        outcome = {
          status: 'failed',
          error: { code: 'internal', message: 'The run failed unexpectedly.' },
          charged: 0,
        };
      }
    } finally {
      clearTimeout(timeout);
      clearTimeout(heartbeatTimer);
      executing.delete(row.id);
      for (const release of inputs) await release().catch(() => undefined);
    }

    try {
      if (outcome === 'lost') {
        log.warn('lease lost: another worker owns this run now; nothing recorded');
      } else if (outcome === 'release') {
        await store.claims.release(lease);
      } else {
        const finished = outcome;
        const provider = options.providers(job.operation).name;
        const recorded = await untilLeaseEnds(() =>
          store.claims.complete(lease, { ...finished, provider }, () => writer.publish(staged)),
        );
        if (!recorded) log.warn('lease lost before completion: nothing recorded, nothing published');
        else {
          log.info({ status: finished.status, charged: finished.charged }, 'run finished');
          options.onRunFinished?.({ status: finished.status, operation: job.operation, provider });
        }
      }
    } finally {
      // Published files were renamed away (and other stores' published keys are named by their rows); whatever is
      // left was never published.
      const published = outcome !== 'lost' && outcome !== 'release' && outcome.status === 'succeeded';
      if (!published || writer.storage === 'local') await writer.discard(staged).catch(() => undefined);
    }
  }

  /**
   * Retries a store write while the database is away, for as long as the lease could still be valid: a run that
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

  async function sweepStaged(): Promise<void> {
    const writer = options.assets.writer;
    try {
      const removed = await writer.sweepStaged(Date.now() - stagedAgeMs, (assetIds) =>
        store.assets.knownAssetIds(assetIds),
      );
      if (removed > 0)
        logger.info({ removed, storage: writer.storage }, 'removed run outputs left staged by a process that stopped');
    } catch (error) {
      logger.warn({ err: error }, 'sweeping staged run outputs failed; trying again later');
    }
  }

  async function loop(workerId: string): Promise<void> {
    while (running) {
      let row: RunRow | undefined;
      try {
        row = await store.claims.claimNext(workerId, leaseMs);
        if (row && !running) {
          await store.claims.release({ runId: row.id, workerId, attempt: row.attempt });
          break;
        }
        if (row) await execute(row, workerId);
        else await sleep(pollMs);
      } catch (error) {
        // The store failed (unreachable, say): this worker keeps going after a pause. A run it held is recovered
        // when its lease expires.
        logger.error({ err: error, worker: workerId, run_id: row?.id }, 'run worker step failed; retrying');
        await sleep(pollMs);
      }
    }
  }

  return {
    async start(): Promise<void> {
      if (running || options.workers === 0) return;
      running = true;
      unsubscribe = await store.runs
        .onRunEvent(
          (event) => {
            if (event.kind === 'queued') wakeAll();
            else stopExecution(event.runId, 'cancelled');
          },
          // Back after an outage: runs queued meanwhile were announced to nobody. Missed cancels reach their worker
          // at its next heartbeat.
          wakeAll,
        )
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'run events unavailable; polling only');
          return undefined;
        });
      await recover();
      recoveryTimer = setInterval(() => void recover(), Math.max(Math.floor(leaseMs / 2), 100));
      void sweepStaged();
      sweepTimer = setInterval(() => void sweepStaged(), STAGED_SWEEP_MS);
      sweepTimer.unref();
      loops = Array.from({ length: options.workers }, (_, index) => loop(`${engineId}:${index}`));
      logger.info({ workers: options.workers, engine: engineId }, 'run engine started');
    },

    /** The name of the provider that runs an operation here (metrics). */
    providerOf(operation: RunOperation): string {
      return options.providers(operation).name;
    },

    /** A run was queued in this process: wake a worker now. */
    runQueued(): void {
      wakeAll();
    },

    /** A cancel was requested in this process: stop the execution at once if it runs here. */
    cancelRequested(runId: string): void {
      stopExecution(runId, 'cancelled');
    },

    /** Stops claiming; runs in progress are given back (queued again, or cancelled if that was requested). */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      clearInterval(recoveryTimer);
      clearInterval(sweepTimer);
      for (const runId of executing.keys()) stopExecution(runId, 'shutdown');
      wakeAll();
      await Promise.all(loops);
      await unsubscribe?.();
    },
  };
}

export type RunEngine = ReturnType<typeof createRunEngine>;
