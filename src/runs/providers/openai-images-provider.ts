import { z } from 'zod';
import { ProviderError, type RunProvider } from './provider.js';
import { aspectOf } from './artifacts.js';

/**
 * An adapter for an OpenAI-compatible images API (`POST {baseUrl}/images/generations`). Only image generation goes
 * here; the key is sent to that API only and never logged or echoed in an error.
 */
export interface OpenAiImagesOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
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
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/images/generations`;
  return {
    name: 'openai-images',
    async execute(job, { signal, progress }) {
      if (job.operation !== 'image_generation') {
        throw new ProviderError('unsupported_operation', `The images API cannot run ${job.operation}.`, false);
      }
      progress(5, 'sent to the images API');
      const body = {
        model: options.model,
        prompt: String(job.input.prompt ?? ''),
        n: job.outputs.length,
        size: sizeFor(aspectOf(job.input.aspectRatio)),
        response_format: 'b64_json',
      };
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
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
      };
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
