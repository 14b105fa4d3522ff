import type { RunOperation } from '../contract/index.js';
import type { RunPlan } from './operations.js';

/**
 * What a run is estimated to cost (issue 22): the node type's price (docs/runs.md, "Idempotency and cost"), unless
 * the model the operation runs on has a price in `--run-prices` (credits per output), which then drives the estimate,
 * the budget check and the spending limits alike.
 */
export type RunPricing = (plan: RunPlan) => number;

export const DEFAULT_PRICING: RunPricing = (plan) => plan.costEstimated;

export function modelPricing(prices: Readonly<Record<string, number>>, modelOf: (operation: RunOperation) => string | null): RunPricing {
  if (Object.keys(prices).length === 0) return DEFAULT_PRICING;
  return (plan) => {
    const model = modelOf(plan.operation);
    const price = model === null ? undefined : prices[model];
    return price === undefined ? plan.costEstimated : Math.round(price * Math.max(plan.outputs.length, 1) * 100) / 100;
  };
}
