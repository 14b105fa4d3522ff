import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { PresentBoard, PresentShot } from '../../model/present.js';
import { useShownGuides } from '../../model/guides.js';
import { onTransportKey } from '../../model/transport-keys.js';
import { FrameGuides, GuidePicker } from '../../cards/frame-guides.js';
import { MovingPicture } from './MovingPicture.js';

/**
 * Present mode (docs/deliverables.md, "Present"): a board's shots full screen, one at a time, in
 * order, with the shot's number and words under its picture. Arrow keys (or Space, Page Up/Down, Home, End) move
 * between shots and across boards; Escape leaves. When the board has an animatic, it plays from the shown shot, and
 * the shot under it follows the film. The canvas opens it from the top bar, a share link opens it for a client.
 * Guides (in the bar) draws the chosen framing guides over the frame, as on the board's card.
 */

const FIELD_LABELS = [
  ['caption', 'Description'],
  ['action', 'Action'],
  ['dialogue', 'Dialogue'],
  ['camera', 'Camera'],
] as const;

/** Each shot's start in the animatic, in seconds: the shots' durations one after another. */
function starts(shots: readonly PresentShot[]): number[] {
  let at = 0;
  return shots.map((shot) => {
    const start = at;
    at += shot.durationMs / 1000;
    return start;
  });
}

export function Present({
  boards,
  onClose,
  startBoard = 0,
  startShot = 0,
}: {
  boards: readonly PresentBoard[];
  onClose?: () => void;
  startBoard?: number;
  startShot?: number;
}) {
  const [place, setPlace] = useState({ board: Math.min(startBoard, Math.max(0, boards.length - 1)), shot: startShot });
  const [playing, setPlaying] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const board = boards[place.board];
  const shot = board?.shots[place.shot];
  const shotStarts = useMemo(() => starts(board?.shots ?? []), [board]);
  const guides = useShownGuides();

  const move = (step: number) =>
    setPlace((current) => {
      const here = boards[current.board];
      if (!here) return current;
      const next = current.shot + step;
      if (next >= 0 && next < here.shots.length) return { ...current, shot: next };
      if (step > 0 && current.board + 1 < boards.length) return { board: current.board + 1, shot: 0 };
      if (step < 0 && current.board > 0)
        return { board: current.board - 1, shot: Math.max(0, (boards[current.board - 1]?.shots.length ?? 1) - 1) };
      return current;
    });

  useEffect(() => root.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (playing) setPlaying(false);
        else onClose?.();
      } else if (['ArrowRight', 'ArrowDown', 'PageDown', ' '].includes(event.key)) {
        event.preventDefault();
        setPlaying(false);
        move(1);
      } else if (['ArrowLeft', 'ArrowUp', 'PageUp'].includes(event.key)) {
        event.preventDefault();
        setPlaying(false);
        move(-1);
      } else if (event.key === 'Home') {
        setPlaying(false);
        setPlace((current) => ({ ...current, shot: 0 }));
      } else if (event.key === 'End') {
        setPlaying(false);
        setPlace((current) => ({ ...current, shot: Math.max(0, (boards[current.board]?.shots.length ?? 1) - 1) }));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!board || !shot)
    return (
      <div className="present" role="dialog" aria-label="Present">
        <p className="present-empty">There are no shots to present.</p>
        {onClose ? (
          <button type="button" className="present-close" onClick={onClose}>
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

  return (
    <div
      className="present"
      role="dialog"
      aria-label={`Present ${board.title}`}
      ref={root}
      tabIndex={-1}
      data-shot={shot.number}
    >
      <header className="present-bar">
        <span className="present-title">{board.title}</span>
        <span className="present-count" aria-live="polite">
          Shot {shot.number} · {place.shot + 1} of {board.shots.length}
          {boards.length > 1 ? ` · board ${place.board + 1} of ${boards.length}` : ''}
        </span>
        <span className="spacer" />
        <GuidePicker className="present-guides" />
        {board.animaticUrl ? (
          <button type="button" onClick={() => setPlaying((on) => !on)} aria-pressed={playing}>
            {playing ? 'Stop the animatic' : 'Play the animatic from here'}
          </button>
        ) : null}
        {onClose ? (
          <button type="button" className="present-close" onClick={onClose} title="Leave Present mode (Esc)">
            Close
          </button>
        ) : null}
      </header>
      <div className="present-stage">
        {playing && board.animaticUrl ? (
          <video
            ref={video}
            className="present-picture"
            src={board.animaticUrl}
            controls
            autoPlay
            onLoadedMetadata={(event) => {
              event.currentTarget.currentTime = shotStarts[place.shot] ?? 0;
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
          <button type="button" onClick={() => move(-1)} aria-label="Previous shot">
            ←
          </button>
          <button type="button" onClick={() => move(1)} aria-label="Next shot">
            →
          </button>
        </nav>
      </footer>
    </div>
  );
}
