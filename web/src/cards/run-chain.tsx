import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { ChainEstimate } from '../../../src/contract/index.js';
import { useCanvas } from '../ui/canvas-context.js';
import { credits } from '../model/values.js';

/**
 * "Run from here" on a card (docs/runs.md, "Downstream chains"): the quote before (which nodes downstream run, which
 * are cached because nothing they read changed, the whole cost against the budget), and the chain's progress after,
 * with one Cancel for all of its steps.
 */

const CHAIN_POLL_MS = 1000;

function useNodeLabels(): (nodeId: string) => string {
  const { controller } = useCanvas();
  const nodes = useStore(controller.store, (state) => state.layout.nodes);
  return (nodeId) => {
    const node = nodes.find((candidate) => candidate.id === nodeId);
    const name = node?.data.displayName;
    return typeof name === 'string' && name.trim() !== '' ? name : nodeId;
  };
}

export function ChainQuote({ estimate }: { estimate: ChainEstimate }) {
  const label = useNodeLabels();
  const running = estimate.steps.filter((step) => !step.cached);
  const cached = estimate.steps.length - running.length;
  const { credits: budgetCredits, left } = estimate.budget;
  return (
    <>
      <p>
        {running.length === 0 ? (
          <>Nothing changed: every node of this chain is cached, so nothing would run.</>
        ) : (
          <>
            {running.length} {running.length === 1 ? 'node runs' : 'nodes run'}
            {cached > 0 ? `, ${cached} cached (unchanged since their last result)` : ''}, for about{' '}
            <strong>{credits(estimate.cost.estimated)}</strong> together.
          </>
        )}
      </p>
      <ol className="chain-steps" aria-label="Steps of the chain">
        {estimate.steps.map((step) => (
          <li key={step.node_id} data-step={step.node_id} data-cached={step.cached ? 'true' : 'false'}>
            <span>{label(step.node_id)}</span>
            <span className="muted">{step.cached ? 'cached' : credits(step.cost)}</span>
          </li>
        ))}
      </ol>
      <p className="muted">
        {budgetCredits === null
          ? 'No budget limit on this project.'
          : `Budget: ${left ?? 0} of ${credits(budgetCredits)} left.`}
      </p>
      {estimate.fits_budget ? null : (
        <p className="error-line">That is more than the budget has left: the chain would be refused.</p>
      )}
    </>
  );
}

/**
 * The chain started from this card (kept by the canvas, so it outlives the card leaving the screen), while it runs and
 * once it ended; Cancel stops every step not yet ended. Read once a second, one read at a time; a read sent before a
 * cancel is not allowed to show the chain as running again.
 */
export function ChainProgress({ rootNodeId }: { rootNodeId: string }) {
  const { controller } = useCanvas();
  const label = useNodeLabels();
  const chain = useStore(controller.store, (state) => state.chains[rootNodeId]);
  const [failures, setFailures] = useState<string | null>(null);
  const generation = useRef(0);
  const chains = controller.chains;
  const active = chain?.status === 'active';
  const chainId = chain?.chain_id;

  useEffect(() => {
    if (!active || !chains || !chainId) return;
    let reading = false;
    let failed = 0;
    const timer = setInterval(() => {
      if (reading) return;
      reading = true;
      const asked = generation.current;
      chains
        .read(chainId)
        .then((next) => {
          failed = 0;
          setFailures(null);
          if (asked === generation.current) chains.track(next);
        })
        .catch((error: unknown) => {
          failed += 1;
          if (failed >= 3) setFailures((error as Error).message);
        })
        .finally(() => {
          reading = false;
        });
    }, CHAIN_POLL_MS);
    return () => clearInterval(timer);
  }, [active, chainId, chains]);

  if (!chain || !chains) return null;
  const ran = chain.steps.filter((step) => step.status !== 'cached');
  const done = ran.filter((step) => step.status === 'succeeded').length;
  const cached = chain.steps.length - ran.length;
  const failedStep = chain.steps.find((step) => step.status === 'failed');
  const summary = active
    ? `Chain running: ${done} of ${ran.length} done${cached > 0 ? `, ${cached} cached` : ''}.`
    : {
        succeeded: `Chain done: ${ran.length} ran${cached > 0 ? `, ${cached} cached` : ''}, ${credits(chain.cost.charged)}.`,
        failed: `Chain stopped: ${failedStep ? label(failedStep.node_id) : 'a step'} failed (its card says why), so the steps after it did not run.`,
        cancelled: 'Chain cancelled: the steps not yet run did not start.',
        active: '',
      }[chain.status];
  return (
    <div className="chain-progress" role="status" data-chain-status={chain.status}>
      <span>
        {summary}
        {failures ? (
          <span className="error-line">
            {' '}
            Could not follow the chain ({failures}); its steps go on, each card shows its own run.
          </span>
        ) : null}
      </span>
      {active ? (
        <button
          type="button"
          className="button-small"
          onClick={() => {
            generation.current += 1;
            void chains.cancel(chain.chain_id);
          }}
        >
          Cancel chain
        </button>
      ) : (
        <button type="button" className="button-small" onClick={() => chains.forget(rootNodeId)}>
          Close
        </button>
      )}
    </div>
  );
}
