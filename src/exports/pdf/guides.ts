import type { GuideName } from '../../contract/shots.js';
import { frameGuides } from '../../shared/frame-shape.js';
import type { Box } from './page-frame.js';

/**
 * The framing guides asked for (docs/storyboards.md, "Frame shapes and guides") as vector paths over a shot's frame:
 * the same fractions of the frame as the editor, the board's card, Present and the board picture draw, so the title
 * safe area is 5 % in from the frame's edge on paper too. Safe areas in cyan, delivery crops in amber, thin and dashed
 * so the picture under them still reads.
 */

const SAFE = '#0891b2';
const CROP = '#d97706';

export function drawGuides(doc: PDFKit.PDFDocument, names: readonly GuideName[], frame: Box): void {
  if (names.length === 0) return;
  // As thin as the board picture draws them (a 1/800 of the frame), never a hairline a printer drops.
  const width = Math.max(0.4, frame.width / 800);
  doc.save();
  for (const guide of frameGuides(names, frame.width / frame.height)) {
    const colour = guide.name.startsWith('crop') ? CROP : SAFE;
    for (const rect of guide.rects)
      doc
        .rect(
          frame.x + rect.x * frame.width,
          frame.y + rect.y * frame.height,
          rect.width * frame.width,
          rect.height * frame.height,
        )
        .lineWidth(width)
        .dash(width * 4, { space: width * 2 })
        .strokeColor(colour)
        .stroke()
        .undash();
    for (const line of guide.lines)
      doc
        .moveTo(frame.x + line.from[0] * frame.width, frame.y + line.from[1] * frame.height)
        .lineTo(frame.x + line.to[0] * frame.width, frame.y + line.to[1] * frame.height)
        .lineWidth(width)
        .strokeColor(colour)
        .stroke();
  }
  doc.restore();
}
