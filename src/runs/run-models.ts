import type { PricingSettings } from '../config/index.js';
import { RunOperation, type ModelAccepts, type RunModel } from '../contract/index.js';
import { ACCEPTS_NOTHING, declarationOf } from '../shared/model-declarations.js';
import { configuredModelOf } from './pricing.js';
import { LOCAL_MODEL, LOCAL_PROVIDER } from './providers/local-provider.js';

/**
 * Which model each operation runs on here and what it accepts (docs/runs.md, "Model declarations"): the one answer
 * `GET /api/v1/run-models` gives and submissions check a run's inputs against. Built from the settings alone (no
 * keys), so the server that takes a submission and the worker that runs it agree when they share their settings.
 */
export interface RunModels {
  list(): RunModel[];
  of(operation: RunOperation): RunModel;
}

/** The offline provider renders a video from a first and a last frame (a cross-fade through its own picture). */
function localAccepts(operation: RunOperation): ModelAccepts {
  return operation === 'video_generation' ? { ...ACCEPTS_NOTHING, firstFrame: true, lastFrame: true } : ACCEPTS_NOTHING;
}

function providerOf(config: PricingSettings, operation: RunOperation): string {
  switch (operation) {
    case 'image_generation':
      return config.imageProvider === 'openai' ? 'openai-images' : config.imageProvider;
    case 'speech_generation':
      return config.speechProvider === 'openai' ? 'openai-speech' : LOCAL_PROVIDER;
    case 'video_generation':
      return config.videoProvider;
    case 'storyboard_generation':
      return config.storyboardProvider;
    default:
      return LOCAL_PROVIDER;
  }
}

export function runModelsOf(config: PricingSettings): RunModels {
  const modelOf = configuredModelOf(config);
  const models = new Map(
    RunOperation.options.map((operation): [RunOperation, RunModel] => {
      const model = modelOf(operation);
      if (model === null)
        return [
          operation,
          { operation, provider: LOCAL_PROVIDER, model: LOCAL_MODEL, accepts: localAccepts(operation) },
        ];
      const provider = providerOf(config, operation);
      return [operation, { operation, provider, model, accepts: declarationOf(model, config.referenceInputs).accepts }];
    }),
  );
  return { list: () => [...models.values()], of: (operation) => models.get(operation)! };
}

/** Every operation on the offline provider: what a submission is checked against when no settings are given. */
export const LOCAL_RUN_MODELS: RunModels = (() => {
  const models = RunOperation.options.map((operation): RunModel => ({
    operation,
    provider: LOCAL_PROVIDER,
    model: LOCAL_MODEL,
    accepts: localAccepts(operation),
  }));
  return { list: () => models, of: (operation) => models.find((model) => model.operation === operation)! };
})();
