import { isAllowedType, mediaTypeOf } from '../../../assets/media-types.js';
import type { AssetKind } from '../../../contract/index.js';
import { ProviderError, abortableDelay, type ProducedAsset, type ProviderJob } from '../provider.js';

/**
 * A hosted provider's result files copied into our asset storage: its URLs are short-lived and never handed
 * out. Each URL is fetched once more after a 5xx or a dropped connection; a 404 or any other refusal fails the run
 * with a provider_error naming the provider and the status. What a file is comes from its bytes, never from the
 * provider's `content-type` (docs/security.md, "Assets and provider results"): a result that is not a picture, sound or
 * film of the kind the run makes (an SVG or an HTML page, whatever it claims) fails the run and is not kept.
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
    const url = urls[index]!;
    refuseDataUriOfOtherType(provider, url, output.kind);
    const bytes = await download(provider, url, signal);
    const verdict = await mediaTypeOf(output.kind, bytes);
    if (!verdict.ok) {
      throw new ProviderError(
        'provider_error',
        `${provider}'s result file ${index + 1} is ${verdict.found}, not ${articleOf(output.kind)}: it was not kept.`,
        false,
      );
    }
    assets.push({ assetId: output.assetId, kind: output.kind, mimeType: verdict.mimeType, bytes });
  }
  return assets;
}

const articleOf = (kind: AssetKind) => (kind === 'image' || kind === 'audio' ? `an ${kind} file` : `a ${kind} file`);

/** A `data:` URI names its type: only the types of the output's kind are taken (the bytes are checked too). */
function refuseDataUriOfOtherType(provider: string, url: string, kind: AssetKind): void {
  if (!url.startsWith('data:')) return;
  const declared = url.slice(5, url.indexOf(',') < 0 ? undefined : url.indexOf(',')).split(';', 1)[0] ?? '';
  if (!isAllowedType(kind, declared)) {
    throw new ProviderError(
      'provider_error',
      `${provider} answered a data: URI of type ${declared || 'none'} where the run makes ${articleOf(kind)}: it was not kept.`,
      false,
    );
  }
}

async function download(provider: string, url: string, signal: AbortSignal): Promise<Buffer> {
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
    if (response.ok) return Buffer.from(await response.arrayBuffer());
    await response.body?.cancel();
    if (response.status >= 500 && attempt < 2) {
      await abortableDelay(250, signal);
      continue;
    }
    throw new ProviderError('provider_error', `${provider}'s result file answered HTTP ${response.status}.`, false);
  }
}
