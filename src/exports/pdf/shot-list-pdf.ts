import type { PdfSheetOptions } from '../../contract/exports.js';
import type { ExportBoard, ExportFile, ExportProgress, ExportShot } from '../export-board.js';
import { fieldText, lens, seconds } from './fields.js';
import { drawFrame, openLogo, openSheet, type Box } from './page-frame.js';
import { drawFittedPicture } from './pictures.js';
import { drawLines, lineHeight, wrapText, type TextStyle } from './text.js';

/**
 * The shot list as a printable PDF (docs/deliverables.md, "Shot lists"): the first AD's columns of the CSV/XLSX list
 * (shot-list.ts) cut to what reads on paper, with a small picture of each shot. The table is laid out before anything
 * is drawn, so each row's height is known: rows never split across pages, the header row repeats on every page, and the
 * footer knows the page count.
 */

const PADDING = 4;
const HEADER_FILL = '#e9e9e9';
const RULE_COLOR = '#d0d0d0';
const HEAD: TextStyle = { size: 8, weight: 'bold', color: '#222222' };
const BODY: TextStyle = { size: 8, weight: 'regular', color: '#1c1c1c' };
const NUMBER: TextStyle = { size: 9, weight: 'bold', color: '#111111' };

interface Column {
  header: string;
  /** Points when fixed; a share of what the fixed columns leave when `flex`. */
  width: number;
  flex?: true;
  thumbnail?: true;
  text?: (shot: ExportShot) => string | null;
  style?: TextStyle;
}

function columns(contentWidth: number): Array<Column & { x: number; width: number }> {
  const declared: Column[] = [
    { header: 'Shot', width: 40, text: (shot) => shot.number, style: NUMBER },
    { header: 'Picture', width: Math.min(84, contentWidth * 0.13), thumbnail: true },
    { header: 'Camera', width: contentWidth * 0.15, text: (shot) => shot.camera },
    { header: 'Lens', width: 40, text: (shot) => lens(shot.lensMm) },
    { header: 'Duration', width: 48, text: (shot) => seconds(shot.durationMs) },
    { header: 'Action', width: 0.36, flex: true, text: (shot) => fieldText(shot, 'action') },
    { header: 'Dialogue', width: 0.36, flex: true, text: (shot) => fieldText(shot, 'dialogue') },
    { header: 'Notes', width: 0.28, flex: true, text: (shot) => fieldText(shot, 'notes') },
  ];
  const fixed = declared.filter((column) => !column.flex).reduce((sum, column) => sum + column.width, 0);
  const flexible = Math.max(0, contentWidth - fixed);
  let x = 0;
  return declared.map((column) => {
    const width = column.flex ? column.width * flexible : column.width;
    const placed = { ...column, x, width };
    x += width;
    return placed;
  });
}

interface Row {
  shot: ExportShot;
  /** Each column's lines, in column order (empty for the thumbnail). */
  cells: string[][];
  height: number;
}

export async function shotListPdf(
  board: ExportBoard,
  options: PdfSheetOptions,
  progress: ExportProgress,
  /** The header's logo, as on the storyboard (a local file), or none. */
  logo: string | null = null,
): Promise<ExportFile> {
  const sheet = openSheet(board, options, 'Shot list');
  const frameLogo = await openLogo(sheet, logo, []);
  const { doc, content } = sheet;
  const table = columns(content.width);
  const aspect = board.aspect > 0 && Number.isFinite(board.aspect) ? board.aspect : 16 / 9;
  const thumbnailColumn = table.find((column) => column.thumbnail);
  const thumbnail = thumbnailColumn
    ? { width: thumbnailColumn.width - 2 * PADDING, height: (thumbnailColumn.width - 2 * PADDING) / aspect }
    : { width: 0, height: 0 };
  const headerHeight = lineHeight(HEAD) + 2 * PADDING;
  const bodyHeight = content.height - headerHeight;
  // A cell is cut (with an ellipsis) at half a page, so any row fits on a page and none ever splits.
  const maxLines = Math.max(1, Math.floor((bodyHeight / 2 - 2 * PADDING) / lineHeight(BODY)));

  const rows: Row[] = board.shots.map((shot) => {
    const cells = table.map((column) => {
      const text = column.text?.(shot);
      return text ? wrapText(doc, text, column.width - 2 * PADDING, column.style ?? BODY, maxLines) : [];
    });
    const textHeight = Math.max(
      0,
      ...cells.map((lines, index) => lines.length * lineHeight(table[index]?.style ?? BODY)),
    );
    return { shot, cells, height: Math.max(textHeight, thumbnail.height) + 2 * PADDING };
  });

  // Pages: as many rows as fit under the header row, a row that does not fit starting the next page.
  const pages: Row[][] = [[]];
  let used = 0;
  for (const row of rows) {
    const current = pages.at(-1) ?? [];
    if (used + row.height > bodyHeight && current.length > 0) {
      pages.push([row]);
      used = row.height;
    } else {
      current.push(row);
      used += row.height;
    }
  }

  for (const [index, pageRows] of pages.entries()) {
    doc.addPage();
    drawFrame(sheet, board, { kind: 'Shot list', logo: frameLogo, page: index + 1, pages: pages.length });
    drawHeaderRow(doc, table, content, headerHeight);
    let y = content.y + headerHeight;
    for (const row of pageRows) {
      for (const [columnIndex, column] of table.entries()) {
        const cell: Box = { x: content.x + column.x, y, width: column.width, height: row.height };
        if (column.thumbnail) await drawThumbnail(doc, row.shot, cell, thumbnail);
        else
          drawLines(doc, row.cells[columnIndex] ?? [], column.style ?? BODY, {
            x: cell.x + PADDING,
            y: cell.y + PADDING,
          });
      }
      y += row.height;
      doc
        .moveTo(content.x, y)
        .lineTo(content.x + content.width, y)
        .lineWidth(0.4)
        .strokeColor(RULE_COLOR)
        .stroke();
    }
    progress(Math.round(((index + 1) / pages.length) * 95), `Page ${index + 1} of ${pages.length}`);
  }
  const bytes = await sheet.finish();
  progress(100, `${pages.length} ${pages.length === 1 ? 'page' : 'pages'}`);
  return { bytes, contentType: 'application/pdf', extension: 'pdf' };
}

function drawHeaderRow(
  doc: PDFKit.PDFDocument,
  table: ReadonlyArray<Column & { x: number; width: number }>,
  content: Box,
  height: number,
): void {
  doc.rect(content.x, content.y, content.width, height).fill(HEADER_FILL);
  for (const column of table)
    drawLines(doc, wrapText(doc, column.header, column.width - 2 * PADDING, HEAD, 1), HEAD, {
      x: content.x + column.x + PADDING,
      y: content.y + PADDING,
    });
}

/** The shot's picture, small, top left in its cell; the cell stays empty when the shot has none. */
async function drawThumbnail(
  doc: PDFKit.PDFDocument,
  shot: ExportShot,
  cell: Box,
  size: { width: number; height: number },
): Promise<void> {
  if (shot.picture) await drawFittedPicture(doc, shot.picture, { x: cell.x + PADDING, y: cell.y + PADDING, ...size });
}
