import type { CameraMove } from '../../contract/shots.js';
import { framingAt } from '../../shared/camera-move.js';

/**
 * A shot's camera move as an editor's clip motion (docs/deliverables.md, "Camera moves"): keyframes of scale and of
 * where the picture's centre sits, from the move's framings. A framing of width w shows the picture scaled by 1 / w,
 * moved so the framing's centre lands on the frame's centre. The keyframes are at the clip's first and last frames,
 * and between them at each quarter for an eased move, so an editor's straight lines between keyframes follow the
 * easing closely.
 */
export interface MotionKeyframe {
  /** Frames from the clip's first frame. */
  frame: number;
  /** The picture's scale: 1 is the whole picture filling the frame. */
  scale: number;
  /** The picture's centre from the frame's centre, in fractions of the frame's width (right) and height (down). */
  offsetX: number;
  offsetY: number;
}

export function clipMotion(move: CameraMove, frames: number): MotionKeyframe[] {
  const last = Math.max(0, frames - 1);
  const steps = move.easing === 'linear' ? [0, 1] : [0, 0.25, 0.5, 0.75, 1];
  const at = [...new Set(steps.map((step) => Math.round(step * last)))];
  return at.map((frame) => {
    const framing = framingAt(move, last === 0 ? 1 : frame / last);
    const scale = 1 / framing.width;
    return {
      frame,
      scale,
      offsetX: (0.5 - (framing.x + framing.width / 2)) * scale,
      offsetY: (0.5 - (framing.y + framing.height / 2)) * scale,
    };
  });
}

/** A keyframe value with no float noise (0.1 + 0.2 reads 0.3). */
export const rounded = (value: number) => Math.round(value * 1e6) / 1e6 + 0;
