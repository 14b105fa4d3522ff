import { useEffect, useMemo } from 'react';
import { ShotMark } from '../../../src/contract/index.js';
import { drawingSvg } from '../../../src/shared/drawing-svg.js';
import { list } from '../model/values.js';

/**
 * A shot's notes-layer marks (docs/drawing.md, "Marks": an agent's camera arrow, a circle, a word) over its picture,
 * drawn from the same shapes as the editor, the PDF and the board picture. The marks are node data anyone may write, so
 * only the ones that parse are drawn, and as an image: an SVG in an <img> runs nothing.
 */
export function ShotMarks({ marks, aspect }: { marks: unknown; aspect: number }) {
  const parsed = useMemo(() => list(marks).flatMap((mark) => ShotMark.safeParse(mark).data ?? []), [marks]);
  const url = useMemo(() => {
    if (parsed.length === 0) return null;
    const width = 1000;
    const svg = drawingSvg(null, { width, height: Math.round(width / aspect), paper: false, marks: parsed });
    return URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  }, [parsed, aspect]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url ? <img className="shot-marks" src={url} alt="" data-marks={parsed.length} draggable={false} /> : null;
}
