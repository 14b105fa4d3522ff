import type { CameraMove } from '../../contract/shots.js';
import { placedFraming } from '../../shared/camera-move.js';
import type { Box } from './page-frame.js';

/**
 * A shot's camera move on paper (docs/deliverables.md, "Camera moves"), as boards draw one: the end framing as a
 * rectangle on the picture and arrows from where the framing starts to where it ends, vector paths over the picture.
 * A move that travels (a pan, a tilt) gets one arrow from the start framing's centre to the end's; one that stays
 * centred (a push or a pull) gets an arrow at each corner, from the start framing's corner to the end's.
 */

export const MOVE_COLOUR = '#db2777';
/** Below this travel of the framing's centre (a fraction of the frame), the move reads as a push or a pull. */
const CENTRED = 0.05;

type Point = [number, number];

export function drawCameraMove(doc: PDFKit.PDFDocument, move: CameraMove, frame: Box): void {
  const width = Math.max(0.6, frame.width / 300);
  const at = (x: number, y: number): Point => [frame.x + x * frame.width, frame.y + y * frame.height];
  const [start, end] = [placedFraming(move.start), placedFraming(move.end)];
  doc.save();
  doc
    .rect(...at(end.x, end.y), end.width * frame.width, end.height * frame.height)
    .lineWidth(width)
    .strokeColor(MOVE_COLOUR)
    .stroke();
  const centre = (framing: CameraMove['start']): Point => [
    framing.x + framing.width / 2,
    framing.y + framing.height / 2,
  ];
  const [fromX, fromY] = centre(start);
  const [toX, toY] = centre(end);
  const arrows: Array<[Point, Point]> =
    Math.hypot(toX - fromX, toY - fromY) >= CENTRED
      ? [[at(fromX, fromY), at(toX, toY)]]
      : (
          [
            [0, 0],
            [1, 0],
            [0, 1],
            [1, 1],
          ] as const
        ).map(([cornerX, cornerY]) => [
          at(start.x + cornerX * start.width, start.y + cornerY * start.height),
          at(end.x + cornerX * end.width, end.y + cornerY * end.height),
        ]);
  for (const [from, to] of arrows) drawArrow(doc, from, to, width);
  doc.restore();
}

/** A shaft and a filled head at `to`; nothing when the two points are the same. */
function drawArrow(doc: PDFKit.PDFDocument, from: Point, to: Point, width: number): void {
  const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
  if (length < width) return;
  const [unitX, unitY] = [(to[0] - from[0]) / length, (to[1] - from[1]) / length];
  const head = Math.min(length / 2, width * 6);
  const base: Point = [to[0] - unitX * head, to[1] - unitY * head];
  doc
    .moveTo(...from)
    .lineTo(...base)
    .lineWidth(width)
    .strokeColor(MOVE_COLOUR)
    .stroke();
  doc
    .moveTo(...to)
    .lineTo(base[0] - unitY * head * 0.5, base[1] + unitX * head * 0.5)
    .lineTo(base[0] + unitY * head * 0.5, base[1] - unitX * head * 0.5)
    .closePath()
    .fillColor(MOVE_COLOUR)
    .fill();
}
