import { useRef, useState, type PointerEvent } from 'react';
import { COMMENT_MARKUP_MAX, DRAWING_BOUNDS, type ShotMark } from '../../../../src/contract/index.js';
import { ShotMarks } from '../../cards/shot-marks.js';

/**
 * Drawing a note on the frame a comment names (docs/review.md, "Drawn notes"): freehand, line, arrow, box, ellipse and
 * words in a few colours, over the picture at the frame's shape. Marks are kept as the comment's data, in coordinates
 * from 0 to 1 of the frame (Frame.io's convention), and the finished ones are drawn by the same engine as a shot's
 * notes layer, the PDF and the board picture (ShotMarks); only the mark under the pointer is drawn here, live.
 */

const TOOLS: ReadonlyArray<{ tool: ShotMark['tool']; label: string }> = [
  { tool: 'pen', label: 'Pen' },
  { tool: 'line', label: 'Line' },
  { tool: 'arrow', label: 'Arrow' },
  { tool: 'rect', label: 'Box' },
  { tool: 'ellipse', label: 'Circle' },
  { tool: 'text', label: 'Words' },
];

/** Colours that read on any picture: a reviewer's red first. */
export const NOTE_COLOURS: ReadonlyArray<{ colour: string; name: string }> = [
  { colour: '#e53935', name: 'Red' },
  { colour: '#ffeb3b', name: 'Yellow' },
  { colour: '#43a047', name: 'Green' },
  { colour: '#1e88e5', name: 'Blue' },
  { colour: '#ffffff', name: 'White' },
  { colour: '#000000', name: 'Black' },
];

const round = (value: number) => Math.round(value * 1000) / 1000;

/** A freehand line's points, thinned evenly to the bound a mark keeps. */
function bounded(points: number[]): number[] {
  const pairs = points.length / 2;
  if (pairs <= DRAWING_BOUNDS.markPoints) return points;
  const kept: number[] = [];
  for (let index = 0; index < DRAWING_BOUNDS.markPoints; index++) {
    const at = Math.round((index * (pairs - 1)) / (DRAWING_BOUNDS.markPoints - 1)) * 2;
    kept.push(points[at]!, points[at + 1]!);
  }
  return kept;
}

export function MarkupPad({
  picture,
  aspect,
  marks,
  onChange,
}: {
  picture: string | null;
  aspect: number;
  marks: readonly ShotMark[];
  onChange(marks: ShotMark[]): void;
}) {
  const [tool, setTool] = useState<ShotMark['tool']>('ellipse');
  const [colour, setColour] = useState(NOTE_COLOURS[0]!.colour);
  const [words, setWords] = useState('');
  const [drawing, setDrawing] = useState<number[] | null>(null);
  const surface = useRef<HTMLDivElement>(null);
  const full = marks.length >= COMMENT_MARKUP_MAX;

  const pointOf = (event: { clientX: number; clientY: number }): [number, number] => {
    const box = surface.current!.getBoundingClientRect();
    return [
      round(Math.min(1, Math.max(0, (event.clientX - box.left) / box.width))),
      round(Math.min(1, Math.max(0, (event.clientY - box.top) / box.height))),
    ];
  };
  const add = (mark: ShotMark) => onChange([...marks, mark]);

  const down = (event: PointerEvent<HTMLDivElement>) => {
    if (full || event.button > 0) return;
    event.preventDefault();
    const [x, y] = pointOf(event);
    if (tool === 'text') {
      if (words.trim()) add({ tool, colour, points: [x, y], text: words.trim() });
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrawing([x, y, x, y]);
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    if (!drawing) return;
    const points = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
    if (tool === 'pen') {
      const next = [...drawing];
      for (const each of points.length ? points : [event.nativeEvent]) next.push(...pointOf(each));
      setDrawing(next);
    } else setDrawing([drawing[0]!, drawing[1]!, ...pointOf(event)]);
  };
  const up = () => {
    if (!drawing) return;
    setDrawing(null);
    const moved = drawing.some((value, index) => index >= 2 && value !== drawing[index % 2]);
    if (!moved) return;
    add({ tool, colour, points: tool === 'pen' ? bounded(drawing.slice(2)) : drawing });
  };

  return (
    <div className="markup-pad" role="group" aria-label="Draw on the frame">
      <div className="markup-tools" role="toolbar" aria-label="Drawing tools">
        {TOOLS.map((each) => (
          <button
            key={each.tool}
            type="button"
            className="button-small"
            aria-pressed={tool === each.tool}
            onClick={() => setTool(each.tool)}
          >
            {each.label}
          </button>
        ))}
        <span className="markup-colours" role="group" aria-label="Colour">
          {NOTE_COLOURS.map((each) => (
            <button
              key={each.colour}
              type="button"
              className="swatch"
              style={{ background: each.colour }}
              aria-label={each.name}
              aria-pressed={colour === each.colour}
              onClick={() => setColour(each.colour)}
            />
          ))}
        </span>
        <button
          type="button"
          className="button-small"
          disabled={marks.length === 0}
          onClick={() => onChange(marks.slice(0, -1))}
        >
          Undo mark
        </button>
        <button type="button" className="button-small" disabled={marks.length === 0} onClick={() => onChange([])}>
          Clear
        </button>
      </div>
      {tool === 'text' ? (
        <label className="markup-words">
          Words to place
          <input
            value={words}
            maxLength={200}
            onChange={(event) => setWords(event.target.value)}
            placeholder="Then click the frame"
          />
        </label>
      ) : null}
      <div
        ref={surface}
        className="markup-surface"
        style={{ aspectRatio: String(aspect) }}
        data-marks={marks.length}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={() => setDrawing(null)}
      >
        {picture ? <img src={picture} alt="" draggable={false} /> : null}
        <ShotMarks marks={marks} aspect={aspect} />
        {drawing ? <LiveMark tool={tool} colour={colour} points={drawing} /> : null}
      </div>
      <p className="muted field-help">
        {full
          ? `A note holds at most ${COMMENT_MARKUP_MAX} marks.`
          : `${marks.length} mark${marks.length === 1 ? '' : 's'}: drag on the frame to draw.`}
      </p>
    </div>
  );
}

/** The mark being drawn, in the surface's own 0-1 box (its finished form is drawn by the shared engine). */
function LiveMark({ tool, colour, points }: { tool: ShotMark['tool']; colour: string; points: number[] }) {
  const [x0, y0] = [points[0]!, points[1]!];
  const [x1, y1] = [points.at(-2)!, points.at(-1)!];
  const line = { stroke: colour, strokeWidth: 3, fill: 'none', vectorEffect: 'non-scaling-stroke' as const };
  let shape;
  if (tool === 'pen') {
    const pairs: string[] = [];
    for (let index = 2; index + 1 < points.length; index += 2) pairs.push(`${points[index]},${points[index + 1]}`);
    shape = <polyline points={pairs.join(' ')} {...line} />;
  } else if (tool === 'rect')
    shape = (
      <rect x={Math.min(x0, x1)} y={Math.min(y0, y1)} width={Math.abs(x1 - x0)} height={Math.abs(y1 - y0)} {...line} />
    );
  else if (tool === 'ellipse')
    shape = (
      <ellipse cx={(x0 + x1) / 2} cy={(y0 + y1) / 2} rx={Math.abs(x1 - x0) / 2} ry={Math.abs(y1 - y0) / 2} {...line} />
    );
  else shape = <line x1={x0} y1={y0} x2={x1} y2={y1} {...line} />;
  return (
    <svg className="markup-live" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
      {shape}
    </svg>
  );
}
