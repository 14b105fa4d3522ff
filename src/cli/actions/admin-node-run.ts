import { loadPricingSettings } from '../../config/index.js';
import { IdempotencyKey, NodeId } from '../../contract/index.js';
import { parseOrThrow } from '../../shared/errors.js';
import { report, withStore } from '../cli-support.js';
import type { AdminFlags } from './admin-projects.js';

/** `canvas-mcp admin node-run submit`: a node run submitted as the server would, priced from the same settings. */

export type SubmitFlags = AdminFlags & { idempotencyKey?: string };

export function submitRun(projectId: string, canvasId: string, nodeId: string, flags: SubmitFlags): Promise<void> {
  return withStore(flags, async (store) => {
    // Loaded once the store is open: a missing store is answered without loading how runs are priced and submitted.
    const { submitNodeRun } = await import('../../runs/submit.js');
    const { runPricingOf } = await import('../../runs/pricing.js');
    const { runModelsOf } = await import('../../runs/run-models.js');
    const settings = loadPricingSettings({});
    const { run: submitted, replayed } = await submitNodeRun(store, {
      projectId,
      canvasId,
      nodeId: parseOrThrow(NodeId, nodeId, ['node_id']),
      idempotencyKey:
        flags.idempotencyKey === undefined
          ? null
          : parseOrThrow(IdempotencyKey, flags.idempotencyKey, ['--idempotency-key']),
      triggeredBy: { kind: 'system', name: 'admin-cli' },
      // Priced and checked as the server does: the providers, models and prices of the environment or the
      // settings file.
      pricing: runPricingOf(settings),
      models: runModelsOf(settings),
    });
    report(
      flags.json,
      {
        run_id: submitted.run_id,
        status: submitted.status,
        replayed,
        estimated_credits: submitted.cost.estimated,
      },
      `run ${submitted.run_id} ${replayed ? 'already existed' : 'submitted'} (${submitted.status}, estimated ${submitted.cost.estimated} credits)`,
    );
  });
}
