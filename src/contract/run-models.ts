import { z } from 'zod';
import { RunOperation } from './node-run.js';

/**
 * The models runs go to and what each accepts (docs/runs.md, "Model declarations"). Every model a provider may run
 * declares, once, which inputs beyond the prompt it takes: a first frame, a last frame, reference pictures (how many)
 * and camera control; a hosted model also names the input of its API that takes each. A model nobody declared takes
 * none of them, so a board keeps running when a model is retired and another configured: what the new model cannot
 * take is refused by name before anything is charged (src/runs/shot-frames.ts), never sent to an API that would
 * choke on it.
 */

export const ModelAccepts = z
  .strictObject({
    firstFrame: z.boolean(),
    lastFrame: z.boolean(),
    /** How many reference pictures at most; 0: none. */
    references: z.int().min(0).max(16),
    cameraControl: z.boolean(),
  })
  .meta({ id: 'ModelAccepts' });
export type ModelAccepts = z.infer<typeof ModelAccepts>;

/** An input of a hosted model's API; `[]` at its end: a list (the pictures go in it as a list). */
export const ModelInputName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}(\[\])?$/, {
  error: 'must be an input name, with [] at its end when the input is a list',
});

/** A model's declaration: what it accepts, and in which of its API's inputs (none for the local provider). */
export const ModelDeclaration = z.strictObject({
  accepts: ModelAccepts,
  inputs: z
    .strictObject({
      firstFrame: ModelInputName.optional(),
      lastFrame: ModelInputName.optional(),
      references: ModelInputName.optional(),
      cameraControl: ModelInputName.optional(),
    })
    .default({}),
});
export type ModelDeclaration = z.infer<typeof ModelDeclaration>;

/** One operation as this server runs it: the provider, the model and what that model accepts. */
export const RunModel = z
  .strictObject({
    operation: RunOperation,
    provider: z.string(),
    model: z.string(),
    accepts: ModelAccepts,
  })
  .meta({ id: 'RunModel' });
export type RunModel = z.infer<typeof RunModel>;

/** `GET /api/v1/run-models`: every operation that runs on a model, in the order of RunOperation. */
export const RunModelList = z.strictObject({ models: z.array(RunModel) });
export type RunModelList = z.infer<typeof RunModelList>;

/**
 * Where a video run of a shot starts (docs/storyboards.md, "Continuity"): from the shot's picture (the default), or
 * from the last frame of the shot before it (its video's, else its picture), the shot's picture then being the clip's
 * last frame when the model takes one.
 */
export const START_FROM = ['shot_picture', 'previous_last_frame'] as const;
export const StartFrom = z.enum(START_FROM);
export type StartFrom = z.infer<typeof StartFrom>;

/** The query of `POST …/nodes/{node_id}/runs`. */
export const SubmitRunQuery = z.strictObject({
  start_from: StartFrom.optional().meta({
    description:
      "A video run of a shot: start from the shot's picture (default) or from the previous shot's last frame; refused, naming the model, when the model takes no first frame.",
  }),
});
export type SubmitRunQuery = z.infer<typeof SubmitRunQuery>;

const AssetIdOfRun = z.string().regex(/^asset_[A-Za-z0-9_-]{16}$/, { error: 'must be an asset id (asset_…)' });

/** One frame a run is given: a picture, or the last frame of a video (taken out by the worker with ffmpeg). */
export const RunFrameSource = z.strictObject({
  asset_id: AssetIdOfRun,
  from: z.enum(['picture', 'video_last_frame']),
  /** The shot it comes from, for messages that name it. */
  shot_id: z.string(),
});
export type RunFrameSource = z.infer<typeof RunFrameSource>;

/** How a run's input carries its frames (`frames`), decided at submission; the provider reads them by asset id. */
export const RunFrames = z.strictObject({
  first: RunFrameSource.optional(),
  last: RunFrameSource.optional(),
});
export type RunFrames = z.infer<typeof RunFrames>;
