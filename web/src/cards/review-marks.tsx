import type { ThreadView } from '../../../src/contract/index.js';
import { BubbleIcon } from '../panels/icons.js';
import { openThreadCount, stateOf, threadCountLabel, useReview } from '../model/review.js';
import { ReviewStateChips } from '../panels/ReviewControls.js';

/**
 * What review shows on a card (issue 33): a badge with the number of open comment threads, a board's review state with
 * its "changed since approval" mark, and the pins of open threads on a shot's picture. Nothing in the MCP App, which
 * has no review (no ReviewContext).
 */

const NO_THREADS: Record<string, ThreadView> = {};

export function ThreadBadge({ nodeId }: { nodeId: string }) {
  const count = useReview((data) => openThreadCount(data.threads, nodeId), 0);
  if (count === 0) return null;
  const label = threadCountLabel(count);
  return (
    <span className="thread-badge" role="img" aria-label={label} title={label}>
      <BubbleIcon /> {count}
    </span>
  );
}

/** A board's review state, on its card: shown once someone set one. */
export function BoardReviewState({ nodeId }: { nodeId: string }) {
  const view = useReview((data) => stateOf(data.states, nodeId, null), undefined);
  const anyState = useReview((data) => data.states.some((state) => state.node_id === nodeId), false);
  if (!anyState && !view) return null;
  return (
    <div className="card-review" aria-label="Review state of the board">
      <ReviewStateChips view={view} />
    </div>
  );
}

/** A shot's open threads on its frame: the count, and a pin where each points on its picture. */
export function FrameMarks({ nodeId, shotId }: { nodeId: string; shotId: string }) {
  const threads = useReview((data) => data.threads, NO_THREADS);
  const state = useReview((data) => stateOf(data.states, nodeId, shotId), undefined);
  const open = Object.values(threads).filter(
    (thread) => thread.status === 'open' && thread.node_id === nodeId && thread.shot_id === shotId,
  );
  return (
    <>
      {open.map((thread) =>
        thread.anchor?.x !== undefined && thread.anchor.y !== undefined ? (
          <span
            key={thread.thread_id}
            className="pin"
            data-pin={thread.thread_id}
            style={{ left: `${thread.anchor.x * 100}%`, top: `${thread.anchor.y * 100}%` }}
            title={thread.comments[0]?.body ?? ''}
            aria-hidden="true"
          />
        ) : null,
      )}
      {open.length > 0 ? (
        <span className="thread-badge frame-threads" role="img" aria-label={threadCountLabel(open.length)}>
          <BubbleIcon /> {open.length}
        </span>
      ) : null}
      {state?.state === 'approved' ? (
        <span
          className={state.changed_since_approval ? 'frame-approved frame-changed' : 'frame-approved'}
          role="img"
          aria-label={state.changed_since_approval ? 'Shot changed since approval' : 'Shot approved'}
        >
          {state.changed_since_approval ? '!' : '✓'}
        </span>
      ) : null}
    </>
  );
}
