import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { safeMediaUrl, safeThumbnailUrl } from '../cards/media-url.js';
import { ShotMarks } from '../cards/shot-marks.js';
import { boardSounds } from '../model/board-sound.js';
import { clockOf, shotAtTime, snapToFrames, timeline, trimByFrames } from '../model/board-view.js';
import { presentBoards } from '../model/present.js';
import { boardOf, editShot } from '../model/shots.js';
import { isKeyForField } from '../ui/fields.js';
import { useCanvas, useCanvasState, useEditable, useMediaOrigin } from '../ui/canvas-context.js';

/**
 * The board page's Animatic (docs/ui.md, "The board page"): the shots on a time line at their durations (each as wide
 * as it lasts, timed as the animatic export times it), with the board's voice-overs and music bed under them as the
 * export picks them, and a player: the playhead runs over the strip and the shot under it is shown large above, Space
 * plays and pauses. A shot's duration is trimmed by dragging its right edge (snapped to whole frames at 24 fps, one
 * revision when let go) or, focused, with [ and ] (a frame; with Shift a second), saved once the keys rest.
 */

const KEYS_REST_MS = 400;
const SCALE = { min: 20, max: 240, initial: 60 } as const;

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 2)} s`;
const isField = isKeyForField;

export function Animatic({ boardId }: { boardId: string }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const origin = useMediaOrigin();
  const layout = useCanvasState((state) => state.layout);
  const states = useCanvasState((state) => state.states);
  const board = useMemo(
    () => presentBoards(layout, states, []).find((each) => each.nodeId === boardId) ?? null,
    [layout, states, boardId],
  );
  const stored = useMemo(() => {
    const node = layout.nodes.find((each) => each.id === boardId);
    return node ? boardOf(node).shots : [];
  }, [layout, boardId]);
  const { music, voices } = useMemo(() => boardSounds(layout, states, boardId), [layout, states, boardId]);
  const shots = useMemo(() => board?.shots ?? [], [board]);

  // Durations being trimmed, shown before they are saved (and until the board has them).
  const [trims, setTrims] = useState<Record<string, number>>({});
  const durations = shots.map((shot) => trims[shot.id] ?? shot.durationMs);
  const { starts, total } = timeline(durations);
  const [scale, setScale] = useState<number>(SCALE.initial);
  const px = (ms: number) => (ms / 1000) * scale;

  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const time = useRef(0);
  const playhead = useRef<HTMLDivElement>(null);
  const clock = useRef<HTMLSpanElement>(null);
  const strip = useRef<HTMLDivElement>(null);
  const musicElement = useRef<HTMLAudioElement>(null);
  const voiceElements = useRef(new Map<string, HTMLAudioElement>());
  const latest = useRef({ starts, total, scale, playing });
  latest.current = { starts, total, scale, playing };

  /** Shows a time: the playhead and the clock at once (no render), the shot under it through state. */
  const paint = useCallback((ms: number, follow: boolean) => {
    const { starts: nowStarts, scale: nowScale } = latest.current;
    const x = (ms / 1000) * nowScale;
    if (playhead.current) {
      playhead.current.style.transform = `translateX(${x}px)`;
      playhead.current.dataset.timeMs = String(Math.round(ms));
    }
    if (clock.current) clock.current.textContent = clockOf(ms);
    setCurrent(shotAtTime(nowStarts, ms));
    // While playing, the strip keeps the playhead in view.
    const view = strip.current;
    if (follow && view && (x < view.scrollLeft || x > view.scrollLeft + view.clientWidth - 40))
      view.scrollLeft = Math.max(0, x - 80);
  }, []);
  useLayoutEffect(() => paint(time.current, false));

  useEffect(() => {
    if (!playing) return;
    if (time.current >= latest.current.total) time.current = 0;
    const began = performance.now() - time.current;
    let frame = 0;
    const tick = (now: number) => {
      const ms = Math.min(latest.current.total, now - began);
      time.current = ms;
      paint(ms, true);
      if (ms >= latest.current.total) {
        setPlaying(false);
        return;
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, paint]);

  // The music bed plays along, from where the playhead is.
  useEffect(() => {
    const element = musicElement.current;
    if (!element) return;
    if (playing && time.current / 1000 < (element.duration || Infinity)) {
      element.currentTime = time.current / 1000;
      void element.play().catch(() => undefined);
    } else element.pause();
  }, [playing]);
  // A shot's voice-over starts as its shot comes on; the others stop.
  const currentId = shots[current]?.id;
  useEffect(() => {
    for (const [shotId, element] of voiceElements.current) {
      if (playing && shotId === currentId) {
        element.currentTime = Math.max(0, (time.current - (latest.current.starts[current] ?? 0)) / 1000);
        void element.play().catch(() => undefined);
      } else element.pause();
    }
  }, [playing, currentId, current]);

  // Space plays and pauses wherever the focus is, but in a field or on a control of the page around the animatic
  // (a tab, a menu), where Space keeps its own meaning.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== ' ' || event.ctrlKey || event.metaKey || event.altKey || isField(event.target)) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (target?.closest('button, a, summary, [role="button"], [role="tab"]') && !section.current?.contains(target))
        return;
      event.preventDefault();
      setPlaying((now) => !now);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const seek = (index: number) => {
    time.current = starts[index] ?? 0;
    paint(time.current, false);
  };

  // A preview is dropped once the board holds it (or the write was refused): the strip never jumps back meanwhile.
  useEffect(() => {
    setTrims((now) => {
      const kept = Object.fromEntries(
        Object.entries(now).filter(([shotId, ms]) => stored.find((shot) => shot.id === shotId)?.durationMs !== ms),
      );
      return Object.keys(kept).length === Object.keys(now).length ? now : kept;
    });
  }, [stored]);
  const drop = (shotId: string) =>
    setTrims((now) => Object.fromEntries(Object.entries(now).filter(([id]) => id !== shotId)));
  /** Saves a trimmed duration: one revision, unless it is what the shot already has. */
  const commit = (shotId: string, ms: number) => {
    const before = stored.find((shot) => shot.id === shotId)?.durationMs;
    if (before === ms) return drop(shotId);
    void controller
      .submit(editShot(boardId, shotId, { durationMs: ms }, () => controller.store.getState().lastAuthor))
      .then((saved) => (saved ? undefined : drop(shotId)));
  };

  const dragging = useRef<{ shotId: string; x: number; from: number; ms: number } | null>(null);
  const trimStart = (event: PointerEvent<HTMLElement>, shotId: string, from: number) => {
    if (!editable || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    dragging.current = { shotId, x: event.clientX, from, ms: from };
  };
  const trimMove = (event: PointerEvent<HTMLElement>) => {
    const drag = dragging.current;
    if (!drag) return;
    drag.ms = snapToFrames(drag.from + ((event.clientX - drag.x) / scale) * 1000);
    setTrims((now) => (now[drag.shotId] === drag.ms ? now : { ...now, [drag.shotId]: drag.ms }));
  };
  const trimEnd = () => {
    const drag = dragging.current;
    dragging.current = null;
    if (!drag) return;
    if (drag.ms === drag.from) drop(drag.shotId);
    else commit(drag.shotId, drag.ms);
  };

  const resting = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const pendingKeys = useRef(new Map<string, number>());
  const flushKeys = (shotId: string) => {
    clearTimeout(resting.current.get(shotId));
    resting.current.delete(shotId);
    const ms = pendingKeys.current.get(shotId);
    pendingKeys.current.delete(shotId);
    if (ms !== undefined) commit(shotId, ms);
  };
  const trimKeys = (event: KeyboardEvent<HTMLButtonElement>, shotId: string, from: number) => {
    if (event.code !== 'BracketLeft' && event.code !== 'BracketRight') return;
    event.preventDefault();
    if (!editable) return;
    const frames = (event.shiftKey ? 24 : 1) * (event.code === 'BracketLeft' ? -1 : 1);
    const ms = trimByFrames(pendingKeys.current.get(shotId) ?? from, frames);
    pendingKeys.current.set(shotId, ms);
    setTrims((now) => ({ ...now, [shotId]: ms }));
    clearTimeout(resting.current.get(shotId));
    resting.current.set(
      shotId,
      setTimeout(() => flushKeys(shotId), KEYS_REST_MS),
    );
  };

  if (!board) return null;
  const shown = shots[current];
  const picture = safeMediaUrl(shown?.pictureUrl ?? undefined, origin);
  const marks = stored.find((shot) => shot.id === shown?.id)?.marks;
  const musicUrl = safeMediaUrl(music?.url ?? undefined, origin);

  return (
    <section className="animatic" aria-label="Animatic" ref={section}>
      <figure className="animatic-stage" style={{ '--frame-aspect': String(board.aspect) } as CSSProperties}>
        <div className="animatic-picture frame-picture">
          {picture ? (
            <img src={picture} alt={`Shot ${shown?.number ?? ''}`} />
          ) : (
            <div className="frame-empty">{shown ? `Shot ${shown.number}` : 'No shots'}</div>
          )}
          {shown ? <ShotMarks marks={marks} aspect={board.aspect} /> : null}
        </div>
        <figcaption>
          {shown ? (
            <>
              <strong>Shot {shown.number}</strong> {shown.caption ?? shown.action ?? ''}
              {shown.dialogue ? <q className="animatic-dialogue">{shown.dialogue}</q> : null}
            </>
          ) : null}
        </figcaption>
      </figure>
      <div className="animatic-transport">
        <button
          type="button"
          className="button-primary"
          aria-pressed={playing}
          onClick={() => setPlaying((now) => !now)}
          disabled={total === 0}
        >
          {playing ? 'Pause' : 'Play'}
        </button>
        <span className="animatic-clock">
          <span ref={clock}>0:00.0</span> / {clockOf(total)}
        </span>
        <span className="muted">
          Space plays and pauses; [ and ] trim the focused shot by a frame (Shift: a second)
        </span>
        <span className="spacer" />
        <label>
          Zoom{' '}
          <input
            type="range"
            min={SCALE.min}
            max={SCALE.max}
            step={10}
            value={scale}
            onChange={(event) => setScale(Number(event.target.value))}
          />
        </label>
      </div>
      <div className="animatic-strip" ref={strip}>
        <div className="animatic-lanes" style={{ width: px(total) + 48 }}>
          <ol className="animatic-track animatic-shots" aria-label="Shots at their durations">
            {shots.map((shot, index) => {
              const duration = durations[index]!;
              const thumb = safeThumbnailUrl(shot.pictureUrl ?? undefined, origin);
              return (
                <li
                  key={shot.id}
                  className={`animatic-block${index === current ? ' animatic-current' : ''}${trims[shot.id] !== undefined ? ' animatic-trimming' : ''}`}
                  style={{ width: px(duration) }}
                  data-shot-id={shot.id}
                  data-duration-ms={duration}
                >
                  <button
                    type="button"
                    className="animatic-shot"
                    aria-current={index === current || undefined}
                    onClick={() => seek(index)}
                    onKeyDown={(event) => trimKeys(event, shot.id, duration)}
                    onBlur={() => flushKeys(shot.id)}
                    style={thumb ? { backgroundImage: `url("${thumb}")` } : undefined}
                  >
                    {/* Named in one piece ("Shot 5, 3 s"): separate hidden words would be read with gaps. */}
                    <span className="visually-hidden">
                      Shot {shot.number}, {seconds(duration)}
                    </span>
                    <strong aria-hidden="true">{shot.number}</strong>
                    <span className="animatic-seconds" aria-hidden="true">
                      {seconds(duration)}
                    </span>
                  </button>
                  {editable ? (
                    <span
                      className="animatic-trim"
                      aria-hidden="true"
                      title="Drag to trim the shot (snapped to whole frames at 24 fps)"
                      onPointerDown={(event) => trimStart(event, shot.id, duration)}
                      onPointerMove={trimMove}
                      onPointerUp={trimEnd}
                      onPointerCancel={trimEnd}
                    />
                  ) : null}
                </li>
              );
            })}
          </ol>
          {voices.size > 0 ? (
            <div className="animatic-track animatic-sounds" role="group" aria-label="Voice-over">
              {shots.map((shot, index) => {
                const voice = voices.get(shot.id);
                if (!voice) return null;
                const url = safeMediaUrl(voice.url ?? undefined, origin);
                return (
                  <div
                    key={shot.id}
                    className="animatic-sound"
                    style={{ left: px(starts[index]!), width: px(voice.durationMs ?? durations[index]!) }}
                    title={voice.url ? voice.name : `${voice.name}: no sound yet`}
                  >
                    {voice.name}
                    {url ? (
                      <audio
                        ref={(element) => {
                          if (element) voiceElements.current.set(shot.id, element);
                          else voiceElements.current.delete(shot.id);
                        }}
                        src={url}
                        preload="none"
                      />
                    ) : null}
                  </div>
                );
              })}
            </div>
          ) : null}
          {music ? (
            <div className="animatic-track animatic-sounds" role="group" aria-label="Music">
              <div
                className="animatic-sound animatic-music"
                style={{ left: 0, width: px(music.durationMs ?? total) }}
                title={music.url ? music.name : `${music.name}: no sound yet`}
              >
                {music.name}
                {musicUrl ? <audio ref={musicElement} src={musicUrl} preload="auto" /> : null}
              </div>
            </div>
          ) : null}
          <div className="animatic-playhead" ref={playhead} aria-hidden="true" data-time-ms="0" />
        </div>
      </div>
    </section>
  );
}
