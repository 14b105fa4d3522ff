import type { z } from 'zod';
import type { StoryboardFrame } from '../contract/index.js';
import { shotDurationMs, shotNumberOf } from '../shared/shot-words.js';
import { spreadsheetText } from './spreadsheet-text.js';
import { SHOT_ANGLES, SHOT_MOVEMENTS, SHOT_SIZES, SHOT_STATUSES, type CanvasNode } from '../contract/index.js';

/**
 * A board's shot list as a file (docs/deliverables.md, "Shot lists"): one row per shot in the board's order, the
 * columns a first AD reads (StudioBinder's list), written by exceljs as XLSX (a header row kept in view, widths set) or
 * CSV (RFC 4180, UTF-8 with a byte-order mark so spreadsheet programs read accents and CJK right).
 */

export type ShotListFormat = 'csv' | 'xlsx';

type Frame = z.infer<typeof StoryboardFrame>;

/**
 * One shot of the list: its fields, with its number and length as the PDF, the animatic and the timelines give them
 * (src/exports/board-source.ts), so a shot timed by its dialogue or unnumbered reads alike in every deliverable.
 */
export interface ShotListRow {
  frame: Frame;
  number: string;
  durationMs: number;
}

/**
 * The rows of a board's shots, numbered and timed by the deliverables' rules (src/shared/shot-words.ts); `clipMs` gives
 * the length of a video shot's clip, which times a shot with no duration and no dialogue.
 */
export function shotListRows(
  frames: readonly Frame[],
  clipMs: (frame: Frame) => number | null = () => null,
): ShotListRow[] {
  return frames.map((frame, index) => ({
    frame,
    number: shotNumberOf(frame, index),
    durationMs: shotDurationMs(frame, clipMs(frame)),
  }));
}

const COLUMNS: Array<{ header: string; width: number; value: (row: ShotListRow) => string | number | null }> = [
  { header: 'Shot', width: 8, value: (row) => row.number },
  { header: 'Scene', width: 12, value: ({ frame }) => frame.scene ?? null },
  { header: 'Shot size', width: 18, value: ({ frame }) => (frame.shotSize ? SHOT_SIZES[frame.shotSize] : null) },
  { header: 'Angle', width: 16, value: ({ frame }) => (frame.angle ? SHOT_ANGLES[frame.angle] : null) },
  { header: 'Movement', width: 14, value: ({ frame }) => (frame.movement ? SHOT_MOVEMENTS[frame.movement] : null) },
  { header: 'Lens (mm)', width: 10, value: ({ frame }) => frame.lensMm ?? null },
  { header: 'Duration (s)', width: 12, value: (row) => row.durationMs / 1000 },
  { header: 'Description', width: 30, value: ({ frame }) => frame.caption ?? null },
  { header: 'Action', width: 40, value: ({ frame }) => frame.action ?? null },
  { header: 'Dialogue', width: 40, value: ({ frame }) => frame.dialogue ?? null },
  { header: 'Cast', width: 20, value: ({ frame }) => (frame.cast?.length ? frame.cast.join(', ') : null) },
  { header: 'Location', width: 20, value: ({ frame }) => frame.location ?? null },
  { header: 'Status', width: 12, value: ({ frame }) => (frame.status ? SHOT_STATUSES[frame.status] : null) },
  { header: 'Notes', width: 30, value: ({ frame }) => frame.notes ?? null },
];

export const SHOT_LIST_HEADERS = COLUMNS.map((column) => column.header);

/** The shots of a storyboard node, or null when the node is not a storyboard. */
export function shotsOf(node: CanvasNode): Frame[] | null {
  return node.type === 'storyboardNode' ? (node.data.frames as Frame[]) : null;
}

export async function shotListFile(
  title: string,
  shots: readonly ShotListRow[],
  format: ShotListFormat,
  /** The workbook's creation date (an export's: the same job gives the same file); now when absent. */
  date?: Date,
): Promise<{ bytes: Buffer; contentType: string; extension: string }> {
  // Loaded at the first spreadsheet, not with the server: exceljs and what it pulls in take about half a second.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'canvas-mcp';
  if (date) {
    workbook.created = date;
    workbook.modified = date;
  }
  const sheet = workbook.addWorksheet(sheetName(title), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((column) => ({ header: column.header, width: column.width }));
  sheet.getRow(1).font = { bold: true };
  for (const shot of shots)
    sheet.addRow(
      COLUMNS.map((column) => {
        const value = column.value(shot);
        // CSV carries no types: what people typed must never reach a spreadsheet as a formula.
        return format === 'csv' && typeof value === 'string' ? spreadsheetText(value) : value;
      }),
    );
  if (format === 'xlsx')
    return {
      bytes: Buffer.from(await workbook.xlsx.writeBuffer()),
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      extension: 'xlsx',
    };
  const csv = Buffer.from(await workbook.csv.writeBuffer({ formatterOptions: { writeBOM: true } }));
  return { bytes: csv, contentType: 'text/csv; charset=utf-8', extension: 'csv' };
}

/** A worksheet name Excel accepts: at most 31 characters, none of []:*?/\. */
function sheetName(title: string): string {
  return (
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .slice(0, 31)
      .trim() || 'Shots'
  );
}
