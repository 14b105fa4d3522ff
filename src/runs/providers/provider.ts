import type { AssetKind, RunFrames, RunOperation, SkillId } from '../../contract/index.js';

/**
 * A provider turns a run's input into assets. It reports progress, stops when its signal aborts (throwing the
 * signal's reason), and says what the run cost when that differs from the estimate.
 */
export interface ProviderJob {
  runId: string;
  attempt: number;
  operation: RunOperation;
  skillId: SkillId | null;
  input: Record<string, unknown>;
  /** The assets to produce, in order, with the identities announced when the run was submitted. */
  outputs: Array<{ assetId: string; kind: AssetKind }>;
  costEstimated: number;
  /** The reference pictures of the elements linked to the node (asset ids, read with `inputFile`); often none. */
  references: string[];
  /** A video run of a shot: the frames it starts and ends on (src/runs/shot-frames.ts); none otherwise. */
  frames?: RunFrames;
}

export interface ProviderContext {
  signal: AbortSignal;
  progress(percent: number, message: string): void;
  /**
   * A local file with a published asset's bytes, for operations that read earlier outputs (trimming, composing); null
   * when the asset is nowhere this process can reach. Temporary copies are removed when the run ends.
   */
  inputFile(assetId: string): Promise<string | null>;
}

export interface ProducedAsset {
  assetId: string;
  kind: AssetKind;
  mimeType: string;
  bytes: Buffer;
}

export interface ProviderResult {
  assets: ProducedAsset[];
  /** Credits actually charged; the estimate when omitted. */
  charged?: number;
  /** Whether the job's reference pictures reached the model; false (not used) when omitted. */
  referencesUsed?: boolean;
  /** The model that made the assets, as the provider names it (written into their content credentials). */
  model?: string;
}

export interface RunProvider {
  readonly name: string;
  execute(job: ProviderJob, context: ProviderContext): Promise<ProviderResult>;
}

export { ProviderError } from '../../shared/provider-error.js';

/** Waits, or rejects with the signal's reason as soon as it aborts. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
