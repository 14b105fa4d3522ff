import { z } from 'zod';
import { ProviderError, type RunProvider } from './provider.js';
import { aspectOf } from './artifacts.js';
import { referencePictures, type ReferencePicture } from './reference-pictures.js';

/**
 * An adapter for an OpenAI-compatible images API (`POST {baseUrl}/images/generations`, or `/images/edits` with the
 * elements' reference pictures for a model that takes them). Only image generation goes here; the key is sent to that API only and never logged or echoed in an error.
 */
export interface OpenAiImagesOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  /** Models named here take the elements' reference pictures: the run goes to `/images/edits` with them. */
  referenceInputs?: Readonly<Record<string, string>>;
}

const ImagesResponse = z.object({
  data: z.array(z.object({ b64_json: z.string() })).min(1),
});
const ApiErrorBody = z.object({ error: z.object({ message: z.string() }) });

function sizeFor(aspect: number): string {
  if (aspect > 1.15) return '1536x1024';
  if (aspect < 0.87) return '1024x1536';
  return '1024x1024';
}

export function createOpenAiImagesProvider(options: OpenAiImagesOptions): RunProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const takesReferences = options.referenceInputs?.[options.model] !== undefined;
  return {
    name: 'openai-images',
    async execute(job, context) {
      const { signal, progress } = context;
      if (job.operation !== 'image_generation') {
        throw new ProviderError('unsupported_operation', `The images API cannot run ${job.operation}.`, false);
      }
      const fields = {
        model: options.model,
        prompt: String(job.input.prompt ?? ''),
        n: job.outputs.length,
        size: sizeFor(aspectOf(job.input.aspectRatio)),
      };
      const pictures = takesReferences && job.references.length > 0 ? await referencePictures(job, context) : [];
      // With reference pictures, the edits endpoint (multipart, `image[]` files); without, generations (JSON).
      const request: { endpoint: string; headers: Record<string, string>; body: FormData | string } =
        pictures.length > 0
          ? { endpoint: `${base}/images/edits`, headers: {}, body: editForm(fields, pictures) }
          : {
              endpoint: `${base}/images/generations`,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ ...fields, response_format: 'b64_json' }),
            };
      progress(5, 'sent to the images API');
      let response: Response;
      try {
        response = await fetch(request.endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, ...request.headers },
          body: request.body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? 120_000)]),
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason as Error;
        throw new ProviderError(
          'provider_unavailable',
          `The images API could not be reached (${(error as Error).name}).`,
          true,
        );
      }
      const text = await response.text();
      if (!response.ok) {
        const detail = ApiErrorBody.safeParse(safeJson(text));
        const message = `The images API answered HTTP ${response.status}${detail.success ? `: ${detail.data.error.message}` : ''}.`;
        // 429 and 5xx may pass; other 4xx will not.
        throw new ProviderError('provider_error', message, response.status === 429 || response.status >= 500);
      }
      const parsed = ImagesResponse.safeParse(safeJson(text));
      if (!parsed.success || parsed.data.data.length < job.outputs.length) {
        throw new ProviderError('provider_error', 'The images API answered a body without the expected images.', false);
      }
      progress(90, 'storing images');
      return {
        assets: job.outputs.map((output, index) => ({
          assetId: output.assetId,
          kind: 'image' as const,
          mimeType: 'image/png',
          bytes: Buffer.from(parsed.data.data[index]!.b64_json, 'base64'),
        })),
        referencesUsed: pictures.length > 0,
        model: options.model,
      };
    },
  };
}

function editForm(fields: Record<string, string | number>, pictures: readonly ReferencePicture[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  pictures.forEach((picture, index) =>
    form.append('image[]', new Blob([picture.bytes], { type: picture.mimeType }), `reference-${index + 1}.jpg`),
  );
  return form;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
