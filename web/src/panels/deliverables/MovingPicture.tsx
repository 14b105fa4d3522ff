import { useEffect, useRef } from 'react';
import type { CameraMove, Framing } from '../../../../src/contract/shots.js';
import { framingAt } from '../../../../src/shared/camera-move.js';

/**
 * A shot's picture in Present with its camera move played over the shot's length (docs/deliverables.md, "Camera
 * moves"): a CSS transform animated from the start framing to the end, its steps read from the same framing function
 * as the animatic's, so the page and the film frame a moment alike. The frame box clips what the framing leaves out.
 */

/** How many steps of the move the animation holds: enough that straight lines between them follow any easing. */
const STEPS = 24;

/** The transform that shows `framing` of the picture in the whole frame (origin at the top left). */
export function framingTransform(framing: Framing): string {
  const scale = 1 / framing.width;
  return `scale(${scale}) translate(${-framing.x * 100}%, ${-framing.y * 100}%)`;
}

export function MovingPicture({
  src,
  alt,
  move,
  durationMs,
}: {
  src: string;
  alt: string;
  move: CameraMove | null | undefined;
  durationMs: number;
}) {
  const picture = useRef<HTMLImageElement>(null);
  // By value: the canvas rebuilds the shot on every change elsewhere, which must not restart the move.
  const moveKey = move ? JSON.stringify(move) : '';
  useEffect(() => {
    const element = picture.current;
    if (!element || !move) return;
    const keyframes = Array.from({ length: STEPS + 1 }, (_, step) => ({
      offset: step / STEPS,
      transform: framingTransform(framingAt(move, step / STEPS)),
    }));
    const animation = element.animate(keyframes, { duration: durationMs, fill: 'forwards', easing: 'linear' });
    return () => animation.cancel();
  }, [moveKey, durationMs, src]); // `move` is read through its key
  return (
    <img
      ref={picture}
      className="present-picture present-frame"
      src={src}
      alt={alt}
      data-move={move ? 'playing' : undefined}
      style={move ? { transformOrigin: '0 0', transform: framingTransform(framingAt(move, 0)) } : undefined}
    />
  );
}
