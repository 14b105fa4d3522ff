import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SharedBoardsView, ThreadView } from '../../../src/contract/index.js';
import { api, ApiError } from '../model/api.js';
import type { PresentBoard } from '../model/present.js';
import { createRoomController, followSharedRoom } from '../model/review-room.js';
import { Present } from '../panels/deliverables/Present.js';
import { RoomBanner } from '../panels/deliverables/RoomBanner.js';
import { SharedAnimatic } from './SharedAnimatic.js';
import { GuestName, GuestThreads, useGuest } from './SharedReview.js';

/**
 * What a share link opens (docs/deliverables.md, "Share links"): the boards it shows in Present mode and the downloads
 * its owner chose, for someone without an account. A revoked or expired link says so, and shows nothing. When a member
 * presents one of its boards to everyone, the page says so and its guest may follow (docs/review.md, "The review
 * room"): the link's room stream carries those boards' rooms and nothing else.
 */

/** The animatic among the downloads made from a board (the newest first, as the owner listed them), if any. */
function animaticOf(view: SharedBoardsView, boardIndex: number) {
  return view.downloads.find(
    (download) =>
      download.content_type === 'video/mp4' &&
      download.frame_rate !== null &&
      download.node_id === view.board_node_ids[boardIndex],
  );
}

function boardsOf(view: SharedBoardsView): PresentBoard[] {
  return view.boards.map((board, boardIndex) => ({
    title: board.title,
    aspect: board.aspect,
    animaticUrl: animaticOf(view, boardIndex)?.url ?? null,
    shots: board.shots.map((shot) => ({
      id: shot.id,
      number: shot.number,
      pictureUrl: shot.picture_url,
      caption: shot.caption,
      action: shot.action,
      dialogue: shot.dialogue,
      camera: shot.camera,
      durationMs: shot.duration_ms,
      move: shot.move,
    })),
  }));
}

/** A shot's fields as the team wrote them: what the client reviews besides the picture. */
function ShotFields({ shot }: { shot: PresentBoard['shots'][number] }) {
  const fields: Array<[string, string | null]> = [
    ['Action', shot.action],
    ['Dialogue', shot.dialogue],
    ['Camera', shot.camera],
    ['Duration', `${(shot.durationMs / 1000).toFixed(1)} s`],
  ];
  const shown = fields.filter(([, value]) => value !== null && value.trim() !== '');
  if (shown.length === 0) return null;
  return (
    <dl className="shared-shot-fields" aria-label={`Shot ${shot.number}`}>
      {shown.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const REREAD_MS = 10_000;

export function SharePage({ secret }: { secret: string }) {
  const [view, setView] = useState<SharedBoardsView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [presenting, setPresenting] = useState<{ board: number; shot: number } | null>(null);
  const guest = useGuest(secret);
  // A guest follows; only members present.
  const rooms = useMemo(() => createRoomController({ me: () => null, sender: null }), []);
  useEffect(() => followSharedRoom(secret, rooms), [secret, rooms]);
  const load = useCallback(
    (first: boolean) =>
      api.shared(secret).then(setView, (error: unknown) => {
        // A link that ends while open says so; a failed re-read of one that works keeps what is shown.
        if (error instanceof ApiError) setProblem(error.message);
        else if (first) setProblem('The link could not be opened. Try again in a moment.');
      }),
    [secret],
  );
  useEffect(() => {
    void load(true);
  }, [load]);
  // With its comments shown, the page reads them again every few seconds (a guest has no change feed).
  const reviewing = view !== null && view.review !== 'none';
  useEffect(() => {
    if (!reviewing) return;
    const timer = setInterval(() => void load(false), REREAD_MS);
    return () => clearInterval(timer);
  }, [reviewing, load]);
  /** A thread a guest's write answered with, shown at once. */
  const put = (thread: ThreadView) =>
    setView((current) =>
      current
        ? {
            ...current,
            threads: current.threads.some((each) => each.thread_id === thread.thread_id)
              ? current.threads.map((each) => (each.thread_id === thread.thread_id ? thread : each))
              : [...current.threads, thread],
          }
        : current,
    );

  if (problem)
    return (
      <main className="screen-message" data-share-state="ended">
        <h1>This link does not open</h1>
        <p>{problem}</p>
      </main>
    );
  if (!view) return <main className="screen-message">Opening the shared board…</main>;
  const boards = boardsOf(view);
  const commenting = view.review === 'comment';
  const threadsOn = (boardIndex: number, shotId: string | null) =>
    view.threads.filter((thread) => thread.node_id === view.board_node_ids[boardIndex] && thread.shot_id === shotId);
  const review = { secret, guest, put, commenting };
  const titleOf = (board: string) => {
    const index = view.board_node_ids.indexOf(board);
    return index >= 0 ? (boards[index]?.title ?? null) : null;
  };
  if (presenting)
    return (
      <Present
        boards={boards}
        startBoard={presenting.board}
        startShot={presenting.shot}
        onClose={() => setPresenting(null)}
        room={{ controller: rooms, boardIds: view.board_node_ids }}
      />
    );
  return (
    <main className="shared-page" data-share-state="open">
      <RoomBanner
        controller={rooms}
        titleOf={titleOf}
        onFollow={(board) => {
          rooms.follow(board);
          setPresenting({ board: Math.max(0, view.board_node_ids.indexOf(board)), shot: 0 });
        }}
      />
      <h1>{view.title}</h1>
      <p className="muted">
        Shared with you to {commenting ? 'look at and comment on' : 'look at'}:{' '}
        {boards.map((board) => `${board.title} (${board.shots.length} shots)`).join(', ')}. This link works until{' '}
        {new Date(view.expires_at).toLocaleDateString()}.
      </p>
      <p>
        <button type="button" className="button-primary" onClick={() => setPresenting({ board: 0, shot: 0 })}>
          Present the board
        </button>
      </p>
      {commenting ? <GuestName secret={secret} guest={guest} /> : null}
      {boards.map((board, boardIndex) => (
        <section key={`${board.title}-${boardIndex}`} aria-label={board.title}>
          <h2>{board.title}</h2>
          {(() => {
            const animatic = animaticOf(view, boardIndex);
            const nodeId = view.board_node_ids[boardIndex]!;
            return animatic ? (
              <SharedAnimatic
                url={animatic.url}
                rate={animatic.frame_rate ?? '24'}
                aspect={board.aspect}
                title={board.title}
                threads={view.threads.filter(
                  (thread) =>
                    thread.node_id === nodeId &&
                    thread.shot_id === null &&
                    thread.status === 'open' &&
                    thread.anchor?.on === 'animatic',
                )}
                writer={commenting && guest ? { secret, guest, nodeId, put } : null}
              />
            ) : null;
          })()}
          {reviewing ? (
            <GuestThreads
              {...review}
              title="Comments on the board"
              place={board.title}
              nodeId={view.board_node_ids[boardIndex]!}
              shotId={null}
              threads={threadsOn(boardIndex, null)}
            />
          ) : null}
          <ol className={reviewing ? 'shared-shots shared-shots-review' : 'shared-shots'}>
            {board.shots.map((shot, shotIndex) => (
              <li key={shot.id}>
                <button type="button" onClick={() => setPresenting({ board: boardIndex, shot: shotIndex })}>
                  {shot.pictureUrl ? (
                    <img src={shot.pictureUrl} alt={`Shot ${shot.number}`} />
                  ) : (
                    <span className="shared-blank" aria-hidden="true" />
                  )}
                  <span>
                    <strong>{shot.number}</strong> {shot.caption ?? shot.action ?? shot.dialogue ?? ''}
                  </span>
                </button>
                <ShotFields shot={shot} />
                {reviewing ? (
                  <GuestThreads
                    {...review}
                    title={`Comments on shot ${shot.number}`}
                    place={`shot ${shot.number}`}
                    nodeId={view.board_node_ids[boardIndex]!}
                    shotId={shot.id}
                    threads={threadsOn(boardIndex, shot.id)}
                    picture={shot.pictureUrl}
                    aspect={board.aspect}
                  />
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ))}
      {view.downloads.length > 0 ? (
        <section aria-label="Downloads">
          <h2>Downloads</h2>
          <ul>
            {view.downloads.map((download) => (
              <li key={download.url}>
                <a href={download.url} download={download.name}>
                  {download.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}
