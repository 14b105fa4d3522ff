import { getStroke, type StrokeOptions } from 'perfect-freehand';
import { markPoints, type Drawing, type DrawingLayer, type ShotMark, type Stroke } from '../contract/drawing.js';

/** A mark's line width: 0.6 % of the frame's width, bold enough to read on a thumbnail. */
const MARK_SIZE = 0.006;

/**
 * A drawing as SVG (docs/drawing.md, "How a drawing is drawn"): the frame editor in the browser and the server's render
 * of a shot's picture draw the same outlines from the same input points, so the sketch on the board is the sketch the
 * artist drew. Pressure strokes are perfect-freehand's outlines (filled polygons); lines, arrows, boxes and ellipses are
 * stroked shapes; a fill is the lasso the artist drew, filled; text is text. Nothing of a drawing is ever read as
 * markup: numbers are written as numbers, colours have one checked form, words are escaped.
 */

/** How each pressure tool turns pressure into width (thinning), and how much it smooths the hand. */
const PRESSURE_TOOLS: Partial<Record<Stroke['tool'], StrokeOptions>> = {
  pencil: { thinning: 0.35, smoothing: 0.4, streamline: 0.35 },
  pen: { thinning: 0.6, smoothing: 0.5, streamline: 0.5 },
  brush: { thinning: 0.75, smoothing: 0.6, streamline: 0.55 },
  eraser: { thinning: 0, smoothing: 0.5, streamline: 0.5 },
};

const fixed = (value: number) => (Math.round(value * 100) / 100).toString();
/** Outline coordinates to a tenth of a pixel: finer is invisible, and a 2,000-stroke frame's SVG stays a third smaller. */
const tenth = (value: number) => (Math.round(value * 10) / 10).toString();

/** An outline polygon as an SVG path (quadratic curves through the midpoints: smooth without extra points). */
function outlinePath(outline: number[][]): string {
  if (outline.length < 2) return '';
  const [first] = outline as [[number, number]];
  let d = `M${tenth(first[0])} ${tenth(first[1])}Q`;
  for (let index = 0; index < outline.length; index++) {
    const [x0, y0] = outline[index] as [number, number];
    const [x1, y1] = outline[(index + 1) % outline.length] as [number, number];
    d += `${tenth(x0)} ${tenth(y0)} ${tenth((x0 + x1) / 2)} ${tenth((y0 + y1) / 2)} `;
  }
  return `${d}Z`;
}

/** The outline of a pressure stroke (pencil, pen, brush, eraser) in pixels of a frame `width` × `height`. */
export function pressureStrokePath(stroke: Stroke, width: number, height: number): string {
  const options = PRESSURE_TOOLS[stroke.tool] ?? PRESSURE_TOOLS.pen!;
  const points = stroke.points.map(([x, y, pressure]) => [x * width, y * height, pressure]);
  const size = (stroke.size / 1000) * width;
  // A single tap is a dot: perfect-freehand draws it from one point.
  return outlinePath(getStroke(points, { ...options, size, simulatePressure: false, last: true }));
}

/** Whether the tool's stroke is a pressure outline (filled) rather than a shape. */
export const isPressureTool = (tool: Stroke['tool']) => tool in PRESSURE_TOOLS;

/** XML's five: words of a text stroke are text, never markup. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A shape tool's element (line, arrow, box, ellipse, fill, text) in pixels; `paint` is its colour. */
function shapeElement(
  tool: Stroke['tool'] | ShotMark['tool'],
  points: ReadonlyArray<readonly number[]>,
  size: number,
  paint: string,
  width: number,
  height: number,
  words?: string,
): string {
  const at = points.map(([x, y]) => [x! * width, y! * height] as const);
  const [x0, y0] = at[0]!;
  const [x1, y1] = at.at(-1)!;
  const line = `stroke="${paint}" stroke-width="${fixed(size)}" stroke-linecap="round" stroke-linejoin="round"`;
  switch (tool) {
    case 'line':
      return `<line x1="${fixed(x0)}" y1="${fixed(y0)}" x2="${fixed(x1)}" y2="${fixed(y1)}" ${line}/>`;
    case 'arrow': {
      const angle = Math.atan2(y1 - y0, x1 - x0);
      const head = Math.max(size * 4, width / 60);
      const wing = (turn: number) =>
        `${fixed(x1 - head * Math.cos(angle + turn))},${fixed(y1 - head * Math.sin(angle + turn))}`;
      return `<g ${line} fill="none"><line x1="${fixed(x0)}" y1="${fixed(y0)}" x2="${fixed(x1)}" y2="${fixed(y1)}"/><polyline points="${wing(0.45)} ${fixed(x1)},${fixed(y1)} ${wing(-0.45)}"/></g>`;
    }
    case 'rect':
      return `<rect x="${fixed(Math.min(x0, x1))}" y="${fixed(Math.min(y0, y1))}" width="${fixed(Math.abs(x1 - x0))}" height="${fixed(Math.abs(y1 - y0))}" fill="none" ${line}/>`;
    case 'ellipse':
      return `<ellipse cx="${fixed((x0 + x1) / 2)}" cy="${fixed((y0 + y1) / 2)}" rx="${fixed(Math.abs(x1 - x0) / 2)}" ry="${fixed(Math.abs(y1 - y0) / 2)}" fill="none" ${line}/>`;
    case 'fill':
      return `<polygon points="${at.map(([x, y]) => `${fixed(x)},${fixed(y)}`).join(' ')}" fill="${paint}"/>`;
    case 'text':
      return `<text x="${fixed(x0)}" y="${fixed(y0)}" font-family="Noto Sans" font-size="${fixed(Math.max(size * 4, 8))}" fill="${paint}">${escapeXml(words ?? '')}</text>`;
    default:
      // A freehand mark (few points, no pressure): a polyline.
      return `<polyline points="${at.map(([x, y]) => `${fixed(x)},${fixed(y)}`).join(' ')}" fill="none" ${line}/>`;
  }
}

/** One stroke as an SVG element; an eraser's outline is drawn black (it is used inside a mask). */
export function strokeElement(stroke: Stroke, width: number, height: number): string {
  const size = (stroke.size / 1000) * width;
  const opacity = stroke.opacity !== undefined && stroke.opacity < 1 ? ` opacity="${fixed(stroke.opacity)}"` : '';
  if (isPressureTool(stroke.tool)) {
    const paint = stroke.tool === 'eraser' ? '#000000' : stroke.colour;
    return `<path d="${pressureStrokePath(stroke, width, height)}" fill="${paint}"${opacity}/>`;
  }
  const element = shapeElement(stroke.tool, stroke.points, size, stroke.colour, width, height, stroke.text);
  return opacity ? `<g${opacity}>${element}</g>` : element;
}

/**
 * A layer's strokes in order; an eraser hides what was drawn before it on its layer (a mask around what came before),
 * never what comes after it or another layer.
 */
function layerElement(
  layer: DrawingLayer,
  index: number,
  width: number,
  height: number,
  element: (stroke: Stroke) => string,
): string {
  let content = '';
  let masks = '';
  let erasers = 0;
  for (const stroke of layer.strokes) {
    if (stroke.tool !== 'eraser') {
      content += element(stroke);
      continue;
    }
    const id = `erase-${index}-${erasers++}`;
    masks += `<mask id="${id}" maskUnits="userSpaceOnUse" x="0" y="0" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#ffffff"/>${element(stroke)}</mask>`;
    content = `<g mask="url(#${id})">${content}</g>`;
  }
  const opacity = layer.opacity < 1 ? ` opacity="${fixed(layer.opacity)}"` : '';
  return `${masks ? `<defs>${masks}</defs>` : ''}<g data-layer="${layer.name}"${opacity}>${content}</g>`;
}

/** The notes layer's marks (on the shot itself), above every layer. */
export function marksElement(marks: readonly ShotMark[], width: number, height: number): string {
  const elements = marks.flatMap((mark) => {
    const points = markPoints(mark);
    return points.length
      ? [shapeElement(mark.tool, points, MARK_SIZE * width, mark.colour, width, height, mark.text)]
      : [];
  });
  return elements.length ? `<g data-layer="marks">${elements.join('')}</g>` : '';
}

/** Stroke elements by size and content, bounded: the oldest go first past `limit`. */
export class StrokeCache {
  private readonly elements = new Map<string, string>();
  /** The same stroke object drawn again (a drawing kept parsed between saves): no key to compute at all. */
  readonly byObject = new WeakMap<Stroke, { size: string; element: string }>();
  constructor(private readonly limit = 20_000) {}

  get(key: string): string | undefined {
    return this.elements.get(key);
  }

  set(key: string, element: string): void {
    this.elements.set(key, element);
    if (this.elements.size > this.limit) this.elements.delete(this.elements.keys().next().value!);
  }
}

/** A 53-bit FNV-1a hash of the stroke as JSON, with its length: two strokes with one key would have to share both. */
function contentKey(stroke: Stroke): string {
  const text = JSON.stringify(stroke);
  let high = 0x811c9dc5;
  let low = 0x01000193;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    high = Math.imul(high ^ code, 0x01000193) >>> 0;
    low = Math.imul(low ^ code, 0x5bd1e995) >>> 0;
  }
  return `${text.length.toString(36)}.${high.toString(36)}.${low.toString(36)}`;
}

export interface DrawingSvgOptions {
  width: number;
  height: number;
  /** The picture under the drawing, as a data URI (the server reads it from its asset); none on a blank frame. */
  pictureUnder?: string | null;
  marks?: readonly ShotMark[];
  /** SVG elements drawn on top (framing guides, `guidesSvg`). */
  overlay?: string;
  /** False: no white paper under it (the editor shows the picture under it and the onion skin beneath). */
  paper?: boolean;
  /**
   * Each stroke's element, kept between draws (by the frame's size and the stroke's content, never its id alone: an id
   * is the client's word): a frame of 2,000 strokes is drawn again without computing 2,000 outlines again.
   */
  cache?: StrokeCache;
}

/** The whole frame: white paper, the picture under it (cropped to the frame), the visible layers, the marks. */
export function drawingSvg(drawing: Drawing | null, options: DrawingSvgOptions): string {
  const { width, height } = options;
  const under = options.pictureUnder
    ? `<image href="${escapeXml(options.pictureUnder)}" x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="xMidYMid slice"/>`
    : '';
  const cache = options.cache;
  const element = (stroke: Stroke) => {
    if (!cache) return strokeElement(stroke, width, height);
    const size = `${width}x${height}`;
    const same = cache.byObject.get(stroke);
    if (same?.size === size) return same.element;
    const key = `${size}:${contentKey(stroke)}`;
    const element = cache.get(key) ?? strokeElement(stroke, width, height);
    cache.set(key, element);
    cache.byObject.set(stroke, { size, element });
    return element;
  };
  const layers = (drawing?.layers ?? [])
    .map((layer, index) => (layer.visible ? layerElement(layer, index, width, height, element) : ''))
    .join('');
  const paper = options.paper === false ? '' : `<rect width="${width}" height="${height}" fill="#ffffff"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${paper}${under}${layers}${marksElement(options.marks ?? [], width, height)}${options.overlay ?? ''}</svg>`;
}
