import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { ChainEstimate, NodeRuntimeState, RunEstimate } from '../../../src/contract/index.js';
import { useCanvas, useEditable } from '../ui/canvas-context.js';
import { newKey } from '../model/api.js';
import { credits as creditsText } from '../model/values.js';
import { ChainProgress, ChainQuote } from './run-chain.js';
import { Select } from '../ui/select.js';

/**
 * Run and Cancel on a runnable card, and the state of its latest run as it changes (the change feed's node_state
 * events): queued, running with the time it has taken, succeeded, failed with its error, cancelled. A paid run is
 * started only after the person has seen its cost and the project's budget; each click on "Start" has its own
 * idempotency key, so a double click or a retried request never starts (or charges) a second run.
 */

const ACTIVE = new Set(['queued', 'running', 'cancel_requested']);

function useSecondsSince(startedAt: number | null, active: boolean): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return startedAt === null ? null : Math.max(0, Math.round((now - startedAt) / 1000));
}

export function RunStatusBadge({ state }: { state: NodeRuntimeState | undefined }) {
  const status = state?.lastRunStatus;
  const seconds = useSecondsSince(
    state?.generationStartedAt ?? null,
    status === 'running' || status === 'cancel_requested',
  );
  if (!state || !status)
    return (
      <span className="run-status run-none" data-run-status="none">
        Not run yet
      </span>
    );
  const percent = state.progress.percent;
  const label = {
    queued: 'Queued',
    running: `Running${seconds !== null ? ` ${seconds} s` : ''}${percent !== null ? ` · ${Math.round(percent)}%` : ''}`,
    cancel_requested: 'Cancelling…',
    succeeded: 'Done',
    failed: 'Failed',
    cancelled: 'Cancelled',
  }[status];
  return (
    <span className={`run-status run-${status}`} data-run-status={status} title={state.progress.message ?? undefined}>
      {ACTIVE.has(status) ? <span className="spinner" /> : null}
      {label}
    </span>
  );
}

function budgetLine(estimate: RunEstimate): string {
  const { credits, left } = estimate.budget;
  if (credits === null) return 'No budget limit on this project.';
  return `Budget: ${left ?? 0} of ${creditsText(credits)} left.`;
}

export function RunControls({ nodeId, state }: { nodeId: string; state: NodeRuntimeState | undefined }) {
  const { controller, viewOnly } = useCanvas();
  const editable = useEditable();
  const [confirming, setConfirming] = useState<{ estimate: RunEstimate | null; error: string | null } | null>(null);
  const [starting, setStarting] = useState(false);
  const [count, setCount] = useState(1);
  // "Run from here": this node and everything downstream of it.
  const [downstream, setDownstream] = useState<{ estimate: ChainEstimate | null; error: string | null } | null>(null);
  const followsChain = useStore(controller.store, (current) => current.chains[nodeId] !== undefined);
  const active = state !== undefined && ACTIVE.has(state.lastRunStatus);
  const runId = state?.externalRunId ?? null;

  const openConfirm = async () => {
    setConfirming({ estimate: null, error: null });
    try {
      setConfirming({ estimate: await controller.estimate(nodeId), error: null });
    } catch (error) {
      setConfirming({ estimate: null, error: (error as Error).message });
    }
  };
  // Each choice of what to run (and closing the dialog) outdates a chain quote still on its way.
  const scopeChoice = useRef(0);
  // Keyboard focus: into the dialog when it opens, back to Run when it closes (Escape closes it).
  const runButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);
  const isOpen = confirming !== null;
  useEffect(() => {
    if (isOpen && !wasOpen.current)
      dialog.current?.querySelector<HTMLElement>('input, button:not([disabled])')?.focus();
    if (!isOpen && wasOpen.current) runButton.current?.focus();
    wasOpen.current = isOpen;
  }, [isOpen]);
  const close = () => {
    scopeChoice.current += 1;
    setConfirming(null);
    setDownstream(null);
  };
  const chooseDownstream = async (chosen: boolean) => {
    const choice = ++scopeChoice.current;
    if (!chosen || !controller.chains) {
      setDownstream(null);
      return;
    }
    setCount(1);
    setDownstream({ estimate: null, error: null });
    let answer: { estimate: ChainEstimate | null; error: string | null };
    try {
      answer = { estimate: await controller.chains.estimate(nodeId), error: null };
    } catch (error) {
      answer = { estimate: null, error: (error as Error).message };
    }
    if (choice === scopeChoice.current) setDownstream(answer);
  };
  const start = async () => {
    setStarting(true);
    if (downstream && controller.chains) {
      await controller.chains.start(nodeId, newKey());
    } else if (count > 1) await controller.runVariants(nodeId, count, newKey());
    else await controller.runNode(nodeId, newKey());
    setStarting(false);
    setConfirming(null);
    setDownstream(null);
    setCount(1);
  };
  const estimate = confirming?.estimate ?? null;
  const total = estimate === null ? 0 : Math.round(estimate.cost.estimated * count * 100) / 100;
  const chainQuote = downstream?.estimate ?? null;
  const chainRuns = chainQuote?.steps.filter((step) => !step.cached).length ?? 0;
  const overBudget = downstream
    ? chainQuote === null || !chainQuote.fits_budget || chainRuns === 0
    : estimate !== null && estimate.budget.left !== null && estimate.budget.left < total;

  const failure =
    state?.lastRunStatus === 'failed' && state.generationError ? (
      <span className="run-error">{state.generationError}</span>
    ) : null;
  if (viewOnly) {
    return (
      <div className="run-bar">
        <RunStatusBadge state={state} />
        {failure}
      </div>
    );
  }
  return (
    <div className="run-bar nodrag">
      <RunStatusBadge state={state} />
      {failure}
      <span className="run-actions">
        {active && runId ? (
          <button
            type="button"
            className="button-small"
            disabled={!editable || state.lastRunStatus === 'cancel_requested'}
            onClick={() => void controller.cancelRun(runId)}
          >
            Cancel
          </button>
        ) : (
          <button
            ref={runButton}
            type="button"
            className="button-small button-primary"
            disabled={!editable || confirming !== null}
            onClick={() => void openConfirm()}
          >
            Run
          </button>
        )}
      </span>
      {followsChain ? <ChainProgress rootNodeId={nodeId} /> : null}
      {confirming ? (
        <div
          ref={dialog}
          className="run-confirm"
          role="dialog"
          aria-label="Start a run"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            close();
          }}
        >
          {controller.chains ? (
            <fieldset className="run-scope">
              <legend>What to run</legend>
              <label>
                <input
                  type="radio"
                  name={`run-scope-${nodeId}`}
                  checked={downstream === null}
                  onChange={() => void chooseDownstream(false)}
                />{' '}
                This node
              </label>
              <label>
                <input
                  type="radio"
                  name={`run-scope-${nodeId}`}
                  checked={downstream !== null}
                  onChange={() => void chooseDownstream(true)}
                />{' '}
                From here: this node and everything downstream
              </label>
            </fieldset>
          ) : null}
          {downstream ? (
            downstream.error ? (
              <p className="error-line">{downstream.error}</p>
            ) : downstream.estimate ? (
              <ChainQuote estimate={downstream.estimate} />
            ) : (
              <p className="muted">Checking what changed downstream…</p>
            )
          ) : confirming.error ? (
            <p className="error-line">{confirming.error}</p>
          ) : confirming.estimate ? (
            <>
              {controller.runsVariants ? (
                <label className="option">
                  Variants{' '}
                  <Select
                    label="Variants"
                    value={String(count)}
                    onChange={(next) => setCount(Number(next))}
                    options={[1, 2, 3, 4].map((option) => ({ value: String(option), label: `×${option}` }))}
                  />
                </label>
              ) : null}
              <p>
                {count > 1 ? (
                  <>
                    These {count} runs cost about <strong>{creditsText(total)}</strong> together.
                  </>
                ) : (
                  <>
                    This run costs about <strong>{creditsText(total)}</strong>.
                  </>
                )}
              </p>
              <p className="muted">{budgetLine(confirming.estimate)}</p>
              {overBudget ? (
                <p className="error-line">
                  That is more than the budget has left: {count > 1 ? 'the runs' : 'the run'} would be refused.
                </p>
              ) : null}
            </>
          ) : (
            <p className="muted">Checking the cost…</p>
          )}
          <div className="run-confirm-actions">
            <button type="button" className="button-small" onClick={close}>
              Not now
            </button>
            <button
              type="button"
              className="button-small button-primary"
              disabled={(!downstream && !confirming.estimate) || starting || overBudget}
              onClick={() => void start()}
            >
              {downstream
                ? `Start chain${chainRuns > 0 ? ` (${chainRuns} ${chainRuns === 1 ? 'run' : 'runs'})` : ''}`
                : count > 1
                  ? `Start ${count} runs`
                  : 'Start run'}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
