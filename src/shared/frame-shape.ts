import { GUIDE_NAMES, type GuideName } from '../contract/shots.js';

/**
 * A board's frame shape and the framing guides drawn on it (docs/storyboards.md, "Frame shapes and guides"). One function for each, used by
 * the frame editor, the board's card, Present, the PDF and the board picture, so a guide is at the same place of the
 * frame in each. Every guide is in frame fractions (0 to 1 of its width and height).
 */

export const DEFAULT_ASPECT = 16 / 9;

/** "16:9", "2.39:1", "1.43:1", a custom "5:4": width over height. Anything unreadable, or absurd, is 16:9. */
export function aspectOf(ratio: unknown): number {
  const match =
    typeof ratio === 'string' ? /^(\d{1,4}(?:\.\d{1,3})?):(\d{1,4}(?:\.\d{1,3})?)$/.exec(ratio.trim()) : null;
  const value = match ? Number(match[1]) / Number(match[2]) : NaN;
  return Number.isFinite(value) && value > 0.2 && value < 5 ? value : DEFAULT_ASPECT;
}

/** Whether a person's custom W:H is a frame shape we take (both sides positive, the shape between 1:5 and 5:1). */
export function isFrameShape(ratio: string): boolean {
  const match = /^(\d{1,4}(?:\.\d{1,3})?):(\d{1,4}(?:\.\d{1,3})?)$/.exec(ratio.trim());
  if (!match) return false;
  const value = Number(match[1]) / Number(match[2]);
  return Number.isFinite(value) && value > 0.2 && value < 5;
}

export interface GuideRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GuideLine {
  from: [number, number];
  to: [number, number];
}

export { GUIDE_NAMES };
export type { GuideName };

export const GUIDE_LABELS: Record<GuideName, string> = {
  actionSafe: 'Action safe 93 %',
  titleSafe: 'Title safe 90 %',
  centre: 'Centre cross',
  thirds: 'Thirds',
  crop9x16: '9:16 crop',
  crop4x5: '4:5 crop',
};

export interface Guide {
  name: GuideName;
  rects: GuideRect[];
  lines: GuideLine[];
}

/** The centred area of a share of the frame's width and height (SMPTE ST 2046-1 safe areas). */
function safeArea(share: number): GuideRect {
  const inset = (1 - share) / 2;
  return { x: inset, y: inset, width: share, height: share };
}

/** The centred crop of another shape inside this frame: full height when narrower, full width when wider. */
export function cropInside(frameAspect: number, cropAspect: number): GuideRect {
  if (cropAspect <= frameAspect) {
    const width = cropAspect / frameAspect;
    return { x: (1 - width) / 2, y: 0, width, height: 1 };
  }
  const height = frameAspect / cropAspect;
  return { x: 0, y: (1 - height) / 2, width: 1, height };
}

/** The guides asked for, on a frame of this aspect (width over height). */
export function frameGuides(names: readonly GuideName[], aspect: number): Guide[] {
  return names.map((name): Guide => {
    switch (name) {
      case 'actionSafe':
        return { name, rects: [safeArea(0.93)], lines: [] };
      case 'titleSafe':
        return { name, rects: [safeArea(0.9)], lines: [] };
      case 'centre':
        return {
          name,
          rects: [],
          lines: [
            { from: [0.5 - 0.03 / aspect, 0.5], to: [0.5 + 0.03 / aspect, 0.5] },
            { from: [0.5, 0.47], to: [0.5, 0.53] },
          ],
        };
      case 'thirds':
        return {
          name,
          rects: [],
          lines: [1 / 3, 2 / 3].flatMap((at): GuideLine[] => [
            { from: [at, 0], to: [at, 1] },
            { from: [0, at], to: [1, at] },
          ]),
        };
      case 'crop9x16':
        return { name, rects: [cropInside(aspect, 9 / 16)], lines: [] };
      case 'crop4x5':
        return { name, rects: [cropInside(aspect, 4 / 5)], lines: [] };
    }
  });
}

/** Guides as SVG elements on a frame `width` × `height` pixels (the web editor and the server's renders share it). */
export function guidesSvg(guides: readonly Guide[], width: number, height: number): string {
  const px = (value: number) => Math.round(value * 100) / 100;
  const parts: string[] = [];
  for (const guide of guides) {
    const colour = guide.name.startsWith('crop') ? '#f59e0b' : '#22d3ee';
    for (const rect of guide.rects)
      parts.push(
        `<rect data-guide="${guide.name}" x="${px(rect.x * width)}" y="${px(rect.y * height)}" width="${px(rect.width * width)}" height="${px(rect.height * height)}" fill="none" stroke="${colour}" stroke-width="${px(Math.max(1, width / 800))}" stroke-dasharray="${px(width / 120)} ${px(width / 240)}"/>`,
      );
    for (const line of guide.lines)
      parts.push(
        `<line data-guide="${guide.name}" x1="${px(line.from[0] * width)}" y1="${px(line.from[1] * height)}" x2="${px(line.to[0] * width)}" y2="${px(line.to[1] * height)}" stroke="${colour}" stroke-width="${px(Math.max(1, width / 800))}"/>`,
      );
  }
  return parts.join('');
}
