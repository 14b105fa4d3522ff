import { useCallback, useEffect, useState } from 'react';
import { dataOf, type RunApprovalView } from '../../../../src/contract/index.js';
import { useCanvas, useCanvasState, useEditable } from '../../ui/canvas-context.js';
import { api } from '../../model/api.js';

/**
 * Paid runs external agents asked to start, waiting for a person's yes (docs/contract.md, "Spend confirmation"): each
 * names the agent, the card and what it would cost; an editor approves or declines. The agent's next try then
 * submits the run, or is told no. Read every few seconds while the canvas is open (an agent asks rarely).
 */

const POLL_MS = 4000;

export function RunApprovals() {
  const { controller } = useCanvas();
  const editable = useEditable();
  const address = useCanvasState((state) => state.address);
  const nodes = useCanvasState((state) => state.layout.nodes);
  const [pending, setPending] = useState<RunApprovalView[]>([]);

  const load = useCallback(async () => {
    try {
      setPending((await api.runApprovals(address)).approvals);
    } catch {
      // The next poll tries again; a canvas that cannot be read says so elsewhere.
    }
  }, [address]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  const decide = async (approval: RunApprovalView, decision: 'approve' | 'decline') => {
    try {
      await api.decideRunApproval(address, approval.approval_id, decision);
      controller.notify(
        'info',
        decision === 'approve'
          ? `Approved: ${approval.agent} may start the run now.`
          : `Declined: ${approval.agent}'s run will not start.`,
      );
    } catch (failure) {
      controller.notify('error', `The approval was not recorded: ${(failure as Error).message}`);
    }
    await load();
  };

  if (pending.length === 0) return null;
  const nameOf = (nodeId: string) => {
    const node = nodes.find((candidate) => candidate.id === nodeId);
    return node?.data.displayName ?? dataOf(node, 'groupNode')?.label ?? nodeId;
  };
  return (
    <section className="run-approvals" aria-label="Runs waiting for approval">
      {pending.map((approval) => (
        <div key={approval.approval_id} className="run-approval" data-approval={approval.approval_id}>
          <span>
            <strong>{approval.agent}</strong> asks to start a run of <strong>{nameOf(approval.node_id)}</strong> for
            about {approval.estimate} credits.
          </span>
          {editable ? (
            <>
              <button
                type="button"
                className="button-primary button-small"
                onClick={() => void decide(approval, 'approve')}
              >
                Approve
              </button>
              <button type="button" className="button-small" onClick={() => void decide(approval, 'decline')}>
                Decline
              </button>
            </>
          ) : (
            <span className="muted">An editor approves it.</span>
          )}
        </div>
      ))}
    </section>
  );
}
