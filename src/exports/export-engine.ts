import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Assets } from '../assets/assets.js';
import { markedPicture } from './marked-picture.js';
import { ID_PREFIX, newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import type { ExportOutcome, StoredExport } from '../store/export-store.js';
import { createJobWorkers, jobTimings, type JobKind, type JobTimings } from '../jobs/job-workers.js';
import type { Store } from '../store/store.js';
import { BoardSource } from './board-source.js';
import type { ExportBoard } from './export-board.js';
import { ExportFailure, renderExport } from './render-export.js';
import { ProviderError } from '../shared/provider-error.js';
import type { ContentCredentials } from '../provenance/content-credentials.js';

/**
 * The export workers (docs/deliverables.md, "Jobs"): each claims the oldest queued export job, renders it under a lease
 * kept alive by heartbeats (which carry its progress to open pages), and records the file as an asset in the
 * transaction that finishes the job. A cancel stops the encoder at once in this process, and at the next heartbeat from
 * another; a cancelled or failed job leaves no asset (the staged file is discarded). A worker that dies gives its job
 * back when the lease expires; a stopping process gives it back at once. Exports cost no credits.
 */

export interface ExportEngineOptions extends JobTimings {
  store: Store;
  assets: Assets;
  logger: Logger;
  /** Signs PDFs and animatics before they are stored (docs/provenance.md); none: stored as made. */
  credentials?: ContentCredentials;
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
    /** A shot's picture with its marks drawn over it, as a private temporary file; the picture itself without marks. */
    const pictureOf = async (shot: BoardSource['shots'][number]): Promise<string | null> => {
      const path = await fileOf(shot.pictureAssetId);
      if (shot.marks.length === 0) return path;
      const dir = await mkdtemp(join(tmpdir(), 'canvas-mcp-marks-'));
      releases.push(() => rm(dir, { recursive: true, force: true }));
      const marked = join(dir, `${shot.id.replace(/[^A-Za-z0-9_-]/g, '_')}.png`);
      await writeFile(marked, await markedPicture(path ? await readFile(path) : null, shot.marks, source.aspect), {
        mode: 0o600,
      });
      return marked;
    };
    try {
      const shots: ExportBoard['shots'] = [];
      const missingSounds: string[] = [...source.silentSounds];
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
          picture: await pictureOf(shot),
          video: await fileOf(shot.videoAssetId),
          voiceOver: await soundOf(shot.voiceOverAssetId, `Shot ${shot.number}'s voice-over`),
          move: shot.move,
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
        plans: source.plans,
        notes: source.notes,
        notesLeftOut: source.notesLeftOut,
      };
      return { board, logo: await fileOf(source.logoAssetId), source, files, release };
    } catch (error) {
      await release();
      throw error;
    }
  }

  /** Exports as a kind of job (src/jobs/job-workers.ts): rendering a board, and how each way it ends is recorded. */
  const exports: JobKind<StoredExport, ExportOutcome> = {
    name: 'export',
    claimNext: (workerId, ms) => store.exports.claimNext(workerId, ms),
    heartbeat: (lease, ms, progress) => store.exports.heartbeat(lease, ms, progress),
    release: (lease) => store.exports.release(lease),
    // A job whose cancel was requested is recorded cancelled even if its file was made: then nothing is published.
    complete: (lease, outcome, publish) => store.exports.complete(lease, outcome, publish),
    recoverExpired: () => store.exports.recoverExpired(),

    async execute(job, context) {
      const { board, logo, source, files, release } = await boardOf(job);
      try {
        const rendered = await renderExport(job, board, logo, {
          signal: context.signal,
          // Never 100 before the file is recorded: a page would show it done too early.
          progress: (percent, message) =>
            context.progress(Math.round(Math.max(0, Math.min(99, percent)) * 10) / 10, message),
        });
        context.signal.throwIfAborted();
        // Content credentials (docs/provenance.md): PDFs and animatics are signed; text exports are stored as they are.
        const signed = options.credentials
          ? await options.credentials.signExport(
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
              context.log,
            )
          : null;
        // A PDF or animatic kept without credentials (over the signing limit, signing failed) says so in its warnings:
        // never a silent `succeeded` (docs/provenance.md).
        const file = signed
          ? {
              ...rendered,
              bytes: signed.bytes,
              warnings: signed.unsigned ? [...rendered.warnings, signed.unsigned] : rendered.warnings,
            }
          : rendered;
        const assetId = newId(ID_PREFIX.asset);
        const staged = await context.stage(assetId, `${job.id}-${job.attempt}`, file.bytes);
        return {
          outcome: {
            status: 'succeeded',
            warnings: file.warnings,
            asset: {
              assetId,
              kind: file.contentType.startsWith('video/') ? 'video' : 'document',
              mimeType: file.contentType,
              byteSize: file.bytes.length,
              storage: staged.storage,
              storageKey: staged.storage === 'local' ? null : staged.storageKey,
              fileName: file.fileName,
            },
          },
        };
      } finally {
        await release();
      }
    },

    outcomeOf(_job, ended, context) {
      if ('stop' in ended)
        return ended.stop === 'cancelled'
          ? { status: 'cancelled' }
          : { status: 'failed', error: { code: 'timeout', message: 'The export took too long and was stopped.' } };
      const { error } = ended;
      // What a person can act on: the encoder's own words (paths cut out), an unreadable picture, a bad option.
      if (error instanceof ExportFailure || error instanceof ProviderError)
        return { status: 'failed', error: { code: error.code, message: error.message } };
      context.log.error({ err: error }, 'export failed');
      return {
        status: 'failed',
        error: { code: 'export_failed', message: error instanceof Error ? error.message : String(error) },
      };
    },

    recorded(_job, outcome, log) {
      log.info({ status: outcome.status }, 'export finished');
    },
  };

  const timings = jobTimings(options, { pollMs: 1000, timeoutMs: 20 * 60_000 });
  const workers = createJobWorkers(exports, { ...timings, logger, writer: assets.writer });

  return {
    start: () => workers.start(),
    /** An export was queued in this process: wake a worker now. */
    exportQueued(): void {
      workers.wake();
    },
    /** A cancel was requested in this process: stop the encoder at once if the job runs here. */
    cancelRequested(exportId: string): void {
      workers.cancel(exportId);
    },
    /** Stops claiming; jobs in progress are given back to the queue. */
    stop: () => workers.stop(),
  };
}

export type ExportEngine = ReturnType<typeof createExportEngine>;
