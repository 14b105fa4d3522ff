import { marksElement } from '../shared/drawing-svg.js';
import { guidesSvg } from '../shared/frame-shape.js';
import type { Scene, SceneCard } from './board-scene.js';
import { nodeTypeColours } from './node-labels.js';

/**
 * A scene as SVG: each node a card (its picture, or a placeholder naming its type, and its name), groups as dashed
 * frames, shots with their number, edges as lines between card centres. Coordinates stay the canvas's (the viewBox is
 * the view); `scale` only says how large the picture will be, so text too small to read at that size is left out rather
 * than drawn as noise.
 */

const FONT = 'Noto Sans';
/** Below this many pixels high, text is not drawn. */
const SMALLEST_TEXT_PX = 5;
const HEADER = 36;

/** Characters XML cannot hold are dropped; the five special ones escaped. */
function escape(value: string): string {
  return [...value]
    .filter((char) => {
      const code = char.codePointAt(0)!;
      return (code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) && code !== 0xfffe && code !== 0xffff;
    })
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Text cut to fit a width at a size (Noto Sans averages a little over half its size a character). */
function fit(value: string, width: number, size: number): string {
  const room = Math.floor(width / (size * 0.56));
  if (room < 2) return '';
  return value.length > room ? `${value.slice(0, room - 1)}…` : value;
}

const n = (value: number) => String(Math.round(value * 10) / 10);

interface Pen {
  scale: number;
  pictures: ReadonlyMap<string, string>;
}

function textAt(pen: Pen, x: number, y: number, value: string, size: number, attributes: string): string {
  if (size * pen.scale < SMALLEST_TEXT_PX || value === '') return '';
  return `<text x="${n(x)}" y="${n(y)}" font-size="${size}" ${attributes}>${escape(value)}</text>`;
}

function picture(pen: Pen, card: { picture?: string }, x: number, y: number, width: number, height: number): string {
  const href = card.picture ? pen.pictures.get(card.picture) : undefined;
  if (!href || width <= 0 || height <= 0) return '';
  return `<image x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(height)}" preserveAspectRatio="xMidYMid slice" href="${href}"/>`;
}

function group(pen: Pen, card: SceneCard): string {
  return (
    `<rect x="${n(card.x)}" y="${n(card.y)}" width="${n(card.width)}" height="${n(card.height)}" rx="16" fill="#f8fafc" stroke="#94a3b8" stroke-width="3" stroke-dasharray="14 10"/>` +
    textAt(
      pen,
      card.x + 16,
      card.y + 30,
      fit(card.name || card.label, card.width - 32, 20),
      20,
      'font-weight="bold" fill="#334155"',
    )
  );
}

function shot(pen: Pen, card: SceneCard): string {
  const words = card.words !== undefined;
  const pictureHeight = words ? card.height - 44 : card.height;
  const badge = 22;
  const badgeWidth = Math.max(40, (card.number ?? '').length * badge * 0.62 + 20);
  return (
    `<rect x="${n(card.x)}" y="${n(card.y)}" width="${n(card.width)}" height="${n(pictureHeight)}" rx="6" fill="#e2e8f0" stroke="#94a3b8" stroke-width="1.5"/>` +
    (picture(pen, card, card.x, card.y, card.width, pictureHeight) ||
      textAt(
        pen,
        card.x + card.width / 2,
        card.y + pictureHeight / 2 + 7,
        'No picture',
        18,
        'text-anchor="middle" fill="#64748b"',
      )) +
    overFrame(card, pictureHeight) +
    (card.number && badge * pen.scale >= SMALLEST_TEXT_PX
      ? `<rect x="${n(card.x + 6)}" y="${n(card.y + 6)}" width="${n(badgeWidth)}" height="34" rx="6" fill="#0f172a" fill-opacity="0.85"/>` +
        textAt(
          pen,
          card.x + 6 + badgeWidth / 2,
          card.y + 31,
          card.number,
          badge,
          'text-anchor="middle" font-weight="bold" fill="#ffffff"',
        )
      : '') +
    (words
      ? textAt(
          pen,
          card.x + 2,
          card.y + pictureHeight + 28,
          fit(card.words || '—', card.width - 4, 16),
          16,
          'fill="#1e293b"',
        )
      : '')
  );
}

/** The shot's notes-layer marks and the framing guides asked for, in the frame's own pixels. */
function overFrame(card: SceneCard, height: number): string {
  const marks = card.marks?.length ? marksElement(card.marks, card.width, height) : '';
  const guides = card.guides?.length ? guidesSvg(card.guides, card.width, height) : '';
  return marks || guides ? `<g transform="translate(${n(card.x)} ${n(card.y)})">${marks}${guides}</g>` : '';
}

function node(pen: Pen, card: SceneCard): string {
  const colours = nodeTypeColours(card.type);
  const body = { x: card.x + 8, y: card.y + HEADER + 6, width: card.width - 16, height: card.height - HEADER - 40 };
  const board = card.type === 'storyboardNode';
  const placeholder =
    `<rect x="${n(body.x)}" y="${n(body.y)}" width="${n(body.width)}" height="${n(Math.max(body.height, 0))}" rx="10" fill="${colours.fill}"/>` +
    textAt(
      pen,
      body.x + body.width / 2,
      body.y + body.height / 2 + 8,
      fit(card.label, body.width - 16, 22),
      22,
      `text-anchor="middle" font-weight="bold" fill="${colours.accent}"`,
    );
  return (
    `<rect x="${n(card.x)}" y="${n(card.y)}" width="${n(card.width)}" height="${n(card.height)}" rx="12" fill="#ffffff" stroke="#cbd5e1" stroke-width="2"/>` +
    `<path d="M${n(card.x)} ${n(card.y + HEADER)}V${n(card.y + 12)}a12 12 0 0 1 12 -12H${n(card.x + card.width - 12)}a12 12 0 0 1 12 12V${n(card.y + HEADER)}Z" fill="${colours.accent}"/>` +
    textAt(
      pen,
      card.x + 12,
      card.y + 24,
      fit(card.label, card.width - 24, 15),
      15,
      'font-weight="bold" fill="#ffffff"',
    ) +
    (board ? '' : picture(pen, card, body.x, body.y, body.width, body.height) || placeholder) +
    textAt(
      pen,
      card.x + 12,
      board ? card.y + HEADER + 34 : card.y + card.height - 13,
      fit(card.name, card.width - 24, 17),
      17,
      'fill="#0f172a"',
    )
  );
}

export function boardSvg(
  scene: Scene,
  size: { width: number; height: number },
  pictures: ReadonlyMap<string, string>,
): string {
  const { view } = scene;
  const pen: Pen = { scale: size.width / view.width, pictures };
  const line = Math.max(2, 1.5 / pen.scale);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="${n(view.x)} ${n(view.y)} ${n(view.width)} ${n(view.height)}" font-family="${FONT}">`,
    `<rect x="${n(view.x)}" y="${n(view.y)}" width="${n(view.width)}" height="${n(view.height)}" fill="#f1f5f9"/>`,
  ];
  if (scene.title)
    parts.push(textAt(pen, view.x + 24, view.y + 42, scene.title, 26, 'font-weight="bold" fill="#0f172a"'));
  for (const card of scene.cards.filter((each) => each.kind === 'group')) parts.push(group(pen, card));
  for (const edge of scene.edges)
    parts.push(
      `<line x1="${n(edge.x1)}" y1="${n(edge.y1)}" x2="${n(edge.x2)}" y2="${n(edge.y2)}" stroke="#64748b" stroke-width="${n(line)}" stroke-linecap="round"/>`,
    );
  for (const card of scene.cards) {
    if (card.kind === 'card') parts.push(node(pen, card));
    else if (card.kind === 'shot') parts.push(shot(pen, card));
  }
  parts.push('</svg>');
  return parts.join('');
}
