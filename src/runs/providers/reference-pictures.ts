import { loadSharp } from '../../shared/sharp.js';
import type { ModelDeclaration } from '../../contract/index.js';
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
  const sharp = await loadSharp();
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

export const dataUriOf = (picture: { bytes: Buffer; mimeType: string }) =>
  `data:${picture.mimeType};base64,${picture.bytes.toString('base64')}`;

/**
 * The model input holding the pictures, by the setting's input name: `image_urls[]` a list, `image_url` the first
 * picture only (a model that takes one).
 */
export function referenceModelInput(inputName: string, uris: readonly string[]): Record<string, unknown> {
  return inputName.endsWith('[]') ? { [inputName.slice(0, -2)]: [...uris] } : { [inputName]: uris[0] };
}

/**
 * The hosted model input with the run's reference pictures added when the model takes them (its declaration, from the
 * `referenceInputs` setting), at most as many as it takes, and whether they were: a model that takes none runs on the
 * prompt alone.
 */
export async function withReferences(
  input: Record<string, unknown>,
  declaration: ModelDeclaration,
  job: ProviderJob,
  context: ProviderContext,
): Promise<{ input: Record<string, unknown>; referencesUsed: boolean }> {
  const inputName = declaration.inputs.references;
  const most = declaration.accepts.references;
  if (job.references.length === 0 || !inputName || most === 0) return { input, referencesUsed: false };
  const pictures = await referencePictures({ ...job, references: job.references.slice(0, most) }, context);
  if (pictures.length === 0) return { input, referencesUsed: false };
  return { input: { ...input, ...referenceModelInput(inputName, pictures.map(dataUriOf)) }, referencesUsed: true };
}
