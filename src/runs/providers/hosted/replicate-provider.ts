import Replicate, { type Prediction } from 'replicate';
import type { RunOperation } from '../../../contract/index.js';
import { ProviderError, abortableDelay, type RunProvider } from '../provider.js';
import { hostedInputs } from './model-input.js';
import { downloadOutputs } from './outputs.js';

/**
 * Replicate's predictions API through its official client (`replicate`): create (with `Prefer: wait` for images, which
 * usually finish within it), get until the prediction ends, cancel when our run is cancelled. The client retries 429
 * (and 5xx on reads) with backoff, at most five times. States map exactly: starting → queued (the run says
 * "queued at Replicate"), processing → running, succeeded, failed → failed (provider_error with Replicate's error),
 * canceled → failed (provider_cancelled) unless we asked for it.
 */
export interface ReplicateOptions {
  apiToken: string;
  baseUrl: string;
  /** The model (`owner/name`) or version (`owner/name:version`) per operation. */
  models: Partial<Record<RunOperation, string>>;
  /** Which models take the elements' reference pictures, in which input (the `referenceInputs` setting). */
  referenceInputs?: Readonly<Record<string, string>>;
  pollIntervalMs?: number;
  /** Seconds `Prefer: wait` holds an image prediction's creation (1–60); 0 sends no Prefer. */
  waitSeconds?: number;
}

export const REPLICATE_PROVIDER = 'replicate';

/** How long a creation may take, its `Prefer: wait` included. */
const CREATE_TIMEOUT_MS = 90_000;
/** Errors of a request that reached no server: safe to try again. */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function createReplicateProvider(options: ReplicateOptions): RunProvider {
  const client = new Replicate({
    auth: options.apiToken,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    useFileOutput: false,
    fetch: (input, init) => fetch(input, init),
  });
  const pollMs = options.pollIntervalMs ?? 1000;
  return {
    name: REPLICATE_PROVIDER,
    async execute(job, context) {
      const { signal, progress } = context;
      const model = options.models[job.operation];
      if (!model)
        throw new ProviderError(
          'unsupported_operation',
          `No Replicate model is configured for ${job.operation}.`,
          false,
        );
      const reference = model.includes(':') ? { version: model.slice(model.indexOf(':') + 1) } : { model };
      const { input, referencesUsed } = await hostedInputs(job, 'num_outputs', model, options.referenceInputs, context);
      const wait =
        job.operation === 'image_generation' && (options.waitSeconds ?? 30) > 0 ? (options.waitSeconds ?? 30) : false;
      // Not aborted by our cancel: a creation cut off while Replicate holds it (Prefer: wait) would leave a paid
      // prediction whose id we never learn. Once it answers, a cancel requested meanwhile cancels it by its id.
      let prediction = await call(
        () =>
          client.predictions.create({
            ...reference,
            input,
            wait,
            signal: AbortSignal.timeout(CREATE_TIMEOUT_MS),
          }),
        signal,
        true,
      );
      try {
        signal.throwIfAborted();
        while (prediction.status === 'starting' || prediction.status === 'processing') {
          progress(
            prediction.status === 'starting' ? 0 : 50,
            prediction.status === 'starting' ? 'queued at Replicate' : 'running at Replicate',
          );
          await abortableDelay(pollMs, signal);
          const id = prediction.id;
          prediction = await call(() => client.predictions.get(id, { signal }), signal);
        }
      } catch (error) {
        if (!signal.aborted) throw error;
        // Our cancel: Replicate is told to stop. A prediction that finished first is delivered, not thrown away.
        const stopped = await client.predictions
          .cancel(prediction.id, { signal: AbortSignal.timeout(10_000) })
          .catch(() => null);
        if (stopped?.status !== 'succeeded') throw error;
        prediction = stopped;
      }
      if (prediction.status === 'failed') {
        throw new ProviderError(
          'provider_error',
          `Replicate's prediction ${prediction.id} failed: ${describe(prediction.error)}`,
          false,
        );
      }
      if (prediction.status !== 'succeeded') {
        throw new ProviderError(
          'provider_cancelled',
          `Replicate's prediction ${prediction.id} ended ${prediction.status} without our asking.`,
          false,
        );
      }
      progress(90, 'copying the result from Replicate');
      const finished = signal.aborted ? AbortSignal.timeout(120_000) : signal;
      return {
        assets: await downloadOutputs('Replicate', job, outputUrls(prediction), finished),
        referencesUsed,
        model,
      };
    },
  };
}

/**
 * A call to Replicate, its failures as ours: the HTTP status and Replicate's `detail`, never the request. A creation
 * refused with 429 or 5xx created nothing, so the engine may try the run again later (`creating`); a read that still
 * fails after the client's retries is final, since trying again would start a second, paid prediction.
 */
async function call(request: () => Promise<Prediction>, signal: AbortSignal, creating = false): Promise<Prediction> {
  try {
    return await request();
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    // Read by its shape, not `instanceof Response`: a Response made by another copy of undici (the npm package's,
    // not Node's own) is another class.
    const response = (error as { response?: { status?: unknown } }).response;
    if (typeof response?.status === 'number') {
      const detail = /"detail"\s*:\s*"([^"]{1,300})"/.exec((error as Error).message)?.[1];
      const passing = creating && (response.status === 429 || response.status >= 500);
      throw new ProviderError(
        'provider_error',
        `Replicate answered HTTP ${response.status}${detail ? `: ${detail}` : ''}.`,
        passing,
      );
    }
    // Tried again only when the request surely reached nobody: a connection cut later may have created a prediction.
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    const unreached = typeof code === 'string' && UNREACHED.has(code);
    throw new ProviderError(
      'provider_unavailable',
      `Replicate could not be reached (${typeof code === 'string' ? code : (error as Error).name}).`,
      creating && unreached,
    );
  }
}

/** Its files: URLs, or base64 `data:` URIs (what sync mode answers for some models). */
function outputUrls(prediction: Prediction): string[] {
  const output: unknown = prediction.output;
  const list = Array.isArray(output) ? output : [output];
  return list.filter((item): item is string => typeof item === 'string' && /^(https?:\/\/|data:)/.test(item));
}

function describe(error: unknown): string {
  if (typeof error === 'string' && error) return error.slice(0, 300);
  return 'no reason given';
}
