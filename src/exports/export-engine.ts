import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Assets } from '../assets/assets.js';
import type { StagedAsset } from '../assets/asset-store.js';
import { ID_PREFIX, newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import type { ExportLease, ExportOutcome, StoredExport } from '../store/export-store.js';
import type { Store } from '../store/store.js';
import { BoardSource } from './board-source.js';
import type { ExportBoard } from './export-board.js';
import { ExportFailure, renderExport } from './render-export.js';
import { ProviderError } from '../shared/provider-error.js';
import type { ContentCredentials } from '../provenance/content-credentials.js';

/**
 * The export workers (issue 35, item 1): each claims the oldest queued export job, renders it under a lease kept alive
 * by heartbeats (which carry its progress to open pages), and records the file as an asset in the transaction that
 * finishes the job. A cancel stops the encoder at once in this process, and at the next heartbeat from another; a
 * cancelled or failed job leaves no asset (the staged file is discarded). A worker that dies gives its job back when
 * the lease expires; a stopping process gives it back at once. Exports cost no credits.
 */

export interface ExportEngineOptions {
  store: Store;
  assets: Assets;
  logger: Logger;
  /** Workers in this process; 0 runs none (a server whose runs are done by `canvas-mcp worker`). */
  workers: number;
  leaseMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  timeoutMs?: number;
  /** Signs PDFs and animatics before they are stored (docs/provenance.md); none: stored as made. */
  credentials?: ContentCredentials;
}

type StopReason = 'cancelled' | 'lease_lost' | 'shutdown' | 'timeout';

class Stop extends Error {
  constructor(readonly reason: StopReason) {
    super(`export stopped: ${reason}`);
  }
}

/** The assets an export shows or plays: an animatic's films, pictures and sounds; a printed board's pictures and logo. */
function componentsOf(kind: string, source: BoardSource): string[] {
  const ids = (values: Array<string | null>) => values.filter((value): value is string => value !== null);
  if (kind === 'animatic') {
    return ids([
      ...source.shots.flatMap((shot) => [shot.videoAssetId ?? shot.pictureAssetId, shot.voiceOverAssetId]),
      source.musicAssetId,
    ]);
  }
  return ids([...source.shots.map((shot) => shot.pictureAssetId), source.logoAssetId]);
}

export function createExportEngine(options: ExportEngineOptions) {
  const { store, logger, assets } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const heartbeatMs = options.heartbeatMs ?? Math.min(250, Math.floor(leaseMs / 4));
  const pollMs = options.pollMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 20 * 60_000;
  const engineId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const executing = new Map<string, AbortController>();
  const sleepers = new Set<() => void>();
  let running = false;
  let loops: Array<Promise<void>> = [];
  let recoveryTimer: NodeJS.Timeout | undefined;

  const wakeAll = () => {
    for (const wake of [...sleepers]) wake();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  /**
   * The job's board with its media as local files of this project (`files`: by asset id); `release` removes temporary
   * copies.
   */
  async function boardOf(job: StoredExport): Promise<{
    board: ExportBoard;
    logo: string | null;
    source: BoardSource;
    files: Map<string, string>;
    release(): Promise<void>;
  }> {
    const source = BoardSource.parse(await store.exports.source(job.id));
    const files = new Map<string, string>();
    const releases: Array<() => Promise<void>> = [];
    const fileOf = async (assetId: string | null): Promise<string | null> => {
      if (!assetId) return null;
      const record = await store.assets.getAsset(assetId);
      // Another project's asset named in a node's data is not this export's to read.
      if (!record || record.projectId !== job.projectId) return null;
      const file = await assets.inputFile(assetId);
      if (!file) return null;
      releases.push(file.release);
      files.set(assetId, file.path);
      return file.path;
    };
    const release = async () => {
      for (const done of releases) await done().catch(() => undefined);
    };
    try {
      const shots: ExportBoard['shots'] = [];
      const missingSounds: string[] = [];
      const soundOf = async (assetId: string | null, what: string): Promise<string | null> => {
        const path = await fileOf(assetId);
        if (assetId && !path) missingSounds.push(`${what} could not be found on this server: it is left out.`);
        return path;
      };
      for (const shot of source.shots) {
        shots.push({
          id: shot.id,
          number: shot.number,
          caption: shot.caption,
          action: shot.action,
          dialogue: shot.dialogue,
          notes: shot.notes,
          camera: shot.camera,
          lensMm: shot.lensMm,
          durationMs: shot.durationMs,
          picture: await fileOf(shot.pictureAssetId),
          video: await fileOf(shot.videoAssetId),
          voiceOver: await soundOf(shot.voiceOverAssetId, `Shot ${shot.number}'s voice-over`),
        });
      }
      const board: ExportBoard = {
        projectName: source.projectName,
        canvasTitle: source.canvasTitle,
        boardTitle: source.boardTitle,
        revision: job.revision,
        date: new Date(job.createdAt).toISOString().slice(0, 10),
        aspect: source.aspect,
        shots,
        music: await soundOf(source.musicAssetId, 'The music bed'),
        missingSounds,
        sourceFrames: source.frames,
      };
      return { board, logo: await fileOf(source.logoAssetId), source, files, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  async function execute(job: StoredExport, workerId: string): Promise<void> {
    const lease: ExportLease = { exportId: job.id, workerId, attempt: job.attempt };
    const log = logger.child({ export_id: job.id, kind: job.kind, attempt: job.attempt, worker: workerId });
    const controller = new AbortController();
    executing.set(job.id, controller);
    let progress: { percent: number; message: string } | null = null;
    let heartbeatTimer: NodeJS.Timeout | undefined;
    const timeout = setTimeout(() => controller.abort(new Stop('timeout')), timeoutMs);
    const heartbeat = async (): Promise<void> => {
      if (controller.signal.aborted) return;
      try {
        const answer = await store.exports.heartbeat(lease, leaseMs, progress);
        if (answer === 'lost') controller.abort(new Stop('lease_lost'));
        if (answer === 'cancel_requested') controller.abort(new Stop('cancelled'));
      } catch (error) {
        log.warn({ err: error }, 'export heartbeat failed');
      }
      if (!controller.signal.aborted) heartbeatTimer = setTimeout(() => void heartbeat(), heartbeatMs);
    };
    heartbeatTimer = setTimeout(() => void heartbeat(), heartbeatMs);

    const writer = assets.writer;
    let staged: StagedAsset | null = null;
    let outcome: ExportOutcome | 'release' | 'lost';
    try {
      const { board, logo, source, files, release } = await boardOf(job);
      try {
        const rendered = await renderExport(job, board, logo, {
          signal: controller.signal,
          progress: (percent, message) => {
            progress = { percent: Math.round(Math.max(0, Math.min(99, percent)) * 10) / 10, message };
          },
        });
        controller.signal.throwIfAborted();
        // Content credentials (issue 37): PDFs and animatics are signed; text exports are stored as they are.
        const file = options.credentials
          ? {
              ...rendered,
              bytes: await options.credentials.signExport(
                {
                  exportId: job.id,
                  kind: job.kind,
                  projectId: job.projectId,
                  canvasId: job.canvasId,
                  nodeId: job.nodeId,
                  revision: job.revision,
                  components: componentsOf(job.kind, source),
                  fileOf: (assetId) => files.get(assetId) ?? null,
                },
                { bytes: rendered.bytes, mimeType: rendered.contentType, title: rendered.fileName },
                log,
              ),
            }
          : rendered;
        const assetId = newId(ID_PREFIX.asset);
        staged = await writer.stage(assetId, `${job.id}-${job.attempt}`, file.bytes);
        outcome = {
          status: 'succeeded',
          warnings: file.warnings,
          asset: {
            assetId,
            kind: file.contentType.startsWith('video/') ? 'video' : 'document',
            mimeType: file.contentType,
            byteSize: file.bytes.length,
            storage: writer.storage,
            storageKey: writer.storage === 'local' ? null : staged.storageKey,
            fileName: file.fileName,
          },
        };
      } finally {
        await release();
      }
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as unknown) : null;
      if (reason instanceof Stop) {
        outcome =
          reason.reason === 'lease_lost'
            ? 'lost'
            : reason.reason === 'shutdown'
              ? 'release'
              : reason.reason === 'cancelled'
                ? { status: 'cancelled' }
                : {
                    status: 'failed',
                    error: { code: 'timeout', message: 'The export took too long and was stopped.' },
                  };
      } else if (error instanceof ExportFailure || error instanceof ProviderError) {
        // What a person can act on: the encoder's own words (paths cut out), an unreadable picture, a bad option.
        outcome = { status: 'failed', error: { code: error.code, message: error.message } };
      } else {
        log.error({ err: error }, 'export failed');
        outcome = {
          status: 'failed',
          error: { code: 'export_failed', message: error instanceof Error ? error.message : String(error) },
        };
      }
    } finally {
      clearTimeout(timeout);
      clearTimeout(heartbeatTimer);
      executing.delete(job.id);
    }

    let published = false;
    try {
      if (outcome === 'lost') log.warn('lease lost: another worker owns this export now; nothing recorded');
      else if (outcome === 'release') await store.exports.release(lease);
      else {
        const finished = outcome;
        const recorded = await store.exports.complete(lease, finished, () => {
          if (staged) writer.publish([staged]);
          published = true;
        });
        if (recorded) log.info({ status: finished.status }, 'export finished');
      }
    } finally {
      if (staged && (!published || writer.storage === 'local')) await writer.discard([staged]).catch(() => undefined);
    }
  }

  async function loop(workerId: string): Promise<void> {
    while (running) {
      let job: StoredExport | undefined;
      try {
        job = await store.exports.claimNext(workerId, leaseMs);
        if (job && !running) {
          await store.exports.release({ exportId: job.id, workerId, attempt: job.attempt });
          break;
        }
        if (job) await execute(job, workerId);
        else await sleep(pollMs);
      } catch (error) {
        logger.error({ err: error, worker: workerId, export_id: job?.id }, 'export worker step failed; retrying');
        await sleep(pollMs);
      }
    }
  }

  async function recover(): Promise<void> {
    try {
      if ((await store.exports.recoverExpired()) > 0) wakeAll();
    } catch (error) {
      logger.warn({ err: error }, 'export recovery failed');
    }
  }

  return {
    async start(): Promise<void> {
      if (running || options.workers === 0) return;
      running = true;
      await recover();
      recoveryTimer = setInterval(() => void recover(), Math.max(Math.floor(leaseMs / 2), 100));
      loops = Array.from({ length: options.workers }, (_, index) => loop(`${engineId}:export:${index}`));
    },
    /** An export was queued in this process: wake a worker now. */
    exportQueued(): void {
      wakeAll();
    },
    /** A cancel was requested in this process: stop the encoder at once if the job runs here. */
    cancelRequested(exportId: string): void {
      executing.get(exportId)?.abort(new Stop('cancelled'));
    },
    /** Stops claiming; jobs in progress are given back to the queue. */
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      clearInterval(recoveryTimer);
      for (const controller of executing.values()) controller.abort(new Stop('shutdown'));
      wakeAll();
      await Promise.all(loops);
    },
  };
}

export type ExportEngine = ReturnType<typeof createExportEngine>;
