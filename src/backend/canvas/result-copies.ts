import type { CanvasRef } from '../../contract/index.js';
import type { Assets } from '../../assets/assets.js';
import { AssetMissing } from '../../assets/asset-store.js';
import { ID_PREFIX, newId } from '../../shared/ids.js';
import type { RunResultCopy } from '../../store/run-store.js';
import { RunOutputs } from '../../store/run-rows.js';
import type { Store } from '../../store/store.js';

type AssetRecordCopy = RunResultCopy['assets'][number]['record'];

/**
 * A duplicate "with run results": every node whose latest run succeeded gets that result on the copy.
 * The outputs' bytes are copied under new asset ids, so the copy's results stay when the original is deleted and
 * purged; the run records are written in one transaction, after every byte landed. A result whose bytes this
 * process cannot read is left out and named in the answer; bytes written for a copy that fails are removed.
 */
export async function copyRunResults(
  store: Store,
  assets: Assets,
  from: CanvasRef,
  to: CanvasRef,
): Promise<{ copied: number; skipped: string[] }> {
  const finished = (await store.runs.latestRunsByNode(from.projectId, from.canvasId)).filter(
    (run) => run.status === 'succeeded',
  );
  const copies: RunResultCopy[] = [];
  const skipped: string[] = [];
  const remove = (records: readonly AssetRecordCopy[]) =>
    Promise.all(records.map((record) => assets.writer.remove(record).catch(() => undefined)));
  const written: AssetRecordCopy[] = [];
  try {
    for (const run of finished) {
      const outputs = RunOutputs.parse(JSON.parse(run.outputs));
      const copy: RunResultCopy = { run, assets: [] };
      for (const output of outputs) {
        const source = await store.assets.getAsset(output.asset_id);
        const reader = source ? assets.reader(source.storage) : null;
        const bytes = source && reader ? await reader.open(source).catch(missingAsNull) : null;
        if (!source || !bytes) break;
        const assetId = newId(ID_PREFIX.asset);
        const key = await assets.writer.put(assetId, bytes, source.byteSize);
        const record = {
          id: assetId,
          assetId,
          kind: source.kind,
          mimeType: source.mimeType,
          byteSize: source.byteSize,
          storage: assets.writer.storage,
          storageKey: assets.writer.storage === 'local' ? null : key,
        };
        written.push(record);
        copy.assets.push({ from: source.id, record });
      }
      if (copy.assets.length === outputs.length) copies.push(copy);
      else {
        skipped.push(run.node_id);
        await remove(copy.assets.map((asset) => asset.record));
      }
    }
    return { copied: await store.runs.copyResults(to, copies), skipped };
  } catch (error) {
    await remove(written);
    throw error;
  }
}

function missingAsNull(error: unknown): null {
  if (error instanceof AssetMissing) return null;
  throw error;
}
