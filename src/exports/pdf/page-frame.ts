import PDFDocument from 'pdfkit';
import { PAPER_SIZES, type PdfSheetOptions } from '../../contract/exports.js';
import type { ExportBoard } from '../export-board.js';
import { registerFonts } from './fonts.js';
import { logoForBox, type PreparedPicture } from './pictures.js';
import { drawLines, ellipsize, textWidth, type TextStyle } from './text.js';

/**
 * The page frame both PDF sheets share (the storyboard and the shot list): the paper, a header on every page (logo,
 * project, board and canvas, date and revision) and a footer ("Page 3 of 12"), and the document's bytes. Output is
 * deterministic: the same board and options give the same bytes (see openSheet).
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Sheet {
  doc: PDFKit.PDFDocument;
  /** The page's size in points. */
  width: number;
  height: number;
  /** Where a page's content goes, between the header and the footer. */
  content: Box;
  /** Ends the document and gives its bytes. */
  finish(): Promise<Buffer>;
}

const MARGIN = 28; // about 10 mm: inside every printer's unprintable edge
const HEADER_HEIGHT = 34;
const HEADER_GAP = 10;
const FOOTER_HEIGHT = 12;
const FOOTER_GAP = 8;
const RULE_COLOR = '#b8b8b8';

const TITLE: TextStyle = { size: 12, weight: 'bold', color: '#111111' };
const SUBTITLE: TextStyle = { size: 8.5, weight: 'regular', color: '#555555' };
const FOOTER: TextStyle = { size: 7.5, weight: 'regular', color: '#666666' };

/** The paper's size in points, landscape or portrait. */
export function paperSize(options: Pick<PdfSheetOptions, 'paper' | 'orientation'>): { width: number; height: number } {
  const { width, height } = PAPER_SIZES[options.paper];
  return options.orientation === 'landscape' ? { width: height, height: width } : { width, height };
}

/** The header's date as a PDF date: the board's day at midnight UTC, the epoch when it is not a valid YYYY-MM-DD. */
function documentDate(date: string): Date {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : new Date(Number.NaN);
  return Number.isNaN(parsed.getTime()) ? new Date(0) : parsed;
}

/**
 * A new PDF of the board's paper, its fonts registered, its bytes collected as pdfkit writes them.
 *
 * Determinism: pdfkit stamps `CreationDate` with the current time unless `info` gives one, and derives the file ID
 * (the trailer's /ID) from an MD5 of `info`; with both dates taken from the board, the ID is the same on every run.
 * Font subset tags come from the font's order of use, images are labelled in order, and the pictures are encoded by
 * sharp from the same files the same way: the same input gives the same bytes.
 */
export function openSheet(
  board: ExportBoard,
  options: Pick<PdfSheetOptions, 'paper' | 'orientation'>,
  kind: string,
): Sheet {
  const { width, height } = paperSize(options);
  const date = documentDate(board.date);
  const doc = new PDFDocument({
    size: [width, height],
    margin: 0,
    autoFirstPage: false,
    compress: true,
    displayTitle: true,
    info: {
      Title: `${board.boardTitle} — ${kind}`,
      Subject: `${board.projectName} · ${board.canvasTitle} · revision ${board.revision}`,
      Creator: 'canvas-mcp',
      Producer: 'canvas-mcp (PDFKit)',
      CreationDate: date,
      ModDate: date,
    },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const top = MARGIN + HEADER_HEIGHT + HEADER_GAP;
  const bottom = height - MARGIN - FOOTER_HEIGHT - FOOTER_GAP;
  return {
    doc,
    width,
    height,
    content: { x: MARGIN, y: top, width: width - 2 * MARGIN, height: bottom - top },
    finish: () => {
      doc.end();
      return bytes;
    },
  };
}

/**
 * pdfkit's `openImage`, present at runtime but missing from @types/pdfkit: an image opened once is embedded once and
 * can be drawn on every page (the logo would otherwise be stored again for each page).
 */
interface OpenedImage {
  readonly width: number;
  readonly height: number;
}
type ImageOpener = { openImage(src: Buffer): OpenedImage };
type OpenedImageDrawer = (src: OpenedImage, x: number, y: number, options: PDFKit.Mixins.ImageOption) => unknown;

export interface Logo {
  image: OpenedImage;
  /** The width it prints at, in points. */
  width: number;
}

const LOGO_MAX_WIDTH = HEADER_HEIGHT * 4;

/** The logo file ready for the header, or null (and a warning) when it cannot be read. */
export async function openLogo(sheet: Sheet, file: string | null, warnings: string[]): Promise<Logo | null> {
  if (!file) return null;
  const picture: PreparedPicture | null = await logoForBox(file, LOGO_MAX_WIDTH, HEADER_HEIGHT);
  if (!picture) {
    warnings.push('The logo could not be read as a picture; the pages have none.');
    return null;
  }
  const image = (sheet.doc as unknown as ImageOpener).openImage(picture.bytes);
  const scale = Math.min(LOGO_MAX_WIDTH / picture.width, HEADER_HEIGHT / picture.height);
  return { image, width: picture.width * scale };
}

/** Draws the header and the footer of the current page. */
export function drawFrame(
  sheet: Sheet,
  board: ExportBoard,
  frame: { kind: string; logo: Logo | null; page: number; pages: number },
): void {
  const { doc, width, height } = sheet;
  const left = MARGIN;
  const right = width - MARGIN;
  let textLeft = left;
  if (frame.logo) {
    const draw = doc.image.bind(doc) as unknown as OpenedImageDrawer;
    draw(frame.logo.image, left, MARGIN, { fit: [frame.logo.width, HEADER_HEIGHT], valign: 'center' });
    textLeft += frame.logo.width + 10;
  }

  // Right: the date and the revision, right-aligned; left: the project, then the board and the canvas.
  const dateLines = [board.date, `Revision ${board.revision}`];
  const rightWidth = Math.max(...dateLines.map((line) => textWidth(doc, line, SUBTITLE)));
  const rightTop = MARGIN + (HEADER_HEIGHT - 2 * SUBTITLE.size * 1.25) / 2;
  drawLines(doc, dateLines, SUBTITLE, { x: right - rightWidth, y: rightTop, width: rightWidth, align: 'right' });
  const titleWidth = Math.max(0, right - rightWidth - 16 - textLeft);
  const fitted = (text: string, style: TextStyle) =>
    textWidth(doc, text, style) <= titleWidth ? text : ellipsize(doc, text, titleWidth, style);
  const titleTop = MARGIN + (HEADER_HEIGHT - (TITLE.size + SUBTITLE.size) * 1.25) / 2;
  drawLines(doc, [fitted(board.projectName, TITLE)], TITLE, { x: textLeft, y: titleTop });
  drawLines(doc, [fitted(`${board.boardTitle} — ${board.canvasTitle}`, SUBTITLE)], SUBTITLE, {
    x: textLeft,
    y: titleTop + TITLE.size * 1.25,
  });
  const ruleY = MARGIN + HEADER_HEIGHT + HEADER_GAP / 2;
  doc.moveTo(left, ruleY).lineTo(right, ruleY).lineWidth(0.5).strokeColor(RULE_COLOR).stroke();

  const footerTop = height - MARGIN - FOOTER_HEIGHT;
  drawLines(doc, [frame.kind], FOOTER, { x: left, y: footerTop });
  drawLines(doc, [`Page ${frame.page} of ${frame.pages}`], FOOTER, {
    x: left,
    y: footerTop,
    width: right - left,
    align: 'right',
  });
}
