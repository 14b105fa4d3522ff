import { useEffect, useId, useMemo, useState, type MouseEvent } from 'react';
import {
  FRAME_RATES,
  type CanvasNode,
  type CommentAnchor,
  type CommentView,
  type FrameRate,
  type ShotMark,
  type ThreadView,
} from '../../../../src/contract/index.js';
import { aspectOf } from '../../../../src/shared/frame-shape.js';
import { frameAtMs } from '../../../../src/shared/timecode.js';
import { useCanvas, useCanvasState, useMediaOrigin } from '../../ui/canvas-context.js';
import { safeThumbnailUrl } from '../../cards/media-url.js';
import { pictureOfCard } from '../../cards/parts.js';
import { recordOf } from '../../model/values.js';
import { api } from '../../model/api.js';
import { boardTitle } from '../../model/present.js';
import {
  DEFAULT_FILM_RATE,
  filmTimecode,
  readFilmTime,
  useReview,
  useReviewController,
  type ReviewController,
} from '../../model/review.js';
import { boardOf, shotPicture, type Shot } from '../../model/shots.js';
import { MarkupPad } from './MarkupPad.js';
import { ThreadItem, type ThreadActions } from './ThreadItem.js';
import { Select } from '../../ui/select.js';

/**
 * The Comments tab (docs/review.md): the canvas's threads with a filter, each with its replies, Resolve and
 * Reopen, and edit or delete on one's own comments; a new thread on the selected card (a shot of a board, a point of
 * its picture, a time of its film or of the board's animatic) or on the canvas. Live through the change feed.
 */

type Filter = 'open' | 'mine' | 'mentions_me' | 'resolved' | 'all';
const FILTERS: ReadonlyArray<[Filter, string]> = [
  ['open', 'Open'],
  ['mine', 'Mine'],
  ['mentions_me', 'Mentions me'],
  ['resolved', 'Resolved'],
  ['all', 'All'],
];

const CANVAS = '';

function nodeName(node: CanvasNode): string {
  return boardTitle(node);
}

/** The picture of a node or of one of a board's shots, where a pin may go. */
export function pictureOf(
  node: CanvasNode | undefined,
  shotId: string | null,
  states: Parameters<typeof shotPicture>[1],
): string | undefined {
  if (!node) return undefined;
  if (node.type === 'storyboardNode') {
    const shot = shotId ? boardOf(node).shots.find((each) => each.id === shotId) : undefined;
    return shot ? shotPicture(shot, states) : undefined;
  }
  const data = recordOf(node.data);
  return pictureOfCard(data, states[node.id]);
}

export function CommentsPanel({ selected }: { selected: string | null }) {
  const review = useReviewController();
  if (!review) return <p className="muted">Comments are not available here.</p>;
  return <Comments selected={selected} review={review} />;
}

function Comments({ selected, review }: { selected: string | null; review: ReviewController }) {
  const { controller } = useCanvas();
  const address = useCanvasState((state) => state.address);
  const person = useCanvasState((state) => state.person);
  const role = useCanvasState((state) => state.role);
  const threads = useReview((data) => data.threads, {});
  const focus = useReview((data) => data.focus, null);
  const editorsApprove = useReview((data) => data.editorsApprove, false);
  const [filter, setFilter] = useState<Filter>(focus ? 'all' : 'open');

  const mine = (comment: CommentView) =>
    comment.author.kind === 'person' &&
    person !== null &&
    comment.author.subject === person.subject &&
    comment.author.issuer === person.issuer;
  const shown = useMemo(() => {
    const list = Object.values(threads).filter(
      (thread) =>
        filter === 'all' ||
        (filter === 'open' && thread.status === 'open') ||
        (filter === 'resolved' && thread.status === 'resolved') ||
        (filter === 'mine' && thread.comments.some(mine)) ||
        (filter === 'mentions_me' &&
          person !== null &&
          thread.comments.some((comment) => comment.mentions.includes(person.subject))),
    );
    // The newest activity first; the thread the page was opened on before all.
    return list.sort((a, b) =>
      a.thread_id === focus ? -1 : b.thread_id === focus ? 1 : b.updated_at.localeCompare(a.updated_at),
    );
  }, [threads, filter, person, focus]);

  useEffect(() => {
    if (focus) document.querySelector(`[data-thread="${CSS.escape(focus)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [focus]);

  const failed = (what: string, error: unknown) => {
    controller.notify('error', `${what}: ${(error as Error).message}`);
    return false;
  };
  const actionsFor = (thread: ThreadView): ThreadActions => ({
    mine,
    markedFrame: (comment) => api.markedFrameUrl(address, thread.thread_id, comment.comment_id),
    reply: (body) =>
      api.reply(address, thread.thread_id, body).then(
        (view) => (review.put(view), true),
        (error: unknown) => failed('The reply was not posted', error),
      ),
    setStatus: (status) =>
      api.setThreadStatus(address, thread.thread_id, status).then(review.put, (error: unknown) => {
        failed(status === 'resolved' ? 'The thread was not resolved' : 'The thread was not reopened', error);
      }),
    change: (commentId, body) =>
      api.changeComment(address, thread.thread_id, commentId, body).then(
        (view) => (review.put(view), true),
        (error: unknown) =>
          failed(body === null ? 'The comment was not deleted' : 'The comment was not changed', error),
      ),
  });

  return (
    <section className="comments-panel" aria-label="Comments">
      <NewThread selected={selected} review={review} />
      <div className="comment-filters" role="group" aria-label="Show threads">
        {FILTERS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            className={filter === id ? 'button-small filter-active' : 'button-small'}
            aria-pressed={filter === id}
            onClick={() => setFilter(id)}
          >
            {label}
          </button>
        ))}
      </div>
      {shown.length === 0 ? (
        <p className="muted">
          {filter === 'open' ? 'No open threads.' : 'No threads here.'} Select a card and write a comment to start one.
        </p>
      ) : (
        <div className="thread-list">
          {shown.map((thread) => (
            <ThreadItem
              key={thread.thread_id}
              thread={thread}
              actions={actionsFor(thread)}
              focused={thread.thread_id === focus}
            />
          ))}
        </div>
      )}
      {role === 'owner' ? (
        <footer className="comments-footer">
          <label>
            <input
              type="checkbox"
              checked={editorsApprove}
              onChange={(event) => {
                // Shown at once, taken back if the server refuses; other pages hear it through their feed.
                const next = event.target.checked;
                review.store.setState({ editorsApprove: next });
                api.setEditorsApprove(address.projectId, next).then(undefined, (error: unknown) => {
                  review.store.setState({ editorsApprove: !next });
                  failed('The review settings were not changed', error);
                });
              }}
            />{' '}
            Editors may approve
          </label>
        </footer>
      ) : null}
    </section>
  );
}

/**
 * Where the card's film is now (paused or playing), as the frame showing there, in SMPTE timecode at `rate`: a reviewer
 * stops the film on a frame and comments there. Null when the card's player is not on screen (a card out of view is
 * not drawn).
 */
function filmTimeOf(nodeId: string, rate: FrameRate): string | null {
  const player = document.querySelector<HTMLVideoElement>(`.react-flow__node[data-id="${CSS.escape(nodeId)}"] video`);
  if (!player || !Number.isFinite(player.currentTime)) return null;
  return filmTimecode(frameAtMs(player.currentTime * 1000, rate), rate);
}

/** Starting a thread: on which card (and shot), with a pin on its picture or a timecode, and the first comment. */
function NewThread({ selected, review }: { selected: string | null; review: ReviewController }) {
  const address = useCanvasState((state) => state.address);
  const nodes = useCanvasState((state) => state.layout.nodes);
  const states = useCanvasState((state) => state.states);
  const compose = useReview((data) => data.compose, null);
  const pinning = useReview((data) => data.pinning, null);
  const pin = useReview((data) => data.pin, null);
  const members = useReview((data) => data.members, []);
  const origin = useMediaOrigin();
  const id = useId();
  const [nodeId, setNodeId] = useState<string>(compose?.nodeId ?? selected ?? CANVAS);
  const [shotId, setShotId] = useState<string>(compose?.shotId ?? '');
  const [timecode, setTimecode] = useState('');
  const [outPoint, setOutPoint] = useState('');
  const [rate, setRate] = useState<FrameRate>(DEFAULT_FILM_RATE);
  const [forClient, setForClient] = useState(false);
  const [body, setBody] = useState('');
  const [markup, setMarkup] = useState<ShotMark[]>([]);
  const [drawingNote, setDrawingNote] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  // The card selected on the canvas (or the shot chosen in the shot list) becomes the thread's place.
  useEffect(() => {
    if (compose) {
      setNodeId(compose.nodeId ?? CANVAS);
      setShotId(compose.shotId ?? '');
    }
  }, [compose]);
  useEffect(() => {
    if (selected && !review.store.getState().compose) {
      setNodeId(selected);
      setShotId('');
    }
  }, [selected, review]);

  const node = nodes.find((each) => each.id === nodeId);
  const board = node?.type === 'storyboardNode' ? boardOf(node) : null;
  const shot = board?.shots.find((each) => each.id === shotId);
  const picture = safeThumbnailUrl(pictureOf(node, shot ? shotId : null, states), origin);
  const timed = node?.type === 'videoNode' || node?.type === 'storyboardNode';
  const aspect = aspectOf(recordOf(node?.data).aspectRatio);
  const pinHere = pin && pin.nodeId === nodeId && (pin.shotId ?? '') === shotId ? pin.anchor : null;
  const clearPin = () => review.store.setState({ pin: null, pinning: null });
  useEffect(() => {
    // A pin, and a note drawn on a frame, belong to the place they were put on: choosing another place drops them.
    setMarkup([]);
    setDrawingNote(false);
    const current = review.store.getState().pin;
    if (current && (current.nodeId !== nodeId || (current.shotId ?? '') !== shotId)) clearPin();
  }, [nodeId, shotId]);

  // Placing a pin on the card itself: a click on its picture (a board's frame) sets the point, and nothing else.
  useEffect(() => {
    if (!pinning) return;
    const onClick = (event: globalThis.MouseEvent) => {
      const target = event.target as Element | null;
      const card = target?.closest(`.react-flow__node[data-id="${CSS.escape(pinning.nodeId)}"]`);
      const image = target?.closest('img');
      if (!card || !image || !card.contains(image)) return;
      const frame = image.closest('[data-shot-id]');
      const frameShot = frame?.getAttribute('data-shot-id') || null;
      if (pinning.shotId && frameShot !== pinning.shotId) return;
      event.preventDefault();
      event.stopPropagation();
      const box = image.getBoundingClientRect();
      const x = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
      const y = Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
      if (frameShot && !pinning.shotId) setShotId(frameShot);
      review.store.setState({
        pin: { nodeId: pinning.nodeId, shotId: frameShot ?? pinning.shotId, anchor: { x: round(x), y: round(y) } },
        pinning: null,
      });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [pinning, review]);

  const pinAt = (event: MouseEvent<HTMLButtonElement>) => {
    const image = event.currentTarget.querySelector('img');
    const box = (image ?? event.currentTarget).getBoundingClientRect();
    // The keyboard presses the button without a point: the middle of the picture.
    const keyboard = event.detail === 0;
    const x = keyboard ? 0.5 : Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
    const y = keyboard ? 0.5 : Math.min(1, Math.max(0, (event.clientY - box.top) / box.height));
    review.store.setState({
      pin: { nodeId, shotId: shotId || null, anchor: { x: round(x), y: round(y) } },
      pinning: null,
    });
  };

  const submit = async () => {
    setProblem(null);
    const anchor: CommentAnchor = { ...(pinHere ?? {}) };
    if (timed && timecode.trim()) {
      const read = readFilmTime(timecode, rate);
      if (read === null) {
        setProblem(
          `The timecode reads as HH:MM:SS${rate === '29.97' ? ';' : ':'}FF (a frame at ${rate} fps) or mm:ss, like 00:00:12${rate === '29.97' ? ';' : ':'}05.`,
        );
        return;
      }
      anchor.on = node?.type === 'videoNode' ? 'film' : 'animatic';
      if ('frame' in read) {
        anchor.frame = read.frame;
        anchor.rate = rate;
        if (outPoint.trim()) {
          const out = readFilmTime(outPoint, rate);
          if (out === null || !('frame' in out) || out.frame < read.frame) {
            setProblem('The out point reads as HH:MM:SS:FF at the same rate, at or after the in point.');
            return;
          }
          anchor.frame_out = out.frame;
        }
      } else {
        if (outPoint.trim()) {
          setProblem('A range is given in frames: type the in and out points as HH:MM:SS:FF.');
          return;
        }
        anchor.timecode_ms = read.ms;
      }
    }
    try {
      const thread = await api.startThread(address, {
        node_id: nodeId || null,
        shot_id: board && shotId ? shotId : null,
        anchor: Object.keys(anchor).length > 0 ? anchor : null,
        body: body.trim(),
        ...(markup.length > 0 ? { markup } : {}),
        audience: forClient ? 'client' : 'team',
      });
      review.put(thread);
      review.store.setState({ pin: null, pinning: null, compose: null });
      setBody('');
      setMarkup([]);
      setDrawingNote(false);
      setTimecode('');
      setOutPoint('');
      setForClient(false);
    } catch (error) {
      setProblem(`The comment was not posted: ${(error as Error).message}`);
    }
  };

  return (
    <form
      className="new-thread"
      aria-label="New comment thread"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3>New comment</h3>
      <div className="row">
        <div className="field">
          <label htmlFor={`${id}-on`}>On</label>
          <Select
            id={`${id}-on`}
            label="On"
            value={nodeId}
            onChange={(next) => (setNodeId(next), setShotId(''))}
            options={[
              { value: CANVAS, label: 'The canvas as a whole' },
              ...nodes
                .filter((each) => each.type !== 'groupNode' || each.id === nodeId)
                .map((each) => ({ value: each.id, label: nodeName(each) })),
            ]}
          />
        </div>
        {board ? (
          <div className="field">
            <label htmlFor={`${id}-shot`}>Shot</label>
            <Select
              id={`${id}-shot`}
              label="Shot"
              value={shotId}
              onChange={setShotId}
              options={[
                { value: '', label: 'The whole board' },
                ...board.shots.map((each, index) => ({
                  value: each.id,
                  label: `Shot ${(each as Shot).number ?? index + 1}`,
                })),
              ]}
            />
          </div>
        ) : null}
        {timed ? (
          <>
            <div className="field">
              <label htmlFor={`${id}-time`}>{node?.type === 'videoNode' ? 'Timecode' : 'Animatic timecode'}</label>
              <input
                id={`${id}-time`}
                value={timecode}
                inputMode="numeric"
                placeholder={filmTimecode(0, rate)}
                size={11}
                aria-describedby={`${id}-time-help`}
                onChange={(event) => setTimecode(event.target.value)}
              />
              {node?.type === 'videoNode' ? (
                <button
                  type="button"
                  className="button-small"
                  onClick={() => {
                    const time = filmTimeOf(nodeId, rate);
                    setProblem(
                      time === null
                        ? "The film's player is not on screen: bring its card into view, or type the time."
                        : null,
                    );
                    if (time !== null) setTimecode(time);
                  }}
                >
                  Where the film is
                </button>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor={`${id}-out`}>To (optional)</label>
              <input
                id={`${id}-out`}
                value={outPoint}
                inputMode="numeric"
                placeholder="out"
                size={11}
                onChange={(event) => setOutPoint(event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-rate`}>Frame rate</label>
              <Select
                id={`${id}-rate`}
                label="Frame rate"
                value={rate}
                onChange={(next) => setRate(next as FrameRate)}
                options={FRAME_RATES.map((each) => ({
                  value: each,
                  label: each === '29.97' ? '29.97 (drop frame)' : each,
                }))}
              />
            </div>
            <p id={`${id}-time-help`} className="muted field-help">
              A frame as HH:MM:SS{rate === '29.97' ? ';' : ':'}FF, or a time as mm:ss; a range from the first to the
              second.
            </p>
          </>
        ) : null}
      </div>
      {picture ? (
        <div className="pin-row">
          {pinHere ? (
            <span>
              Pinned at {Math.round((pinHere.x ?? 0) * 100)}% across, {Math.round((pinHere.y ?? 0) * 100)}% down{' '}
              <button type="button" className="button-small" onClick={clearPin}>
                Remove the pin
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button-small"
              aria-pressed={pinning !== null}
              onClick={() =>
                review.store.setState({ pinning: pinning ? null : { nodeId, shotId: shotId || null }, pin: null })
              }
            >
              {pinning ? 'Cancel the pin' : 'Pin a point'}
            </button>
          )}
          {pinning || pinHere ? (
            <button
              type="button"
              className="pin-picture"
              aria-label="The picture: click where the pin goes"
              onClick={pinAt}
              disabled={!pinning}
            >
              <img src={picture} alt="" />
              {pinHere ? (
                <span
                  className="pin"
                  style={{ left: `${(pinHere.x ?? 0) * 100}%`, top: `${(pinHere.y ?? 0) * 100}%` }}
                  aria-hidden="true"
                />
              ) : null}
            </button>
          ) : null}
          {pinning ? <span className="muted">Click the picture here or on its card.</span> : null}
        </div>
      ) : null}
      {nodeId !== CANVAS ? (
        <div className="pin-row">
          <button
            type="button"
            className="button-small"
            aria-pressed={drawingNote}
            onClick={() => setDrawingNote(!drawingNote)}
          >
            {drawingNote ? 'Hide the drawing' : markup.length > 0 ? 'Change the drawing' : 'Draw on the frame'}
          </button>
          {!drawingNote && markup.length > 0 ? (
            <span className="muted">
              {markup.length} mark{markup.length === 1 ? '' : 's'} drawn
            </span>
          ) : null}
        </div>
      ) : null}
      {drawingNote && nodeId !== CANVAS ? (
        <MarkupPad picture={picture ?? null} aspect={aspect} marks={markup} onChange={setMarkup} />
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-body`}>Comment</label>
        <textarea
          id={`${id}-body`}
          rows={3}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          placeholder={members.length > 1 ? `Mention someone with @${members[0]!.subject}` : 'What do you notice?'}
        />
      </div>
      <label className="check-row">
        <input type="checkbox" checked={forClient} onChange={(event) => setForClient(event.target.checked)} />
        Share with the client (guests of review links see it; otherwise the team alone)
      </label>
      {problem ? <p className="error-line">{problem}</p> : null}
      <button type="submit" className="button-primary button-small" disabled={!body.trim()}>
        Comment
      </button>
    </form>
  );
}

const round = (value: number) => Math.round(value * 1000) / 1000;
