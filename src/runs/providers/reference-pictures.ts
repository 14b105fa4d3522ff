import sharp from 'sharp';
import type { ProviderContext, ProviderJob } from './provider.js';

/**
 * The elements' reference pictures a run was given, as a provider sends them: upright JPEGs of at most 1024 pixels a
 * side (what image-reference models look at; small enough to send inline as `data:` URIs, which fal and Replicate take
 * for file inputs, or as the OpenAI edit endpoint's `image[]` files).
 */

export interface ReferencePicture {
  bytes: Buffer;
  mimeType: 'image/jpeg';
}

const REFERENCE_SIDE = 1024;

export async function referencePictures(job: ProviderJob, context: ProviderContext): Promise<ReferencePicture[]> {
  const pictures: ReferencePicture[] = [];
  for (const assetId of job.references) {
    const path = await context.inputFile(assetId);
    if (!path) continue;
    const bytes = await sharp(path, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: REFERENCE_SIDE, height: REFERENCE_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
    pictures.push({ bytes, mimeType: 'image/jpeg' });
  }
  return pictures;
}

export const dataUriOf = (picture: ReferencePicture) =>
  `data:${picture.mimeType};base64,${picture.bytes.toString('base64')}`;

/**
 * The model input holding the pictures, by the setting's input name: `image_urls[]` a list, `image_url` the first
 * picture only (a model that takes one).
 */
export function referenceModelInput(inputName: string, uris: readonly string[]): Record<string, unknown> {
  return inputName.endsWith('[]') ? { [inputName.slice(0, -2)]: [...uris] } : { [inputName]: uris[0] };
}

/**
 * The hosted model input with the run's reference pictures added when the model takes them (`referenceInputs`), and
 * whether they were: a model without the setting runs on the prompt alone.
 */
export async function withReferences(
  input: Record<string, unknown>,
  model: string,
  referenceInputs: Readonly<Record<string, string>> | undefined,
  job: ProviderJob,
  context: ProviderContext,
): Promise<{ input: Record<string, unknown>; referencesUsed: boolean }> {
  // A Replicate version (`owner/name:version`) is named by its model too.
  const inputName = referenceInputs?.[model] ?? referenceInputs?.[model.split(':', 1)[0]!];
  if (job.references.length === 0 || !inputName) return { input, referencesUsed: false };
  const pictures = await referencePictures(job, context);
  if (pictures.length === 0) return { input, referencesUsed: false };
  return { input: { ...input, ...referenceModelInput(inputName, pictures.map(dataUriOf)) }, referencesUsed: true };
}
