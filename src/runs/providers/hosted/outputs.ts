import type { AssetKind } from '../../../contract/index.js';
import { ProviderError, abortableDelay, type ProducedAsset, type ProviderJob } from '../provider.js';

const DEFAULT_MIME: Record<AssetKind, string> = {
  image: 'image/png',
  audio: 'audio/mpeg',
  video: 'video/mp4',
  model: 'model/gltf-binary',
  json: 'application/json',
};

/**
 * A hosted provider's result files copied into our asset storage (issue 22): its URLs are short-lived and never handed
 * out. Each URL is fetched once more after a 5xx or a dropped connection; a 404 or any other refusal fails the run
 * with a provider_error naming the provider and the status.
 */
export async function downloadOutputs(
  provider: string,
  job: ProviderJob,
  urls: readonly string[],
  signal: AbortSignal,
): Promise<ProducedAsset[]> {
  if (urls.length < job.outputs.length) {
    throw new ProviderError(
      'provider_error',
      `${provider} answered ${urls.length} result file(s) where the run asked for ${job.outputs.length}.`,
      false,
    );
  }
  const assets: ProducedAsset[] = [];
  for (const [index, output] of job.outputs.entries()) {
    const { bytes, mimeType } = await download(provider, urls[index]!, signal);
    assets.push({ assetId: output.assetId, kind: output.kind, mimeType: mimeType ?? DEFAULT_MIME[output.kind], bytes });
  }
  return assets;
}

async function download(
  provider: string,
  url: string,
  signal: AbortSignal,
): Promise<{ bytes: Buffer; mimeType: string | null }> {
  for (let attempt = 1; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(120_000)]) });
    } catch (error) {
      if (signal.aborted) throw signal.reason as Error;
      if (attempt < 2) {
        await abortableDelay(250, signal);
        continue;
      }
      throw new ProviderError(
        'provider_unavailable',
        `${provider}'s result file could not be fetched (${(error as Error).name}).`,
        false,
      );
    }
    if (response.ok) {
      const type = response.headers.get('content-type')?.split(';', 1)[0]?.trim() || null;
      return {
        bytes: Buffer.from(await response.arrayBuffer()),
        mimeType: type === 'application/octet-stream' ? null : type,
      };
    }
    await response.body?.cancel();
    if (response.status >= 500 && attempt < 2) {
      await abortableDelay(250, signal);
      continue;
    }
    throw new ProviderError('provider_error', `${provider}'s result file answered HTTP ${response.status}.`, false);
  }
}
