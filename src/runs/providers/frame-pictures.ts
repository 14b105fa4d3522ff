import { loadSharp } from '../../shared/sharp.js';
import type { RunFrameSource, ModelDeclaration } from '../../contract/index.js';
import { lastFrame } from '../../shared/ffmpeg.js';
import { ProviderError, type ProviderContext, type ProviderJob } from './provider.js';
import { dataUriOf, referenceModelInput } from './reference-pictures.js';

/**
 * The frames a video run of a shot starts and ends on (docs/storyboards.md, "Continuity"), as a provider sends them:
 * PNGs of at most 1920 pixels a side (lossless: the first frame is what the clip must continue from). A picture is
 * turned upright; a video's last frame is taken out with ffmpeg and kept as decoded.
 */

export interface FramePicture {
  bytes: Buffer;
  mimeType: 'image/png';
}

export type FrameEnd = 'first' | 'last';

const FRAME_SIDE = 1920;

const describe = (end: FrameEnd, source: RunFrameSource) =>
  `the ${end} frame (${source.from === 'video_last_frame' ? 'the last frame of the video' : 'the picture'} of shot ${source.shot_id})`;

async function framePicture(end: FrameEnd, source: RunFrameSource, context: ProviderContext): Promise<FramePicture> {
  const path = await context.inputFile(source.asset_id);
  if (!path)
    throw new ProviderError(
      'input_missing',
      `${describe(end, source)} refers to the asset ${source.asset_id}, which is not on this server.`,
      false,
    );
  const sharp = await loadSharp();
  const decoded =
    source.from === 'video_last_frame'
      ? sharp(await lastFrame(path, context.signal))
      : sharp(path, { limitInputPixels: 100_000_000 }).rotate();
  const { width = 0, height = 0 } = await decoded.metadata();
  const bytes =
    source.from === 'video_last_frame' && Math.max(width, height) <= FRAME_SIDE
      ? await decoded.png().toBuffer()
      : await decoded
          .resize({ width: FRAME_SIDE, height: FRAME_SIDE, fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer();
  return { bytes, mimeType: 'image/png' };
}

/** The run's frames as pictures, by end; none when it has none. */
export async function framePictures(
  job: ProviderJob,
  context: ProviderContext,
): Promise<Partial<Record<FrameEnd, FramePicture>>> {
  const pictures: Partial<Record<FrameEnd, FramePicture>> = {};
  for (const end of ['first', 'last'] as const) {
    const source = job.frames?.[end];
    if (source) pictures[end] = await framePicture(end, source, context);
  }
  return pictures;
}

const FIELD_OF: Record<FrameEnd, 'firstFrame' | 'lastFrame'> = { first: 'firstFrame', last: 'lastFrame' };

/**
 * The hosted model input with the run's frames added, each in the input its declaration names. A run whose frames
 * its model does not take fails before anything is sent, naming the frame and the model: the model it was submitted
 * for took them, so this worker was configured with another (docs/runs.md, "Model declarations").
 */
export async function withFrames(
  input: Record<string, unknown>,
  model: string,
  declaration: ModelDeclaration,
  job: ProviderJob,
  context: ProviderContext,
): Promise<Record<string, unknown>> {
  const ends = (['first', 'last'] as const).filter((end) => job.frames?.[end]);
  if (ends.length === 0) return input;
  for (const end of ends) {
    const field = FIELD_OF[end];
    if (!declaration.accepts[field] || !declaration.inputs[field])
      throw new ProviderError(
        'input_not_accepted',
        `The run was given a ${end} frame, and ${model} takes none (${field}): this worker runs another model than the one the run was submitted for.`,
        false,
      );
  }
  const pictures = await framePictures(job, context);
  let withThem = input;
  for (const end of ends)
    withThem = {
      ...withThem,
      ...referenceModelInput(declaration.inputs[FIELD_OF[end]]!, [dataUriOf(pictures[end]!)]),
    };
  return withThem;
}
