import type { ReactElement, ReactNode } from 'react';
import type { ThreadView } from '../../../src/contract/index.js';
import { BubbleIcon } from '../ui/icons.js';
import { anchorTimeText, openThreadCount, stateOf, threadCountLabel, useReview } from '../model/review.js';
import { msOfFrame } from '../../../src/shared/timecode.js';
import { ReviewStateChips } from '../ui/review-state-chips.js';
import { Tooltip } from '../ui/tooltip.js';

/**
 * What review shows on a card: a badge with the number of open comment threads, a board's review state with
 * its "changed since approval" mark, and the pins of open threads on a shot's picture or an image card's. Nothing in
 * the MCP App, which has no review (no ReviewContext).
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
      <Pins threads={open} />
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

/** A pin where each thread points on a picture: its anchor, in fractions of the picture's width and height. */
function Pins({ threads }: { threads: ThreadView[] }) {
  return (
    <>
      {threads.map((thread) =>
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
    </>
  );
}

/**
 * A card's own picture (not a board's shot: FrameMarks) with the pins of its open threads. While it has pins, or one
 * is being put on it, it is shown whole, at its own proportions rather than cropped to the card, so each pin sits on
 * the point it was put on.
 */
export function PinnedPicture({ nodeId, children }: { nodeId: string; children: ReactNode }) {
  const threads = useReview((data) => data.threads, NO_THREADS);
  const pinned = Object.values(threads).filter(
    (thread) =>
      thread.status === 'open' &&
      thread.node_id === nodeId &&
      thread.shot_id === null &&
      thread.anchor?.x !== undefined &&
      thread.anchor.y !== undefined,
  );
  // Whole while a pin is being put on it too (and until its thread is posted): the point clicked is then a point of
  // the picture, not of a crop, and the picture does not change shape under it.
  const placing = useReview(
    (data) =>
      (data.pinning?.nodeId === nodeId && data.pinning.shotId === null) ||
      (data.pin?.nodeId === nodeId && data.pin.shotId === null),
    false,
  );
  if (pinned.length === 0 && !placing) return <>{children}</>;
  return (
    <div className="pinned-picture">
      {children}
      <Pins threads={pinned} />
    </div>
  );
}

/**
 * Puts the pins on a card's picture: `picture` is the one pins are put on (pictureOfCard); any other picture the card
 * shows (another result of its run) is left as it is.
 */
export function pinsOnPicture(nodeId: string, picture: string | undefined) {
  return (url: string | undefined, image: ReactElement): ReactElement =>
    url !== undefined && url === picture ? <PinnedPicture nodeId={nodeId}>{image}</PinnedPicture> : image;
}

/**
 * A film's open threads at their timecodes (a thread on a videoNode anchored `on: film`): a mark on a strip under the
 * player for each, where its time falls in the film; a click takes the player there. Drawn once the player knows the
 * film's length; a time past the end sits at the end.
 */
export function FilmMarks({
  nodeId,
  duration,
  seek,
}: {
  nodeId: string;
  duration: number;
  seek: (seconds: number) => void;
}) {
  const threads = useReview((data) => data.threads, NO_THREADS);
  const timed = Object.values(threads).filter(
    (thread) => thread.status === 'open' && thread.node_id === nodeId && thread.anchor?.on !== 'animatic',
  );
  return <TimedMarks threads={timed} duration={duration} seek={seek} label="Comments along the film" />;
}

/**
 * Threads with a time on a strip under a player (a film's, or a review link's animatic): a mark at each time, a range
 * (in → out) as a span from its first frame to where its last one ends; a click takes the player there.
 */
export function TimedMarks({
  threads,
  duration,
  seek,
  label,
}: {
  threads: readonly ThreadView[];
  duration: number;
  seek: (seconds: number) => void;
  label: string;
}) {
  const timed = threads
    .filter((thread) => thread.anchor?.timecode_ms !== undefined)
    .sort((a, b) => a.anchor!.timecode_ms! - b.anchor!.timecode_ms!);
  if (timed.length === 0 || !(duration > 0)) return null;
  return (
    <div className="film-marks nodrag" role="group" aria-label={label}>
      {timed.map((thread) => {
        const anchor = thread.anchor!;
        const ms = anchor.timecode_ms!;
        const first = thread.comments[0]?.body ?? '';
        const label = `Comment at ${anchorTimeText(anchor)}: ${first.length > 60 ? `${first.slice(0, 59)}…` : first}`;
        const at = Math.min(1, ms / 1000 / duration);
        const out =
          anchor.frame_out !== undefined && anchor.rate !== undefined && anchor.frame_out > (anchor.frame ?? 0)
            ? Math.min(1, msOfFrame(anchor.frame_out + 1, anchor.rate) / 1000 / duration)
            : null;
        return (
          <Tooltip key={thread.thread_id} content={label}>
            <button
              type="button"
              className={out === null ? 'film-mark' : 'film-mark film-range'}
              data-thread={thread.thread_id}
              style={{
                left: `${at * 100}%`,
                ...(out === null ? {} : { width: `${Math.max(0, out - at) * 100}%` }),
              }}
              aria-label={label}
              onClick={() => seek(ms / 1000)}
            />
          </Tooltip>
        );
      })}
    </div>
  );
}
