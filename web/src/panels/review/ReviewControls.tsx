import { useState } from 'react';
import { REVIEW_STATES, type ReviewState, type ReviewStateView } from '../../../../src/contract/index.js';
import { ReviewStateChips } from '../../ui/review-state-chips.js';
import { useCanvas, useCanvasState } from '../../ui/canvas-context.js';
import { api } from '../../model/api.js';
import { stateOf, useReview, useReviewController } from '../../model/review.js';
import { optionsOf, Select } from '../../ui/select.js';

/**
 * Review states in the shot list (docs/review.md, "Approval"): a board's or a shot's state (Draft, In review, Changes
 * requested, Approved) and "Changed since approval" once what was approved changed; whoever may decide (owners, editors
 * when an owner allows) sets it with a select; editors ask chosen approvers for an approval.
 */

const NO_STATES: ReviewStateView[] = [];

/** Whether the person on this canvas may set review states. */
export function useMayApprove(): boolean {
  const role = useCanvasState((state) => state.role);
  const editorsApprove = useReview((data) => data.editorsApprove, false);
  return role === 'owner' || (role === 'editor' && editorsApprove);
}

/** A board's or a shot's review state: a select for whoever may decide, else the chip. */
export function ReviewStateControl({ nodeId, shotId, name }: { nodeId: string; shotId: string | null; name: string }) {
  const { controller } = useCanvas();
  const review = useReviewController();
  const address = useCanvasState((state) => state.address);
  // An approval names the revision this page shows: what the person saw (refused as a conflict if it changed since).
  const revision = useCanvasState((state) => state.layout.revision);
  const states = useReview((data) => data.states, NO_STATES);
  const mayApprove = useMayApprove();
  const view = stateOf(states, nodeId, shotId);
  if (!review) return null;
  const set = async (state: ReviewState) => {
    try {
      await api.setReviewState(address, {
        node_id: nodeId,
        shot_id: shotId,
        state,
        ...(state === 'approved' ? { base_revision: revision } : {}),
      });
      // The feed's review event brings every state; read them now too, for this page.
      const list = await api.reviewStates(address);
      review.store.setState({ states: list.states, editorsApprove: list.editors_approve });
    } catch (error) {
      controller.notify('error', `The review state of ${name} was not set: ${(error as Error).message}`);
    }
  };
  return (
    <span className="review-state" data-review-node={nodeId} data-review-shot={shotId ?? ''}>
      {mayApprove ? (
        <Select
          label={`Review state of ${name}`}
          value={view?.state ?? 'draft'}
          onChange={(next) => void set(next as ReviewState)}
          className={`review-select review-${view?.state ?? 'draft'}`}
          options={optionsOf(REVIEW_STATES)}
        />
      ) : (
        <ReviewStateChips view={view ? { ...view, changed_since_approval: false } : undefined} />
      )}
      {view?.changed_since_approval ? (
        <span className="chip chip-warning review-changed" title="Approved, then changed: approve it again">
          Changed since approval
        </span>
      ) : null}
    </span>
  );
}

/** "Request approval": a board or one of its shots goes in review, and the approvers chosen are told. */
export function RequestApproval({
  nodeId,
  shots,
}: {
  nodeId: string;
  shots: ReadonlyArray<{ id: string; number: string }>;
}) {
  const { controller } = useCanvas();
  const review = useReviewController();
  const address = useCanvasState((state) => state.address);
  const role = useCanvasState((state) => state.role);
  const person = useCanvasState((state) => state.person);
  const members = useReview((data) => data.members, []);
  const editorsApprove = useReview((data) => data.editorsApprove, false);
  const [open, setOpen] = useState(false);
  const [shotId, setShotId] = useState('');
  const [approvers, setApprovers] = useState<string[]>([]);
  const [note, setNote] = useState('');
  if (!review || (role !== 'owner' && role !== 'editor')) return null;
  const candidates = members.filter(
    (member) =>
      (member.role === 'owner' || (member.role === 'editor' && editorsApprove)) &&
      !(person && member.subject === person.subject && member.issuer === person.issuer),
  );
  const send = async () => {
    try {
      await api.requestReview(address, { node_id: nodeId, shot_id: shotId || null, approvers, note: note.trim() });
      const list = await api.reviewStates(address);
      review.store.setState({ states: list.states });
      controller.notify('info', `Approval requested from ${approvers.join(', ')}.`);
      setOpen(false);
      setApprovers([]);
      setNote('');
    } catch (error) {
      controller.notify('error', `The approval was not requested: ${(error as Error).message}`);
    }
  };
  if (!open)
    return (
      <button type="button" className="button-small" aria-expanded={false} onClick={() => setOpen(true)}>
        Request approval
      </button>
    );
  return (
    <form
      className="request-approval"
      aria-label="Request approval"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label>
        Of{' '}
        <Select
          label="Of"
          value={shotId}
          onChange={setShotId}
          options={[
            { value: '', label: 'The whole board' },
            ...shots.map((shot) => ({ value: shot.id, label: `Shot ${shot.number}` })),
          ]}
        />
      </label>
      <fieldset className="checks">
        <legend>Approvers</legend>
        {candidates.length === 0 ? <span className="muted">Nobody else may approve in this project.</span> : null}
        {candidates.map((member) => (
          <label key={`${member.issuer}|${member.subject}`}>
            <input
              type="checkbox"
              checked={approvers.includes(member.subject)}
              onChange={(event) =>
                setApprovers((now) =>
                  event.target.checked ? [...now, member.subject] : now.filter((each) => each !== member.subject),
                )
              }
            />
            {member.display_name ?? member.subject}
          </label>
        ))}
      </fieldset>
      <label>
        Note <input value={note} maxLength={500} onChange={(event) => setNote(event.target.value)} />
      </label>
      <button type="submit" className="button-small button-primary" disabled={approvers.length === 0}>
        Send the request
      </button>
      <button type="button" className="button-small" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
