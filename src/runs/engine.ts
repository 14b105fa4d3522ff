import { RunFrames, RunReferenceInput, type RunOperation, type RunOutput, type SkillId } from '../contract/index.js';
import type { Logger } from '../shared/logger.js';
import type { AssetRecord } from '../store/asset-records.js';
import type { RunOutcome } from '../store/run-claims.js';
import { createJobWorkers, jobTimings, type JobKind, type JobTimings } from '../jobs/job-workers.js';
import { RunResources, type RunRow } from '../store/run-rows.js';
import type { Store } from '../store/store.js';
import type { Assets } from '../assets/assets.js';
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

export interface RunEngineOptions extends JobTimings {
  store: Store;
  providers: ProviderRegistry;
  assets: Assets;
  logger: Logger;
  /** Signs pictures, sounds and films before they are stored (docs/provenance.md); none: stored as made. */
  credentials?: ContentCredentials;
  /** Told each outcome this process records (metrics). */
  onRunFinished?: (run: { status: RunOutcome['status']; operation: RunOperation; provider: string }) => void;
}

/** How often staged outputs left behind are looked for, and the least age at which they are removed. */
const STAGED_SWEEP_MS = 60 * 60_000;

function roundCredits(value: number): number {
  return Math.round(value * 100) / 100;
}

export function createRunEngine(options: RunEngineOptions) {
  const { store, logger } = options;
  const timings = jobTimings(options, { pollMs: 500, timeoutMs: 10 * 60_000 });
  const { leaseMs, timeoutMs } = timings;
  let sweepTimer: NodeJS.Timeout | undefined;
  // Staged outputs older than any run can take were left by a process that died before completing its run.
  const stagedAgeMs = Math.max(STAGED_SWEEP_MS, timeoutMs + 2 * leaseMs);
  let unsubscribe: (() => Promise<void>) | undefined;

  /**
   * Every output is what its kind says, whichever provider made it: its type comes from its bytes, and a file of
   * another type (an SVG or an HTML page as a picture) fails the run instead of being kept.
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

  const jobOf = (row: RunRow): ProviderJob => {
    const resources = RunResources.parse(JSON.parse(row.resources));
    const input = JSON.parse(row.input) as Record<string, unknown>;
    return {
      runId: row.id,
      attempt: row.attempt,
      operation: row.operation as RunOperation,
      skillId: row.skill_id as SkillId | null,
      input,
      outputs: resources.map((resource) => ({ assetId: resource.asset_id, kind: resource.kind })),
      costEstimated: row.cost_estimated,
      references: RunReferenceInput.safeParse(input.references).data?.asset_ids ?? [],
      frames: RunFrames.safeParse(input.frames).data ?? {},
    };
  };

  /** Runs as a kind of job (src/jobs/job-workers.ts): what running a node means, and how each way it ends is recorded. */
  const runs: JobKind<RunRow, RunOutcome & { provider: string }> = {
    name: 'run',
    claimNext: (workerId, ms) => store.claims.claimNext(workerId, ms),
    heartbeat: (lease, ms, progress) => store.claims.heartbeat(lease, ms, progress),
    release: (lease) => store.claims.release(lease),
    complete: (lease, outcome, publish) => store.claims.complete(lease, outcome, publish),
    async recoverExpired() {
      const recovery = await store.claims.recoverExpired();
      if (recovery.requeued.length + recovery.failed.length + recovery.cancelled.length > 0)
        logger.warn({ ...recovery }, 'recovered runs whose worker stopped renewing its lease');
      return recovery.requeued.length;
    },

    async execute(row, context) {
      const job = jobOf(row);
      const provider = options.providers(job.operation);
      const inputs: Array<() => Promise<void>> = [];
      try {
        const result = await provider.execute(job, {
          signal: context.signal,
          progress: context.progress,
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
        // Content credentials (docs/provenance.md): what made each output, signed into it before it is staged.
        const credentials = options.credentials?.forRun(
          {
            runId: row.id,
            projectId: row.project_id,
            canvasId: row.canvas_id,
            nodeId: row.node_id,
            operation: job.operation,
            provider: provider.name,
            model: result.model ?? null,
            inputsHash: row.inputs_hash,
            input: job.input,
            references: job.references,
          },
          context.log,
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
          const stagedAsset = await context.stage(asset.assetId, `${row.id}.${row.attempt}`, asset.bytes);
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
        return {
          outcome: {
            status: 'succeeded',
            outputs,
            assets,
            charged: roundCredits(result.charged ?? row.cost_estimated),
            // Said only of a run that was given references: whether they reached the model.
            ...(job.input.references !== undefined ? { referencesUsed: result.referencesUsed ?? false } : {}),
            provider: provider.name,
          },
        };
      } finally {
        for (const release of inputs) await release().catch(() => undefined);
      }
    },

    outcomeOf(row, ended, context) {
      const provider = options.providers(row.operation as RunOperation).name;
      if ('stop' in ended && ended.stop === 'cancelled') {
        // Charged for the part that ran, in proportion to the progress the provider reported.
        const done = context.lastProgress()?.percent ?? 0;
        return { status: 'cancelled', charged: roundCredits((row.cost_estimated * done) / 100), provider };
      }
      if ('stop' in ended)
        return {
          status: 'failed',
          error: { code: 'timeout', message: `The run did not finish within ${timeoutMs} ms.` },
          charged: 0,
          provider,
        };
      const { error } = ended;
      if (error instanceof ProviderError)
        return error.retryable && row.attempt < row.max_attempts
          ? { status: 'retry', message: error.message, charged: 0, provider }
          : { status: 'failed', error: { code: error.code, message: error.message }, charged: 0, provider };
      context.log.error({ err: error }, 'run failed unexpectedly');
      return {
        status: 'failed',
        error: { code: 'internal', message: 'The run failed unexpectedly.' },
        charged: 0,
        provider,
      };
    },

    recorded(row, outcome, log) {
      log.info({ status: outcome.status, charged: outcome.charged }, 'run finished');
      options.onRunFinished?.({
        status: outcome.status,
        operation: row.operation as RunOperation,
        provider: outcome.provider,
      });
    },
  };

  const workers = createJobWorkers(runs, { ...timings, logger, writer: options.assets.writer });

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

  return {
    async start(): Promise<void> {
      if (workers.running || options.workers === 0) return;
      unsubscribe = await store.runs
        .onRunEvent(
          (event) => {
            if (event.kind === 'queued') workers.wake();
            else workers.cancel(event.runId);
          },
          // Back after an outage: runs queued meanwhile were announced to nobody. Missed cancels reach their worker
          // at its next heartbeat.
          workers.wake,
        )
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'run events unavailable; polling only');
          return undefined;
        });
      await workers.start();
      void sweepStaged();
      sweepTimer = setInterval(() => void sweepStaged(), STAGED_SWEEP_MS);
      sweepTimer.unref();
      logger.info({ workers: options.workers, engine: workers.engineId }, 'run engine started');
    },

    /** The name of the provider that runs an operation here (metrics). */
    providerOf(operation: RunOperation): string {
      return options.providers(operation).name;
    },

    /** A run was queued in this process: wake a worker now. */
    runQueued(): void {
      workers.wake();
    },

    /** A cancel was requested in this process: stop the execution at once if it runs here. */
    cancelRequested(runId: string): void {
      workers.cancel(runId);
    },

    /** Stops claiming; runs in progress are given back (queued again, or cancelled if that was requested). */
    async stop(): Promise<void> {
      if (!workers.running) return;
      clearInterval(sweepTimer);
      await workers.stop();
      await unsubscribe?.();
    },
  };
}

export type RunEngine = ReturnType<typeof createRunEngine>;
