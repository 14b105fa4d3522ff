// The contract's own files, not its index (which builds every wire shape): every command line loads the settings.
import { MAX_RUN_REFERENCES } from '../contract/elements.js';
import { ModelDeclaration, type ModelAccepts } from '../contract/run-models.js';

/**
 * What each known model accepts and in which input of its API (docs/runs.md, "Model declarations"), from the models'
 * published input schemas. Parsed with the contract's schema when loaded, so a wrong entry stops the process at start,
 * not a run. A model not named here takes nothing beyond its prompt; which models take the elements' reference
 * pictures is the `referenceInputs` setting, whose default is the entries here that take them.
 */

export const ACCEPTS_NOTHING: ModelAccepts = {
  firstFrame: false,
  lastFrame: false,
  references: 0,
  cameraControl: false,
};

const declare = (accepts: Partial<ModelAccepts>, inputs: ModelDeclaration['inputs']): ModelDeclaration =>
  ModelDeclaration.parse({ accepts: { ...ACCEPTS_NOTHING, ...accepts }, inputs });

/** First and last frames (image-to-video with an end frame). */
const frames = (first: string, last?: string) =>
  declare({ firstFrame: true, lastFrame: last !== undefined }, { firstFrame: first, lastFrame: last });

export const MODEL_DECLARATIONS: Readonly<Record<string, ModelDeclaration>> = {
  // Pictures.
  'gpt-image-1': declare({ references: 16 }, { references: 'image[]' }),
  'gpt-image-1-mini': declare({ references: 16 }, { references: 'image[]' }),
  'fal-ai/flux/schnell': declare({}, {}),
  'fal-ai/flux-pro/kontext': declare({ references: 1 }, { references: 'image_url' }),
  'fal-ai/nano-banana/edit': declare({ references: MAX_RUN_REFERENCES }, { references: 'image_urls[]' }),
  'black-forest-labs/flux-schnell': declare({}, {}),
  'black-forest-labs/flux-kontext-pro': declare({ references: 1 }, { references: 'input_image' }),
  'google/nano-banana': declare({ references: MAX_RUN_REFERENCES }, { references: 'image_input[]' }),
  // Films.
  'fal-ai/ltx-video': declare({}, {}),
  'fal-ai/ltx-video/image-to-video': frames('image_url'),
  'fal-ai/kling-video/v1.6/pro/image-to-video': frames('image_url', 'tail_image_url'),
  'fal-ai/kling-video/v1/standard/text-to-video': declare({ cameraControl: true }, { cameraControl: 'camera_control' }),
  'fal-ai/luma-dream-machine/ray-2/image-to-video': frames('image_url', 'end_image_url'),
  'fal-ai/veo3.1/first-last-frame-to-video': frames('first_frame_url', 'last_frame_url'),
  'minimax/video-01': frames('first_frame_image'),
  'kwaivgi/kling-v2.1': frames('start_image', 'end_image'),
  'google/veo-3.1': frames('image', 'last_frame'),
};

/** The `referenceInputs` setting's default: the declared models that take reference pictures, and in which input. */
export const DEFAULT_REFERENCE_INPUTS: Record<string, string> = Object.fromEntries(
  Object.entries(MODEL_DECLARATIONS).flatMap(([model, declaration]) =>
    declaration.inputs.references ? [[model, declaration.inputs.references]] : [],
  ),
);

/**
 * A model's declaration as this server runs it: its entry (a Replicate version `owner/name:version` is named by its
 * model), with reference pictures only when `referenceInputs` names the model, in the input it names there (a list of
 * at most MAX_RUN_REFERENCES, or one picture).
 */
export function declarationOf(
  model: string,
  referenceInputs: Readonly<Record<string, string>> | undefined = DEFAULT_REFERENCE_INPUTS,
): ModelDeclaration {
  const named = model.split(':', 1)[0]!;
  const known = MODEL_DECLARATIONS[model] ?? MODEL_DECLARATIONS[named];
  const base = known ?? { accepts: ACCEPTS_NOTHING, inputs: {} };
  const referenceInput = referenceInputs[model] ?? referenceInputs[named];
  const { references: _input, ...otherInputs } = base.inputs;
  if (!referenceInput) return { accepts: { ...base.accepts, references: 0 }, inputs: otherInputs };
  const most = referenceInput.endsWith('[]') ? MAX_RUN_REFERENCES : 1;
  return {
    accepts: { ...base.accepts, references: Math.min(base.accepts.references || most, most) },
    inputs: { ...otherInputs, references: referenceInput },
  };
}
