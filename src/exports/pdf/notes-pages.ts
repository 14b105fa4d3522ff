import type { ThreadView } from '../../contract/review.js';
import { anchorTimeText } from '../../shared/anchor-time.js';
import type { ExportBoard, ExportShot } from '../export-board.js';
import { plainText } from '../review-notes.js';
import type { Box } from './page-frame.js';
import { drawFittedPicture } from './pictures.js';
import { drawLines, lineHeight, wrapText, type TextStyle } from './text.js';

/**
 * The PDF storyboard's notes pages (`notes_pages`; docs/deliverables.md, "Markers and notes pages"): a page for the
 * board's own open threads, then one for each shot with open threads, headed by the shot's number and a small
 * picture; each thread says where it points (a frame or a range of the animatic, else the shot) and gives its
 * comments with writer, date and words. Everything is laid out as lines before anything is drawn: the footer knows
 * the page count, and a page that fills continues on the next ("continued") rather than running off the paper.
 */

const TITLE: TextStyle = { size: 16, weight: 'bold', color: '#111111' };
const SUBTITLE: TextStyle = { size: 9, weight: 'regular', color: '#555555' };
const WHERE: TextStyle = { size: 9, weight: 'bold', color: '#8a1c1c' };
const WRITER: TextStyle = { size: 8.5, weight: 'bold', color: '#555555' };
const WORDS: TextStyle = { size: 9.5, weight: 'regular', color: '#1c1c1c' };
const INDENT = 10;
const HEADER_GAP = 12;
/** The header's picture: at most this share of the content's width, and this high. */
const PICTURE_WIDTH_SHARE = 0.28;
const PICTURE_MAX_HEIGHT = 110;

interface Line {
  text: string;
  style: TextStyle;
  indent: number;
  /** Room above the line, left out at the top of a page. */
  gap: number;
}

export interface NotesPage {
  /** The shot the page is about; null for the board's own notes. */
  shot: ExportShot | null;
  continued: boolean;
  lines: Line[];
}

/** "2024-05-01 14:03 UTC": when a comment was written, the same in every time zone the file is opened in. */
const written = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function threadLines(doc: PDFKit.PDFDocument, thread: ThreadView, width: number, onShot: boolean): Line[] {
  const time = thread.anchor ? anchorTimeText(thread.anchor) : null;
  const where = [
    time ? `At ${time} of the animatic` : onShot ? 'On the shot' : 'On the board',
    ...(thread.audience === 'client' ? ['shared with the client'] : []),
  ].join(' · ');
  const lines: Line[] = wrapText(doc, where, width, WHERE).map((text, index) => ({
    text,
    style: WHERE,
    indent: 0,
    gap: index === 0 ? 12 : 0,
  }));
  for (const comment of thread.comments) {
    const writer = `${comment.author.name} · ${written(comment.created_at)}`;
    for (const [index, text] of wrapText(doc, writer, width - INDENT, WRITER).entries())
      lines.push({ text, style: WRITER, indent: INDENT, gap: index === 0 ? 5 : 0 });
    for (const text of wrapText(doc, plainText(comment.body), width - INDENT, WORDS))
      lines.push({ text, style: WORDS, indent: INDENT, gap: 0 });
  }
  return lines;
}

/** The header's height: the title, and on a shot's first page its picture (the board's frame shape) and caption. */
function headerHeight(content: Box, aspect: number, page: Pick<NotesPage, 'shot' | 'continued'>): number {
  const title = lineHeight(TITLE) + (page.shot?.caption && !page.continued ? lineHeight(SUBTITLE) : 0);
  if (!page.shot?.picture || page.continued) return title + HEADER_GAP;
  const picture = pictureBox(content, aspect);
  return Math.max(title, picture.height) + HEADER_GAP;
}

function pictureBox(content: Box, aspect: number): Box {
  const width = Math.min(content.width * PICTURE_WIDTH_SHARE, PICTURE_MAX_HEIGHT * aspect);
  return { x: content.x, y: content.y, width, height: width / aspect };
}

/**
 * The notes pages of a board, laid out: the board's threads (not on a shot) first, then each shot's in board order.
 * Threads on a shot no longer on the board have no page.
 */
export function layoutNotesPages(
  doc: PDFKit.PDFDocument,
  board: Pick<ExportBoard, 'shots' | 'notes'>,
  content: Box,
  aspect: number,
): NotesPage[] {
  const notes = board.notes ?? [];
  const sections: Array<{ shot: ExportShot | null; threads: ThreadView[] }> = [
    { shot: null, threads: notes.filter((thread) => thread.shot_id === null) },
    ...board.shots.map((shot) => ({ shot, threads: notes.filter((thread) => thread.shot_id === shot.id) })),
  ];
  const pages: NotesPage[] = [];
  for (const { shot, threads } of sections) {
    if (threads.length === 0) continue;
    const lines = threads.flatMap((thread) => threadLines(doc, thread, content.width, shot !== null));
    let page: NotesPage = { shot, continued: false, lines: [] };
    let room = content.height - headerHeight(content, aspect, page);
    for (const line of lines) {
      const needed = (page.lines.length === 0 ? 0 : line.gap) + lineHeight(line.style);
      if (needed > room && page.lines.length > 0) {
        pages.push(page);
        page = { shot, continued: true, lines: [] };
        room = content.height - headerHeight(content, aspect, page);
      }
      room -= (page.lines.length === 0 ? 0 : line.gap) + lineHeight(line.style);
      page.lines.push(line);
    }
    pages.push(page);
  }
  return pages;
}

/** Draws one notes page's header and lines inside the content box (the page's frame is drawn by the caller). */
export async function drawNotesPage(
  doc: PDFKit.PDFDocument,
  page: NotesPage,
  content: Box,
  aspect: number,
): Promise<void> {
  let textLeft = content.x;
  if (page.shot?.picture && !page.continued) {
    const box = pictureBox(content, aspect);
    if (await drawFittedPicture(doc, page.shot.picture, box)) textLeft += box.width + HEADER_GAP;
  }
  const titleWidth = content.x + content.width - textLeft;
  const title = `${page.shot ? `Shot ${page.shot.number}` : 'The board'} — notes${page.continued ? ' (continued)' : ''}`;
  drawLines(doc, wrapText(doc, title, titleWidth, TITLE, 1), TITLE, { x: textLeft, y: content.y });
  const caption = page.shot?.caption ?? null;
  // Beside a picture the caption has the picture's height; without one, the line headerHeight leaves it.
  const captionLines = page.shot?.picture ? 3 : 1;
  if (caption && !page.continued)
    drawLines(doc, wrapText(doc, caption, titleWidth, SUBTITLE, captionLines), SUBTITLE, {
      x: textLeft,
      y: content.y + lineHeight(TITLE),
    });
  let y = content.y + headerHeight(content, aspect, page);
  for (const [index, line] of page.lines.entries()) {
    if (index > 0) y += line.gap;
    drawLines(doc, [line.text], line.style, { x: content.x + line.indent, y });
    y += lineHeight(line.style);
  }
}
