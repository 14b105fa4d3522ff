import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { ContentCredentials } from '../../provenance/content-credentials.js';
import type { Logger } from '../../shared/logger.js';
import { join, parse as parsePath } from 'node:path';
import type { CanvasRef } from '../../contract/identifiers.js';
import type { UploadedFile, UploadReceipt } from '../../contract/uploads.js';
import type { Assets } from '../../assets/assets.js';
import { aspectRatioOf } from '../../assets/uploads/aspect.js';
import { prepareUpload, type UploadLimits } from '../../assets/uploads/intake.js';
import { UploadRefused, type PreparedFile, type PreparedUpload } from '../../assets/uploads/prepared.js';
import { CanvasError } from '../../shared/errors.js';
import { ID_PREFIX, newId } from '../../shared/ids.js';
import type { insertUploadRecords, UploadOrigin } from '../../store/asset-records.js';
import type { AssetStorage } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import { budgetKeyOf, type CallerContext } from '../auth/caller.js';
import { createMediaSlots, type MediaSlotLimits } from './media-slots.js';
import { createUploadBudgets, type UploadBudgetSettings } from './upload-budgets.js';

/**
 * Uploads (docs/storyboards.md, "Uploads"): a file received whole into a private work folder is prepared
 * (src/assets/uploads/), its bytes and thumbnail written to the asset store, and their records committed in one
 * transaction. A request's files are kept all together or not at all: one refused file refuses the request, naming
 * it, and whatever was written for the others is removed. The work folder goes whatever happens.
 */

/** A file as the HTTP edge received it into the work folder. */
export interface ReceivedFile {
  path: string;
  fileName: string;
}

export interface UploadSettings extends UploadLimits, UploadBudgetSettings {
  filesPerRequest: number;
  /** Films and sounds read at once, waiting, and one person's share (src/backend/uploads/media-slots.ts). */
  media: MediaSlotLimits;
}

/** Uploads read whole to keep their credentials, at most (larger files keep none: they are rarely signed stills). */
const CREDENTIALS_BYTES = 64 * 1024 * 1024;

/** Work folders older than this belong to a process that died mid-upload. */
const LEFTOVER_MS = 60 * 60_000;

export function createUploads(options: {
  store: Store;
  assets: Assets;
  dataDir: string;
  settings: UploadSettings;
  clock?: () => number;
  /**
   * Keeps the credentials an upload arrived with (docs/provenance.md, "Uploads"): none, and they are dropped with
   * its metadata.
   */
  credentials?: { signer: ContentCredentials; logger: Logger } | null;
}) {
  const { store, assets, settings } = options;
  const clock = options.clock ?? Date.now;
  const budgets = createUploadBudgets(store, settings);
  const mediaSlots = createMediaSlots(settings.media);
  // Beside the asset store's own staging, which its sweep empties on its own schedule.
  const staging = join(options.dataDir, 'assets', '.uploads');
  let sweptAt = 0;

  /** Removes work folders a crashed process left (the local store's sweep only runs when it is the writer). */
  async function sweepLeftovers(): Promise<void> {
    if (clock() - sweptAt < LEFTOVER_MS / 6) return;
    sweptAt = clock();
    for (const name of await readdir(staging).catch(() => [] as string[])) {
      if (!name.startsWith('upload-')) continue;
      const path = join(staging, name);
      const modified = (await stat(path).catch(() => null))?.mtimeMs;
      if (modified !== undefined && modified < clock() - LEFTOVER_MS) await rm(path, { recursive: true, force: true });
    }
  }

  /**
   * The intake re-encodes a picture and remuxes a film or a sound without their metadata, dropping content credentials
   * with it; an upload that arrived with some gets a manifest of its own naming the original (with its manifest) as
   * its parent (docs/provenance.md). A file that cannot be signed is kept as prepared: an upload never fails for it.
   */
  async function keepCredentials(file: ReceivedFile, main: PreparedFile, projectId: string): Promise<void> {
    const credentials = options.credentials;
    if (!credentials || main.path === file.path || main.byteSize > CREDENTIALS_BYTES) return;
    const original = await readFile(file.path);
    if (original.length > CREDENTIALS_BYTES) return;
    const { fileTypeFromBuffer } = await import('file-type');
    const originalType = (await fileTypeFromBuffer(original))?.mime;
    if (!originalType) return;
    const kept = await readFile(main.path);
    try {
      const signed = await credentials.signer.signUpload(
        {
          projectId,
          fileName: file.fileName,
          kept: { bytes: kept, mimeType: main.mimeType, title: file.fileName },
          original: { bytes: original, mimeType: originalType },
        },
        credentials.logger,
      );
      if (signed === kept) return;
      await writeFile(main.path, signed);
      main.byteSize = signed.length;
    } catch (error) {
      credentials.logger.warn({ err: error }, 'an upload kept without the credentials it arrived with');
    }
  }

  async function keep(
    file: PreparedFile,
  ): Promise<{ assetId: string; storage: AssetStorage; storageKey: string | null }> {
    const assetId = newId(ID_PREFIX.asset);
    const key = await assets.writer.put(assetId, createReadStream(file.path), file.byteSize);
    return { assetId, storage: assets.writer.storage, storageKey: assets.writer.storage === 'local' ? null : key };
  }

  return {
    settings,

    /**
     * An editor of the project, on a canvas that exists, with some of the hour's upload budget left: checked before a
     * byte of the body is read.
     */
    async authorize(ctx: CallerContext, ref: CanvasRef): Promise<void> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      await budgets.requireRoom(ctx);
    },

    /** Whether a file of this size may still come in (a direct upload, before its bytes are sent). */
    requireRoomFor(ctx: CallerContext, ref: CanvasRef, bytes: number): Promise<void> {
      return budgets.requireRoomFor(ctx, ref.projectId, bytes);
    },

    /** A private folder for one request's files, removed by `release`. */
    async workDir(): Promise<{ dir: string; release(): Promise<void> }> {
      void sweepLeftovers().catch(() => undefined);
      await mkdir(staging, { recursive: true, mode: 0o700 });
      const dir = await mkdtemp(join(staging, 'upload-'));
      return { dir, release: () => rm(dir, { recursive: true, force: true }) };
    },

    async accept(ctx: CallerContext, ref: CanvasRef, files: readonly ReceivedFile[]): Promise<UploadReceipt> {
      // What arrived counts against the sender's hour whatever becomes of it: reading it was work all the same.
      const sizes = await Promise.all(files.map(async (file) => (await stat(file.path)).size));
      await budgets.spend(ctx, total(sizes));
      const budgetKey = budgetKeyOf(ctx);
      const prepared: Array<{ file: ReceivedFile; upload: PreparedUpload }> = [];
      for (const [index, file] of files.entries()) {
        const workDir = join(parsePath(file.path).dir, `prepared-${index}`);
        await mkdir(workDir);
        try {
          const upload = await prepareUpload(file.path, workDir, settings, (work) => mediaSlots.run(budgetKey, work));
          await keepCredentials(file, upload.main, ref.projectId);
          prepared.push({ file, upload });
        } catch (error) {
          if (error instanceof UploadRefused)
            throw new CanvasError(error.code, `${file.fileName}: ${error.message}`, {
              ...error.details,
              file_name: file.fileName,
            });
          throw error;
        }
      }
      const origin = originOf(ctx);
      const written: Array<{ assetId: string; storage: AssetStorage; storageKey: string | null }> = [];
      try {
        const rows: Parameters<typeof insertUploadRecords>[1][number][] = [];
        const uploads: UploadedFile[] = [];
        for (const { file, upload } of prepared) {
          const main = await keep(upload.main);
          written.push(main);
          const thumbnail = upload.thumbnail ? await keep(upload.thumbnail) : null;
          if (thumbnail) written.push(thumbnail);
          const from: UploadOrigin = { uploadedBy: origin, fileName: file.fileName };
          for (const [kept, source, kind] of [
            [main, upload.main, upload.mediaKind],
            ...(thumbnail ? [[thumbnail, upload.thumbnail!, 'image'] as const] : []),
          ] as const)
            rows.push({
              id: kept.assetId,
              projectId: ref.projectId,
              canvasId: ref.canvasId,
              kind,
              mimeType: source.mimeType,
              byteSize: source.byteSize,
              storage: kept.storage,
              storageKey: kept.storageKey,
              origin: from,
            });
          uploads.push(describe(file.fileName, upload, main.assetId, thumbnail?.assetId ?? null));
        }
        await budgets.keep(ref.projectId, rows, clock());
        return { uploads };
      } catch (error) {
        await Promise.all(
          written.map((asset) =>
            assets.writer
              .remove({ ...asset, byteSize: 0, mimeType: 'application/octet-stream' })
              .catch(() => undefined),
          ),
        );
        throw error;
      }
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;

const total = (sizes: readonly number[]) => sizes.reduce((sum, size) => sum + size, 0);

export function originOf(ctx: CallerContext): UploadOrigin['uploadedBy'] {
  const { principal } = ctx;
  if (principal.kind === 'session') return principal.person;
  if (ctx.actor) return ctx.actor;
  return { tokenId: principal.kind === 'backend' || principal.kind === 'agent' ? principal.tokenId : 'unknown' };
}

const path = (assetId: string) => `/assets/${assetId}`;

/** What the answer says of a kept file, with the node that shows it. */
function describe(fileName: string, upload: PreparedUpload, assetId: string, thumbnailId: string | null): UploadedFile {
  const url = path(assetId);
  const thumbnailUrl = thumbnailId ? path(thumbnailId) : null;
  const aspectRatio = upload.width && upload.height ? aspectRatioOf(upload.width, upload.height) : null;
  const displayName = parsePath(fileName).name || fileName;
  const common = {
    asset_id: assetId,
    file_name: fileName,
    media_kind: upload.mediaKind,
    mime_type: upload.main.mimeType,
    byte_size: upload.main.byteSize,
    url,
    thumbnail_url: thumbnailUrl,
    width: upload.width,
    height: upload.height,
    duration_ms: upload.durationMs,
    aspect_ratio: aspectRatio,
  };
  switch (upload.mediaKind) {
    case 'video':
      return {
        ...common,
        node_type: 'videoNode',
        node_data: {
          displayName,
          videoUrl: url,
          previewImageUrl: thumbnailUrl,
          sourceFileName: fileName,
          durationMs: upload.durationMs,
          ...(aspectRatio ? { aspectRatio } : {}),
        },
      };
    case 'audio':
      return {
        ...common,
        node_type: 'audioNode',
        node_data: { displayName, audioUrl: url, sourceFileName: fileName, durationMs: upload.durationMs },
      };
    default:
      return {
        ...common,
        node_type: 'uploadNode',
        node_data: {
          displayName,
          fileUrl: url,
          fileName,
          mimeType: upload.main.mimeType,
          mediaKind: upload.mediaKind,
          sizeBytes: upload.main.byteSize,
          previewImageUrl: thumbnailUrl,
          ...(aspectRatio ? { aspectRatio } : {}),
          width: upload.width,
          height: upload.height,
        },
      };
  }
}
