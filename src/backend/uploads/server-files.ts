import { Readable } from 'node:stream';
import type { Assets } from '../../assets/assets.js';
import type { CanvasRef } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { ID_PREFIX, newId } from '../../shared/ids.js';
import type { StoredAssetKind } from '../../store/asset-records.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from '../auth/caller.js';
import { originOf } from './uploads.js';

/**
 * Files the server writes into a project for a person's action (a drawing's strokes and its picture, a long
 * screenplay): kept as the project's assets, counted against its storage quota, all of them or none. A refusal
 * removes what was already written, so nothing half kept stays behind.
 */

export interface ServerFile {
  bytes: Buffer;
  kind: StoredAssetKind;
  mimeType: string;
  /** The name the asset's origin records, as a person would read it. */
  name: string;
}

export function createServerFiles(deps: {
  store: Store;
  assets: Assets;
  clock: () => number;
  projectQuotaBytes: number;
}) {
  const { store, assets, clock } = deps;
  const keyOf = (key: string) => (assets.writer.storage === 'local' ? null : key);

  /** Keeps the files, in order; answers their asset ids. `what` names them in a refusal ("this drawing"). */
  return async function keepFiles(
    ctx: CallerContext,
    ref: CanvasRef,
    files: readonly ServerFile[],
    what: string,
  ): Promise<string[]> {
    const written: Array<{ id: string; key: string; file: ServerFile }> = [];
    for (const file of files) {
      const id = newId(ID_PREFIX.asset);
      const key = await assets.writer.put(id, Readable.from([file.bytes]), file.bytes.length);
      written.push({ id, key, file });
    }
    const origin = originOf(ctx);
    const outcome = await store.assets.insertUploadsWithin(
      { projectId: ref.projectId, quotaBytes: deps.projectQuotaBytes },
      written.map(({ id, key, file }) => ({
        id,
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        kind: file.kind,
        mimeType: file.mimeType,
        byteSize: file.bytes.length,
        storage: assets.writer.storage,
        storageKey: keyOf(key),
        origin: { uploadedBy: origin, fileName: file.name },
      })),
      clock(),
    );
    if (!outcome.kept) {
      await Promise.all(
        written.map(({ id, key, file }) =>
          assets.writer
            .remove({
              assetId: id,
              storage: assets.writer.storage,
              storageKey: keyOf(key),
              byteSize: file.bytes.length,
              mimeType: file.mimeType,
            })
            .catch(() => undefined),
        ),
      );
      throw new CanvasError(
        'limit_exceeded',
        `Project ${ref.projectId} has no room left in its storage quota for ${what}: nothing was saved.`,
        { limit: 'project_storage_quota', used_bytes: outcome.usedBytes },
      );
    }
    return written.map(({ id }) => id);
  };
}

export type KeepServerFiles = ReturnType<typeof createServerFiles>;
