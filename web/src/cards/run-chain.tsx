import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { ChainEstimate, RunChain } from '../../../src/contract/index.js';
import { useCanvas } from '../canvas/context.js';

/**
 * "Run from here" on a card (issue 22): the quote before (which nodes downstream run, which are cached because
 * nothing they read changed, the whole cost against the budget), and the chain's progress after, with one Cancel for
 * all of its steps.
 */

const CHAIN_POLL_MS = 1000;

function useNodeLabels(): (nodeId: string) => string {
  const { controller } = useCanvas();
  const nodes = useStore(controller.store, (state) => state.layout.nodes);
  return (nodeId) => {
    const node = nodes.find((candidate) => candidate.id === nodeId);
    const name = (node?.data as { displayName?: unknown } | undefined)?.displayName;
    return typeof name === 'string' && name.trim() !== '' ? name : nodeId;
  };
}

export function ChainQuote({ estimate }: { estimate: ChainEstimate }) {
  const label = useNodeLabels();
  const running = estimate.steps.filter((step) => !step.cached);
  const cached = estimate.steps.length - running.length;
  const { credits, left } = estimate.budget;
  return (
    <>
      <p>
        {running.length === 0 ? (
          <>Nothing changed: every node of this chain is cached, so nothing would run.</>
        ) : (
          <>
            {running.length} {running.length === 1 ? 'node runs' : 'nodes run'}
            {cached > 0 ? `, ${cached} cached (unchanged since their last result)` : ''}, for about <strong>{estimate.cost.estimated} credits</strong> together.
          </>
        )}
      </p>
      <ol className="chain-steps" aria-label="Steps of the chain">
        {estimate.steps.map((step) => (
          <li key={step.node_id} data-step={step.node_id} data-cached={step.cached ? 'true' : 'false'}>
            <span>{label(step.node_id)}</span>
            <span className="muted">{step.cached ? 'cached' : `${step.cost} credits`}</span>
          </li>
        ))}
      </ol>
      <p className="muted">{credits === null ? 'No budget limit on this project.' : `Budget: ${left ?? 0} of ${credits} credits left.`}</p>
      {estimate.fits_budget ? null : <p className="error-line">That is more than the budget has left: the chain would be refused.</p>}
    </>
  );
}

/** The chain started from this card, while it runs and once it ended; Cancel stops every step not yet ended. */
export function ChainProgress({ chain: started, onClose }: { chain: RunChain; onClose: () => void }) {
  const { controller } = useCanvas();
  const [chain, setChain] = useState(started);
  const active = chain.status === 'active';
  useEffect(() => {
    if (!active || !controller.chains) return;
    const chains = controller.chains;
    const timer = setInterval(() => {
      chains.read(chain.chain_id).then(setChain, () => undefined);
    }, CHAIN_POLL_MS);
    return () => clearInterval(timer);
  }, [active, chain.chain_id, controller.chains]);

  const ran = chain.steps.filter((step) => step.status !== 'cached');
  const done = ran.filter((step) => step.status === 'succeeded').length;
  const cached = chain.steps.length - ran.length;
  const summary = active
    ? `Chain running: ${done} of ${ran.length} done${cached > 0 ? `, ${cached} cached` : ''}.`
    : {
        succeeded: `Chain done: ${ran.length} ran${cached > 0 ? `, ${cached} cached` : ''}, ${chain.cost.charged} credits.`,
        failed: 'Chain stopped: a step failed, so the steps after it did not run.',
        cancelled: 'Chain cancelled: the steps not yet run did not start.',
        active: '',
      }[chain.status];
  return (
    <div className="chain-progress" role="status" data-chain-status={chain.status}>
      <span>{summary}</span>
      {active ? (
        <button
          type="button"
          className="button-small"
          onClick={() => void controller.chains?.cancel(chain.chain_id).then((next) => next && setChain(next))}
        >
          Cancel chain
        </button>
      ) : (
        <button type="button" className="button-small" onClick={onClose}>
          Close
        </button>
      )}
    </div>
  );
}
