import { clingsToPrevious, fontName, splitRuns, type FontWeight } from './fonts.js';

/**
 * Text in a box for the PDF exports: wrapped to a width, cut to a number of lines with an ellipsis, each line printed as
 * runs in the font that has their glyphs (fonts.ts). The wrapping is ours rather than pdfkit's: pdfkit wraps and cuts
 * (`height` + `ellipsis`) one text in one font, and a line of mixed scripts is several texts in several fonts; doing
 * it here also lets a caller know a text's height before drawing it (rows that never split across pages, fields that
 * share a panel).
 */

export interface TextStyle {
  size: number;
  weight: FontWeight;
  color: string;
}

export const ELLIPSIS = '…';

/** The height of one line of a style: the size plus a quarter of it between lines. */
export function lineHeight(style: Pick<TextStyle, 'size'>): number {
  return style.size * 1.25;
}

/** The width of a text (one line) in a style, in points: the sum of its runs' widths. */
export function textWidth(doc: PDFKit.PDFDocument, text: string, style: Pick<TextStyle, 'size' | 'weight'>): number {
  let width = 0;
  for (const run of splitRuns(text))
    width += doc.font(fontName(run.face, style.weight)).fontSize(style.size).widthOfString(run.text);
  return width;
}

/**
 * Characters a line may break after and before without a space (Chinese, Japanese and Korean are written without
 * spaces between words), and the ones that may not begin or end a line (kinsoku: a closing bracket or a small kana
 * never starts a line, an opening bracket never ends one).
 */
const BREAKS_ANYWHERE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const NEVER_STARTS_A_LINE =
  /[、。，．・：；？！ー）」』】〕〉》〙〗｝］ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ…‥,.!?:;)\]}'"’”]/u;
const NEVER_ENDS_A_LINE = /[（「『【〔〈《〘〖｛［([{‘“]/u;

/** A paragraph's pieces: words, spaces and single CJK characters (with their clinging punctuation). */
function tokens(paragraph: string): string[] {
  const pieces: string[] = [];
  let word = '';
  let space = '';
  let opening = '';
  const flushWord = () => {
    if (word) pieces.push(word);
    word = '';
  };
  for (const char of paragraph) {
    if (/\s/u.test(char)) {
      flushWord();
      space += char;
      continue;
    }
    if (space) {
      pieces.push(' ');
      space = '';
    }
    const last = pieces.length - 1;
    if (
      (clingsToPrevious(char) || NEVER_STARTS_A_LINE.test(char)) &&
      !word &&
      !opening &&
      last >= 0 &&
      pieces[last] !== ' '
    ) {
      pieces[last] += char;
    } else if (NEVER_ENDS_A_LINE.test(char) && BREAKS_ANYWHERE.test(char)) {
      flushWord();
      opening += char;
    } else if (BREAKS_ANYWHERE.test(char)) {
      flushWord();
      pieces.push(opening + char);
      opening = '';
    } else {
      word += opening + char;
      opening = '';
    }
  }
  word += opening;
  flushWord();
  return pieces;
}

/** Splits a piece too wide for a line at the characters, each part as wide as fits (at least one character). */
function breakPiece(doc: PDFKit.PDFDocument, piece: string, width: number, style: TextStyle): string[] {
  const parts: string[] = [];
  let part = '';
  for (const char of piece) {
    if (part && !clingsToPrevious(char) && textWidth(doc, part + char, style) > width) {
      parts.push(part);
      part = '';
    }
    part += char;
  }
  if (part) parts.push(part);
  return parts;
}

/** A line cut to end in an ellipsis within the width. */
export function ellipsize(doc: PDFKit.PDFDocument, line: string, width: number, style: TextStyle): string {
  const chars = Array.from(line.trimEnd());
  while (chars.length > 0 && textWidth(doc, chars.join('').trimEnd() + ELLIPSIS, style) > width) chars.pop();
  // Drop a base letter's orphaned marks too (they were measured with it).
  while (chars.length > 0 && clingsToPrevious(chars.at(-1) ?? '')) chars.pop();
  return chars.join('').trimEnd() + ELLIPSIS;
}

/**
 * The lines a text wraps to in a width: at most maxLines, the last one ending in an ellipsis when the text was cut.
 * Blank lines are dropped (a panel has no room for them) and runs of spaces print as one.
 */
export function wrapText(
  doc: PDFKit.PDFDocument,
  text: string,
  width: number,
  style: TextStyle,
  maxLines = Number.POSITIVE_INFINITY,
): string[] {
  if (maxLines < 1) return [];
  const lines: string[] = [];
  const spaceWidth = textWidth(doc, ' ', style);
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    let lineWidth = 0;
    let pendingSpace = false;
    for (const piece of tokens(paragraph)) {
      if (piece === ' ') {
        pendingSpace = line !== '';
        continue;
      }
      const pieceWidth = textWidth(doc, piece, style);
      const gap = pendingSpace ? spaceWidth : 0;
      pendingSpace = false;
      if (line && lineWidth + gap + pieceWidth <= width) {
        line += (gap ? ' ' : '') + piece;
        lineWidth += gap + pieceWidth;
        continue;
      }
      if (line) lines.push(line);
      const parts = pieceWidth <= width ? [piece] : breakPiece(doc, piece, width, style);
      lines.push(...parts.slice(0, -1));
      line = parts.at(-1) ?? '';
      lineWidth = textWidth(doc, line, style);
    }
    if (line) lines.push(line);
    // Stop early: a long text in a small box is cut anyway, and measuring the rest costs time.
    if (lines.length > maxLines) break;
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = ellipsize(doc, kept[maxLines - 1] ?? '', width, style);
  return kept;
}

export interface LinePlacement {
  x: number;
  /** The top of the first line. */
  y: number;
  /** The box's width, for `align` right or center. */
  width?: number;
  align?: 'left' | 'center' | 'right';
}

/** Draws lines (from wrapText) top down; returns the height they took. */
export function drawLines(
  doc: PDFKit.PDFDocument,
  lines: readonly string[],
  style: TextStyle,
  place: LinePlacement,
): number {
  const height = lineHeight(style);
  lines.forEach((line, index) => {
    const free = place.width === undefined ? 0 : place.width - textWidth(doc, line, style);
    let x = place.x + (place.align === 'right' ? free : place.align === 'center' ? free / 2 : 0);
    // The baseline sits 0.95 of the size under the line's top: room for accents above, descenders below.
    const baseline = place.y + index * height + style.size * 0.95;
    doc.fillColor(style.color);
    for (const run of splitRuns(line)) {
      doc.font(fontName(run.face, style.weight)).fontSize(style.size);
      doc.text(run.text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
      x += doc.widthOfString(run.text);
    }
  });
  return lines.length * height;
}

/** Wraps and draws a text in a box at most maxLines high; returns the height it took. */
export function drawText(
  doc: PDFKit.PDFDocument,
  text: string,
  style: TextStyle,
  place: LinePlacement & { width: number; maxLines?: number },
): number {
  return drawLines(doc, wrapText(doc, text, place.width, style, place.maxLines), style, place);
}
