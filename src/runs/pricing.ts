import type { PricingSettings } from '../config/index.js';
import type { RunOperation } from '../contract/index.js';
import type { RunPlan } from './operations.js';

/**
 * What a run is estimated to cost: the node type's price (docs/runs.md, "Idempotency and cost"), unless the model the
 * operation runs on has a price in `--run-prices` (credits per output), which then drives the estimate, the budget
 * check and the spending limits alike.
 */
export type RunPricing = (plan: RunPlan) => number;

export const DEFAULT_PRICING: RunPricing = (plan) => plan.costEstimated;

export function modelPricing(
  prices: Readonly<Record<string, number>>,
  modelOf: (operation: RunOperation) => string | null,
): RunPricing {
  if (Object.keys(prices).length === 0) return DEFAULT_PRICING;
  return (plan) => {
    const model = modelOf(plan.operation);
    const price = model === null ? undefined : prices[model];
    return price === undefined ? plan.costEstimated : Math.round(price * Math.max(plan.outputs.length, 1) * 100) / 100;
  };
}

/** The model an operation runs on as configured, or null on the local provider (it has no model to price). */
export function configuredModelOf(config: PricingSettings): (operation: RunOperation) => string | null {
  const hosted = (
    choice: 'local' | 'openai' | 'replicate' | 'fal',
    models: { openai?: string; replicate: string; fal: string },
  ) =>
    choice === 'replicate'
      ? models.replicate
      : choice === 'fal'
        ? models.fal
        : choice === 'openai'
          ? (models.openai ?? null)
          : null;
  return (operation) => {
    switch (operation) {
      case 'image_generation':
        return hosted(config.imageProvider, {
          openai: config.openaiModel,
          replicate: config.replicateImageModel,
          fal: config.falImageModel,
        });
      case 'speech_generation':
        return config.speechProvider === 'openai' ? config.openaiSpeechModel : null;
      case 'video_generation':
        return hosted(config.videoProvider, { replicate: config.replicateVideoModel, fal: config.falVideoModel });
      case 'storyboard_generation':
        return hosted(config.storyboardProvider, {
          replicate: config.replicateStoryboardModel,
          fal: config.falStoryboardModel,
        });
      default:
        return null;
    }
  };
}

/** Estimates as configured: `--run-prices` for the models operations run on, else the node types' prices. */
export function runPricingOf(config: PricingSettings): RunPricing {
  return modelPricing(config.runPrices, configuredModelOf(config));
}
