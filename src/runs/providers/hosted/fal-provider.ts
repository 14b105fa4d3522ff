import { ApiError, createFalClient, type QueueStatus } from '@fal-ai/client';
import type { RunOperation } from '../../../contract/index.js';
import { ProviderError, abortableDelay, type RunProvider } from '../provider.js';
import { hostedInputs } from './model-input.js';
import { downloadOutputs } from './outputs.js';

/**
 * fal's queue API through its official client (`@fal-ai/client`): submit, status (with the queue position, which the
 * run's progress shows: "queued at fal, position 3"), result, cancel. The client retries 429 and 502–504 (reads also
 * 500) with exponential backoff, three to five times. States map exactly: IN_QUEUE → queued, IN_PROGRESS → running,
 * COMPLETED → succeeded, or failed when fal reports an error (provider_error with its message). Our cancel calls fal's
 * cancel; a request fal already completed is delivered instead. A run cancelled while fal still queued its request is
 * charged nothing (progress 0: fal bills no queue time); once fal runs it, half its estimate.
 */
export interface FalOptions {
  apiKey: string;
  /** fal's queue origin; requests are sent there instead of https://queue.fal.run (a proxy, or a stand-in in tests). */
  queueUrl: string;
  /** The endpoint id (`fal-ai/flux/schnell`) per operation. */
  models: Partial<Record<RunOperation, string>>;
  /** Which models take the elements' reference pictures, in which input (the `referenceInputs` setting). */
  referenceInputs?: Readonly<Record<string, string>>;
  pollIntervalMs?: number;
}

export const FAL_PROVIDER = 'fal';
const FAL_QUEUE_ORIGIN = 'https://queue.fal.run';

export function createFalProvider(options: FalOptions): RunProvider {
  const origin = options.queueUrl.replace(/\/+$/, '');
  const client = createFalClient({
    credentials: options.apiKey,
    suppressLocalCredentialsWarning: true,
    requestMiddleware: async (request) => ({
      ...request,
      url: request.url.startsWith(FAL_QUEUE_ORIGIN) ? origin + request.url.slice(FAL_QUEUE_ORIGIN.length) : request.url,
    }),
  });
  const pollMs = options.pollIntervalMs ?? 1000;
  return {
    name: FAL_PROVIDER,
    async execute(job, context) {
      const { signal, progress } = context;
      const model = options.models[job.operation];
      if (!model)
        throw new ProviderError('unsupported_operation', `No fal model is configured for ${job.operation}.`, false);
      const { input, referencesUsed } = await hostedInputs(job, 'num_images', model, options.referenceInputs, context);
      const queued = await call(() => client.queue.submit(model, { input, abortSignal: signal }), signal, true);
      const requestId = queued.request_id;
      let status: QueueStatus = queued;
      try {
        while (status.status !== 'COMPLETED') {
          progress(
            status.status === 'IN_QUEUE' ? 0 : 50,
            status.status === 'IN_QUEUE' ? `queued at fal, position ${status.queue_position}` : 'running at fal',
          );
          await abortableDelay(pollMs, signal);
          status = await call(
            () => client.queue.status(model, { requestId, logs: false, abortSignal: signal }),
            signal,
          );
        }
      } catch (error) {
        if (!signal.aborted) throw error;
        // Our cancel: fal is told to stop. A request fal had completed first is delivered, not thrown away.
        const completed = await client.queue.cancel(model, { requestId }).then(
          () => false,
          (refusal: unknown) =>
            refusal instanceof ApiError &&
            refusal.status === 400 &&
            (refusal.body as { status?: string } | undefined)?.status === 'ALREADY_COMPLETED',
        );
        if (!completed) throw error;
      }
      const failure = (status as { error?: unknown }).error;
      if (typeof failure === 'string' && failure)
        throw new ProviderError('provider_error', `fal's request ${requestId} failed: ${failure.slice(0, 300)}`, false);
      progress(90, 'copying the result from fal');
      const finished = signal.aborted ? AbortSignal.timeout(120_000) : signal;
      const result = await call(() => client.queue.result(model, { requestId, abortSignal: finished }), finished);
      return { assets: await downloadOutputs('fal', job, resultUrls(result.data), finished), referencesUsed, model };
    },
  };
}

/**
 * A call to fal, its failures as ours: the HTTP status and fal's message, never the request. A submission refused
 * with 429 or 5xx queued nothing, so the engine may try the run again later (`submitting`); a read that still fails
 * after the client's retries is final, since trying again would queue a second, paid request.
 */
async function call<T>(request: () => Promise<T>, signal: AbortSignal, submitting = false): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    if (error instanceof ApiError) {
      const body = error.body as { detail?: unknown } | undefined;
      const detail =
        typeof body?.detail === 'string'
          ? body.detail
          : typeof error.message === 'string' && !error.message.startsWith('HTTP ')
            ? error.message
            : '';
      const passing = submitting && (error.status === 429 || error.status >= 500);
      throw new ProviderError(
        'provider_error',
        `fal answered HTTP ${error.status}${detail ? `: ${detail.slice(0, 300)}` : ''}.`,
        passing,
      );
    }
    throw new ProviderError('provider_unavailable', `fal could not be reached (${(error as Error).name}).`, submitting);
  }
}

/** The file URLs of a fal result, in order: `images[]`, then a single `image`, `video` or `audio_file`/`audio`. */
function resultUrls(data: unknown): string[] {
  const result = (data ?? {}) as Record<string, unknown>;
  const urlOf = (file: unknown) =>
    file && typeof (file as { url?: unknown }).url === 'string' ? [(file as { url: string }).url] : [];
  const images = Array.isArray(result.images) ? result.images.flatMap(urlOf) : [];
  return [
    ...images,
    ...urlOf(result.image),
    ...urlOf(result.video),
    ...urlOf(result.audio_file),
    ...urlOf(result.audio),
  ];
}
