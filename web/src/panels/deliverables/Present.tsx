import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { roomOrder } from '../../../../src/shared/room-order.js';
import type { PresentBoard, PresentShot } from '../../model/present.js';
import { positionNow, useRoomData, type RoomController } from '../../model/review-room.js';
import { useShownGuides } from '../../model/guides.js';
import { onTransportKey } from '../../model/transport-keys.js';
import { FrameGuides, GuidePicker } from '../../cards/frame-guides.js';
import { MovingPicture } from './MovingPicture.js';
import { PlaylistPicker } from './PlaylistPicker.js';
import { RoomControls } from './RoomControls.js';

/**
 * Present mode (docs/deliverables.md, "Present"): a board's shots full screen, one at a time, in
 * order, with the shot's number and words under its picture. Arrow keys (or Space, Page Up/Down, Home, End) move
 * between shots and across boards; Escape leaves. When the board has an animatic, it plays from the shown shot, and
 * the shot under it follows the film; without one, Play steps through the shots at their durations. The canvas opens
 * it from the top bar, a share link opens it for a client. Guides (in the bar) draws the chosen framing guides over
 * the frame, as on the board's card.
 *
 * With a review room (docs/review.md, "The review room"): a member presents the board to everyone, and Present then
 * tells the room every shot, play and pause; whoever follows sees the presenter's shot and play state until they move
 * on their own (then Rejoin). Today's shots (the playlist) limit the steps to a chosen few, in a chosen order.
 */

const FIELD_LABELS = [
  ['caption', 'Description'],
  ['action', 'Action'],
  ['dialogue', 'Dialogue'],
  ['camera', 'Camera'],
] as const;

/** A film playing this far (s) from where the room says it should be is put back in step. */
const DRIFT_S = 0.5;

/** Each shot's start in the animatic, in seconds: the shots' durations one after another. */
function starts(shots: readonly PresentShot[]): number[] {
  let at = 0;
  return shots.map((shot) => {
    const start = at;
    at += shot.durationMs / 1000;
    return start;
  });
}

export interface PresentRoom {
  controller: RoomController;
  /** The node id of each board, in Present's order. */
  boardIds: readonly string[];
}

export function Present({
  boards,
  onClose,
  startBoard = 0,
  startShot = 0,
  room = null,
}: {
  boards: readonly PresentBoard[];
  onClose?: () => void;
  startBoard?: number;
  startShot?: number;
  room?: PresentRoom | null;
}) {
  const [place, setPlace] = useState({ board: Math.min(startBoard, Math.max(0, boards.length - 1)), shot: startShot });
  const [playing, setPlaying] = useState(false);
  /** Today's shots per board index, as the person chose them (null: every shot). */
  const [playlists, setPlaylists] = useState<Record<number, string[] | null>>({});
  const [picking, setPicking] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  /** Where a film about to load starts (s), when the room says so. */
  const seekTo = useRef<number | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const board = boards[place.board];
  const shot = board?.shots[place.shot];
  const shotStarts = useMemo(() => starts(board?.shots ?? []), [board]);
  const guides = useShownGuides();

  const controller = room?.controller ?? null;
  const rooms = useRoomData(controller, (data) => data.rooms);
  const followed = useRoomData(controller, (data) => data.following);
  const away = useRoomData(controller, (data) => data.away);
  const presentingBoard = useRoomData(controller, (data) => data.presenting);
  const notice = useRoomData(controller, (data) => data.notice);
  const boardId = room?.boardIds[place.board] ?? null;
  const followIndex = followed && room ? room.boardIds.indexOf(followed) : -1;
  /** The room Present keeps in step with: the one followed, unless the person stepped away. */
  const lead = followed && !away && followIndex >= 0 ? rooms[followed] : undefined;
  const presenting = boardId !== null && presentingBoard === boardId;
  const inRoom = presenting || (followed !== null && followed === boardId);

  /** The playlist of a board: the followed room's, else the person's own choice. */
  const playlistOf = (boardIndex: number): string[] | null => {
    const id = room?.boardIds[boardIndex];
    if (id && id === followed) return rooms[id]?.room.playlist ?? null;
    return playlists[boardIndex] ?? null;
  };
  const playlist = playlistOf(place.board);
  const order = useMemo(
    () =>
      roomOrder(
        (board?.shots ?? []).map((each) => each.id),
        playlist,
      ),
    [board, playlist],
  );
  const orderAt = shot ? order.indexOf(shot.id) : -1;
  const positionMs = () =>
    playing && video.current ? video.current.currentTime * 1000 : (shotStarts[place.shot] ?? 0) * 1000;

  const move = (step: number) =>
    setPlace((current) => {
      const here = boards[current.board];
      if (!here) return current;
      const ids = here.shots.map((each) => each.id);
      const steps = roomOrder(ids, playlistOf(current.board));
      const at = steps.indexOf(ids[current.shot] ?? '');
      const next = at < 0 ? (step > 0 ? 0 : steps.length - 1) : at + step;
      if (next >= 0 && next < steps.length) return { ...current, shot: ids.indexOf(steps[next]!) };
      // A room, or a playlist, keeps to its board.
      if (inRoom || playlistOf(current.board)) return current;
      if (step > 0 && current.board + 1 < boards.length) return { board: current.board + 1, shot: 0 };
      if (step < 0 && current.board > 0)
        return { board: current.board - 1, shot: Math.max(0, (boards[current.board - 1]?.shots.length ?? 1) - 1) };
      return current;
    });
  /** To the first or last of the shots Present steps through. */
  const jump = (to: 'first' | 'last') => {
    const id = to === 'first' ? order[0] : order[order.length - 1];
    const index = board?.shots.findIndex((each) => each.id === id) ?? -1;
    if (index >= 0) setPlace((current) => ({ ...current, shot: index }));
  };
  /** A move of the person's own: a follower steps away from the room first. */
  const own = (action: () => void) => {
    if (lead) controller?.stepAway();
    action();
  };
  const close = () => {
    if (presenting) controller?.endPresenting();
    if (followed) controller?.stopFollowing();
    onClose?.();
  };

  useEffect(() => root.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (playing) own(() => setPlaying(false));
        else close();
      } else if (['ArrowRight', 'ArrowDown', 'PageDown', ' '].includes(event.key)) {
        event.preventDefault();
        own(() => {
          setPlaying(false);
          move(1);
        });
      } else if (['ArrowLeft', 'ArrowUp', 'PageUp'].includes(event.key)) {
        event.preventDefault();
        own(() => {
          setPlaying(false);
          move(-1);
        });
      } else if (event.key === 'Home') {
        own(() => {
          setPlaying(false);
          jump('first');
        });
      } else if (event.key === 'End') {
        own(() => {
          setPlaying(false);
          jump('last');
        });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Following: the presenter's board, shot, play and pause (and where the film is), whenever the room moves.
  const leadKey = lead ? `${lead.room.room_id}:${lead.room.seq}` : null;
  useEffect(() => {
    if (!lead || followIndex < 0) return;
    const shots = boards[followIndex]?.shots ?? [];
    const index = shots.findIndex((each) => each.id === lead.room.shot_id);
    if (index >= 0) setPlace({ board: followIndex, shot: index });
    setPlaying(lead.room.playing);
    const seconds = positionNow(lead) / 1000;
    seekTo.current = seconds;
    const film = video.current;
    if (film && lead.room.playing && Math.abs(film.currentTime - seconds) > DRIFT_S) film.currentTime = seconds;
    // leadKey stands for the lead: each of its moves, and coming back to it.
  }, [leadKey]);

  // Presenting: every shot, play and pause goes to the room.
  const playlistKey = playlist ? playlist.join('\u0000') : '';
  useEffect(() => {
    if (!presenting || !controller || !boardId || !shot || orderAt < 0) return;
    controller.present(boardId, {
      shot_id: shot.id,
      shot_index: orderAt,
      playlist,
      playing,
      position_ms: Math.round(positionMs()),
    });
  }, [presenting, boardId, shot?.id, orderAt, playing, playlistKey]);

  // A playlist that leaves out the shot shown moves Present to its first shot.
  useEffect(() => {
    if (shot && order.length > 0 && orderAt < 0) jump('first');
  }, [playlistKey]);

  // Play without an animatic: each shot for its duration, to the last one; a follower waits for the presenter's steps.
  useEffect(() => {
    if (!playing || board?.animaticUrl || lead || !shot) return;
    const timer = setTimeout(() => {
      if (orderAt >= 0 && orderAt < order.length - 1) move(1);
      else setPlaying(false);
    }, shot.durationMs);
    return () => clearTimeout(timer);
  }, [playing, place.board, place.shot, lead === undefined]);

  if (!board || !shot)
    return (
      <div className="present" role="dialog" aria-label="Present">
        <p className="present-empty">There are no shots to present.</p>
        {onClose ? (
          <button type="button" className="present-close" onClick={close}>
            Close
          </button>
        ) : null}
      </div>
    );

  const followFilm = () => {
    const time = video.current?.currentTime ?? 0;
    let index = 0;
    for (const [position, start] of shotStarts.entries()) if (time >= start) index = position;
    if (index !== place.shot) setPlace((current) => ({ ...current, shot: index }));
  };
  const held = boardId ? rooms[boardId] : undefined;
  const startPresenting = (takeOver: boolean) => {
    if (!controller || !boardId || orderAt < 0) return;
    controller.present(
      boardId,
      { shot_id: shot.id, shot_index: orderAt, playlist, playing, position_ms: Math.round(positionMs()) },
      takeOver,
    );
  };

  return (
    <div
      className="present"
      role="dialog"
      aria-label={`Present ${board.title}`}
      ref={root}
      tabIndex={-1}
      data-shot={shot.number}
      data-playing={playing}
    >
      <header className="present-bar">
        <span className="present-title">{board.title}</span>
        <span className="present-count" aria-live="polite">
          Shot {shot.number} · {orderAt >= 0 ? orderAt + 1 : '–'} of {order.length}
          {playlist ? ' chosen' : ''}
          {boards.length > 1 && !inRoom ? ` · board ${place.board + 1} of ${boards.length}` : ''}
        </span>
        {controller ? (
          <RoomControls
            controller={controller}
            held={held}
            boardTitle={board.title}
            presenting={presenting}
            following={followed !== null && followed === boardId}
            away={away}
            notice={notice}
            onPresent={startPresenting}
            onStopFollowing={close}
          />
        ) : null}
        <span className="spacer" />
        {controller?.canPresent && !lead ? (
          <button type="button" aria-pressed={picking} onClick={() => setPicking((open) => !open)}>
            Today&apos;s shots
          </button>
        ) : null}
        <GuidePicker className="present-guides" />
        {board.animaticUrl ? (
          <button type="button" onClick={() => own(() => setPlaying((on) => !on))} aria-pressed={playing}>
            {playing ? 'Stop the animatic' : 'Play the animatic from here'}
          </button>
        ) : (
          <button type="button" onClick={() => own(() => setPlaying((on) => !on))} aria-pressed={playing}>
            {playing ? 'Pause' : 'Play'}
          </button>
        )}
        {onClose ? (
          <button type="button" className="present-close" onClick={close} title="Leave Present mode (Esc)">
            Close
          </button>
        ) : null}
      </header>
      {picking ? (
        <PlaylistPicker
          shots={board.shots}
          playlist={playlist}
          onChange={(next) => setPlaylists((current) => ({ ...current, [place.board]: next }))}
          onDone={() => setPicking(false)}
        />
      ) : null}
      <div className="present-stage">
        {playing && board.animaticUrl ? (
          <video
            ref={video}
            className="present-picture"
            src={board.animaticUrl}
            controls
            autoPlay
            onLoadedMetadata={(event) => {
              event.currentTarget.currentTime = seekTo.current ?? shotStarts[place.shot] ?? 0;
              seekTo.current = null;
            }}
            onTimeUpdate={followFilm}
            onEnded={() => setPlaying(false)}
            onKeyDown={(event) => onTransportKey(event)}
          />
        ) : (
          // The frame box: the picture (or its placeholder) and the guides over it, the box exactly the frame's.
          <div
            className="present-framed"
            style={
              {
                '--present-aspect': String(board.aspect),
                ...(shot.move ? { overflow: 'hidden' } : {}),
              } as CSSProperties
            }
          >
            {shot.pictureUrl ? (
              // The board's frame shape, not the picture's own (docs/deliverables.md, "Present"); a move plays over it.
              <MovingPicture
                key={shot.id}
                src={shot.pictureUrl}
                alt={`Shot ${shot.number}`}
                move={shot.move}
                durationMs={shot.durationMs}
              />
            ) : (
              <div className="present-picture present-placeholder" style={{ aspectRatio: String(board.aspect) }}>
                Shot {shot.number}: no picture yet
              </div>
            )}
            {guides.length > 0 ? <FrameGuides guides={guides} aspect={board.aspect} /> : null}
          </div>
        )}
      </div>
      <footer className="present-words">
        <span className="present-number">{shot.number}</span>
        <dl>
          {FIELD_LABELS.map(([field, label]) =>
            shot[field] ? (
              <div key={field}>
                <dt>{label}</dt>
                <dd>{shot[field]}</dd>
              </div>
            ) : null,
          )}
          <div>
            <dt>Duration</dt>
            <dd>{(shot.durationMs / 1000).toLocaleString(undefined, { maximumFractionDigits: 2 })} s</dd>
          </div>
        </dl>
        <nav className="present-nav" aria-label="Shots">
          <button type="button" onClick={() => own(() => move(-1))} aria-label="Previous shot">
            ←
          </button>
          <button type="button" onClick={() => own(() => move(1))} aria-label="Next shot">
            →
          </button>
        </nav>
      </footer>
    </div>
  );
}
