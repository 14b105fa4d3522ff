import { useId, useRef, useState, type CSSProperties } from 'react';
import { Dialog } from './dialog.js';

/**
 * Two versions side by side, as a reviewer compares them (docs/review.md, "Compare"): a shot's picture now and an
 * earlier one, or two cuts of the animatic. Three ways to look: side by side; a wipe (B over A, cut at a line the
 * reviewer drags); onion (B over A, see-through). Two films play together: play, pause, seek and speed on either are
 * done on both, so the same moment is always shown.
 */

export interface CompareSide {
  url: string;
  label: string;
  kind: 'image' | 'video';
}

type Mode = 'side' | 'wipe' | 'onion';
const MODES: Record<Mode, string> = { side: 'Side by side', wipe: 'Wipe', onion: 'Onion' };

export function CompareDialog({ a, b, onClose }: { a: CompareSide; b: CompareSide; onClose: () => void }) {
  const films = useRef<Array<HTMLVideoElement | null>>([null, null]);
  const [mode, setMode] = useState<Mode>('side');
  const [split, setSplit] = useState(50);
  const [opacity, setOpacity] = useState(50);
  const id = useId();

  /** What one film did, done on the other; a change that already matches is not applied again (no echo). */
  const follow = (from: 0 | 1) => {
    const source = films.current[from];
    const other = films.current[from === 0 ? 1 : 0];
    if (!source || !other) return;
    if (Math.abs(other.currentTime - source.currentTime) > 0.04) other.currentTime = source.currentTime;
    if (other.playbackRate !== source.playbackRate) other.playbackRate = source.playbackRate;
    if (source.paused && !other.paused) other.pause();
    if (!source.paused && other.paused) void other.play().catch(() => undefined);
  };

  const media = (side: CompareSide, index: 0 | 1, style?: CSSProperties) =>
    side.kind === 'video' ? (
      <video
        ref={(element) => {
          films.current[index] = element;
        }}
        className="compare-media"
        src={side.url}
        controls={index === 0 || mode === 'side'}
        muted={index === 1}
        preload="auto"
        style={style}
        aria-label={side.label}
        data-side={index === 0 ? 'a' : 'b'}
        onPlay={() => follow(index)}
        onPause={() => follow(index)}
        onSeeked={() => follow(index)}
        onRateChange={() => follow(index)}
      />
    ) : (
      <img
        className="compare-media"
        src={side.url}
        alt={side.label}
        style={style}
        data-side={index === 0 ? 'a' : 'b'}
      />
    );

  return (
    <Dialog
      open
      onClose={onClose}
      className="compare-dialog"
      title={`Compare: ${a.label} and ${b.label}`}
      toolbar={
        <div className="compare-bar">
          <div role="radiogroup" aria-label="How to compare" className="compare-modes">
            {(Object.keys(MODES) as Mode[]).map((each) => (
              <label key={each}>
                <input type="radio" name={`${id}-mode`} checked={mode === each} onChange={() => setMode(each)} />
                {MODES[each]}
              </label>
            ))}
          </div>
          {mode === 'wipe' ? (
            <label>
              Wipe{' '}
              <input
                type="range"
                min={0}
                max={100}
                value={split}
                onChange={(event) => setSplit(Number(event.target.value))}
              />
            </label>
          ) : null}
          {mode === 'onion' ? (
            <label>
              {b.label} over {a.label}{' '}
              <input
                type="range"
                min={0}
                max={100}
                value={opacity}
                onChange={(event) => setOpacity(Number(event.target.value))}
              />
            </label>
          ) : null}
        </div>
      }
    >
      {mode === 'side' ? (
        <div className="compare-side">
          <figure>
            {media(a, 0)}
            <figcaption>{a.label}</figcaption>
          </figure>
          <figure>
            {media(b, 1)}
            <figcaption>{b.label}</figcaption>
          </figure>
        </div>
      ) : (
        <figure className="compare-stack" data-mode={mode}>
          <div className="compare-layers">
            {media(a, 0)}
            {media(b, 1, {
              position: 'absolute',
              inset: 0,
              height: '100%',
              pointerEvents: 'none',
              ...(mode === 'wipe' ? { clipPath: `inset(0 0 0 ${split}%)` } : { opacity: opacity / 100 }),
            })}
            {mode === 'wipe' ? (
              <span className="compare-line" style={{ left: `${split}%` }} aria-hidden="true" />
            ) : null}
          </div>
          <figcaption>
            {mode === 'wipe' ? `${a.label} left of the line, ${b.label} right of it` : `${b.label} over ${a.label}`}
          </figcaption>
        </figure>
      )}
    </Dialog>
  );
}
