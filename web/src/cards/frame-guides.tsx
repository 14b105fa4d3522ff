import { frameGuides, GUIDE_LABELS, GUIDE_NAMES, type GuideName } from '../../../src/shared/frame-shape.js';
import { useGuideChoice } from '../model/guides.js';

/**
 * The framing guides over a frame (docs/storyboards.md, "Frame shapes and guides"), for the frame editor, the board's
 * card and Present: an SVG laid over the frame box (absolutely, the whole box), drawn from `frameGuides`, the fractions
 * the PDF and the board picture draw from too, so a guide is at the same place of the frame in each. Each rect and
 * line carries `data-guide` with its guide's name (tests find the title-safe rect by it).
 */
export function FrameGuides({
  guides,
  aspect,
  className = 'frame-guides',
  width = 1000,
}: {
  guides: readonly GuideName[];
  /** The frame's width over its height. */
  aspect: number;
  className?: string;
  /** The SVG's own width in user units (its height follows the aspect); the editor uses its stage's. */
  width?: number;
}) {
  const height = width / aspect;
  const shown = frameGuides(guides, aspect);
  return (
    <svg
      className={className}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      data-guides={guides.join(' ') || undefined}
    >
      {shown.flatMap((guide) => {
        // Safe areas and the cross in cyan, delivery crops in amber: the colours of the PDF and the board picture.
        const colour = guide.name.startsWith('crop') ? '#f59e0b' : '#22d3ee';
        return [
          ...guide.rects.map((rect, at) => (
            <rect
              key={`${guide.name}-r${at}`}
              data-guide={guide.name}
              x={rect.x * width}
              y={rect.y * height}
              width={rect.width * width}
              height={rect.height * height}
              fill="none"
              stroke={colour}
              strokeWidth={1.5}
              strokeDasharray="8 4"
              // The same line on a 200-pixel card frame and a full-screen Present frame.
              vectorEffect="non-scaling-stroke"
            />
          )),
          ...guide.lines.map((line, at) => (
            <line
              key={`${guide.name}-l${at}`}
              data-guide={guide.name}
              x1={line.from[0] * width}
              y1={line.from[1] * height}
              x2={line.to[0] * width}
              y2={line.to[1] * height}
              stroke={colour}
              strokeWidth={1.5}
              vectorEffect="non-scaling-stroke"
            />
          )),
        ];
      })}
    </svg>
  );
}

/**
 * The person's guide choice for the board's card and Present (model/guides.ts): a "Show guides" switch and which
 * guides, in a disclosure so it takes one line until opened. `nodrag nowheel`: on the canvas, using it never moves the
 * card or the view.
 */
export function GuidePicker({ className = '' }: { className?: string }) {
  const shown = useGuideChoice((state) => state.shown);
  const chosen = useGuideChoice((state) => state.chosen);
  const setShown = useGuideChoice((state) => state.setShown);
  const toggle = useGuideChoice((state) => state.toggle);
  return (
    <details className={`guide-picker nodrag nowheel ${className}`.trim()}>
      <summary>Guides{shown && chosen.length ? ` (${chosen.length})` : ''}</summary>
      <div className="guide-picker-options" role="group" aria-label="Framing guides">
        <label className="check">
          <input type="checkbox" checked={shown} onChange={(event) => setShown(event.target.checked)} /> Show guides
        </label>
        {GUIDE_NAMES.map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(name)}
              onChange={(event) => toggle(name, event.target.checked)}
            />{' '}
            {GUIDE_LABELS[name]}
          </label>
        ))}
      </div>
    </details>
  );
}
