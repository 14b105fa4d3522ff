import { REVIEW_STATES, type ReviewStateView } from '../../../src/contract/index.js';

/** A review state as a chip, and the "changed since approval" mark: the same on a card and in the shot list. */
export function ReviewStateChips({ view }: { view: ReviewStateView | undefined }) {
  const state = view?.state ?? 'draft';
  return (
    <>
      <span className={`chip review-chip review-${state}`} data-review-state={state}>
        {REVIEW_STATES[state]}
      </span>
      {view?.changed_since_approval ? (
        <span className="chip chip-warning review-changed" title="Approved, then changed: approve it again">
          Changed since approval
        </span>
      ) : null}
    </>
  );
}
