import type { PdfBoardOptions, SheetField } from '../../contract/exports.js';
import type { GuideName } from '../../contract/shots.js';
import type { ExportBoard, ExportFile, ExportProgress, ExportShot } from '../export-board.js';
import { FIELD_LABELS, fieldText, sheetFields } from './fields.js';
import { drawCameraMove } from './camera-move-marks.js';
import { drawFloorPlan } from './floor-plan.js';
import { drawGuides } from './guides.js';
import { drawNotesPage, layoutNotesPages } from './notes-pages.js';
import { drawFrame, openLogo, openSheet, type Box, type Sheet } from './page-frame.js';
import { pictureForBox } from './pictures.js';
import { drawLines, lineHeight, textWidth, wrapText, type TextStyle } from './text.js';

/**
 * The storyboard as a PDF (docs/deliverables.md, "PDF storyboard"): pages of `columns × rows` panels, each with the
 * shot's number, its picture fitted in the board's frame (letterboxed, never stretched) and the chosen fields under or
 * beside it, cut with an ellipsis when they do not fit. Pictures are read one at a time (pictures.ts), so a board of
 * 200 camera photos stays small in memory and in the file. The framing guides asked for (`guides`) are drawn over each
 * frame as vector paths (guides.ts). With `notes_pages`, the board's open review notes follow the shots
 * (notes-pages.ts).
 */

const GUTTER = 12;
/** Room between two fields that share a line (a dense panel). */
const FIELD_GAP = 6;
/** At most this many fields share a line: past two, a cell leaves no room for a value after its label. */
const FIELDS_A_LINE = 2;
const FRAME_FILL = '#f1f1f1';
const FRAME_STROKE = '#9a9a9a';

interface PanelLayout {
  number: TextStyle;
  /** The picture's frame, relative to the panel's top left. */
  picture: Box;
  /** The fields' box, relative to the panel's top left; null when no field is printed. */
  text: Box | null;
  label: TextStyle;
  value: TextStyle;
  labelWidth: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Where things go in a panel. The picture keeps the board's aspect and takes at most about 60% of the height when
 * fields print under it; when that leaves a wide empty band beside it (one or two shots a page in landscape), the
 * fields go beside the picture instead. A dense panel (4 × 4 with every field), where that would leave fewer lines than
 * fields, gives the picture the column's width, or as much of it as leaves a line for every two fields (drawFields then
 * puts them two a line): neither a small picture in a wide column nor a field left out.
 */
function panelLayout(doc: PDFKit.PDFDocument, panel: Box, aspect: number, fields: readonly SheetField[]): PanelLayout {
  const number: TextStyle = { size: clamp(panel.width / 16, 10, 20), weight: 'bold', color: '#111111' };
  const value: TextStyle = { size: clamp(panel.width / 30, 7, 10), weight: 'regular', color: '#1c1c1c' };
  const label: TextStyle = { size: value.size * 0.82, weight: 'bold', color: '#7a7a7a' };
  const labelWidth =
    fields.length === 0 ? 0 : Math.max(...fields.map((field) => textWidth(doc, FIELD_LABELS[field], label))) + 5;
  const top = lineHeight(number) + 3;
  const available = panel.height - top;
  // With fields, the picture takes at most 62% of the height, and gives some back (down to 45%) so that each field
  // has a line and one is spare: a dense grid (4 × 4 landscape) still prints them all.
  const fieldsHeight = lineHeight(value) * (fields.length + 1) + 6;
  let pictureHeight =
    fields.length > 0
      ? Math.min(panel.width / aspect, available * 0.62, Math.max(available * 0.45, available - fieldsHeight))
      : Math.min(panel.width / aspect, available);
  const lines = (height: number) => Math.floor((available - height - 6) / lineHeight(value) + 1e-6);
  if (fields.length > 0 && lines(pictureHeight) < fields.length) {
    const packed = lineHeight(value) * Math.ceil(fields.length / FIELDS_A_LINE) + 6;
    pictureHeight = Math.max(pictureHeight, Math.min(panel.width / aspect, available - packed));
  }
  let pictureWidth = pictureHeight * aspect;
  const sideWidth = panel.width * (1 - 0.62) - GUTTER;
  const beside = fields.length > 0 && pictureWidth < panel.width * 0.7 && sideWidth >= 150;
  if (beside) {
    pictureWidth = Math.min(panel.width * 0.62, available * aspect);
    pictureHeight = pictureWidth / aspect;
  }
  const textX = pictureWidth + GUTTER;
  const textY = top + pictureHeight + 6;
  return {
    number,
    label,
    value,
    labelWidth,
    picture: { x: 0, y: top, width: pictureWidth, height: pictureHeight },
    text: beside
      ? { x: textX, y: top, width: panel.width - textX, height: available }
      : fields.length > 0
        ? { x: 0, y: textY, width: panel.width, height: panel.height - textY }
        : null,
  };
}

/** The picture in its frame, or the placeholder; returns a warning when the shot's picture is missing or unreadable. */
async function drawPicture(
  doc: PDFKit.PDFDocument,
  shot: ExportShot,
  frame: Box,
  guides: readonly GuideName[],
): Promise<string | null> {
  const picture = shot.picture ? await pictureForBox(shot.picture, frame.width, frame.height) : null;
  doc.rect(frame.x, frame.y, frame.width, frame.height).fill(FRAME_FILL);
  let warning: string | null = null;
  if (picture) {
    doc.image(picture.bytes, frame.x, frame.y, { fit: [frame.width, frame.height], align: 'center', valign: 'center' });
  } else {
    warning = shot.picture ? `Shot ${shot.number}'s picture could not be read` : `Shot ${shot.number} has no picture`;
    const style: TextStyle = { size: clamp(frame.width / 18, 7, 14), weight: 'regular', color: '#8a8a8a' };
    const text = shot.picture ? 'Picture unreadable' : 'No picture';
    drawLines(doc, [text], style, {
      x: frame.x,
      y: frame.y + (frame.height - lineHeight(style)) / 2,
      width: frame.width,
      align: 'center',
    });
  }
  drawGuides(doc, guides, frame);
  if (shot.move) drawCameraMove(doc, shot.move, frame);
  doc.rect(frame.x, frame.y, frame.width, frame.height).lineWidth(0.6).strokeColor(FRAME_STROKE).stroke();
  return warning;
}

/**
 * The fields in their box. Each field with text gets at least one line; the lines left over go to the fields in order,
 * so a long action can use the room a short dialogue leaves, and the last line of a cut field ends in an ellipsis.
 * When there are fewer lines than fields (a dense panel), they share lines instead (packedFields): never one left out.
 */
function drawFields(
  doc: PDFKit.PDFDocument,
  shot: ExportShot,
  fields: readonly SheetField[],
  box: Box,
  layout: PanelLayout,
): void {
  const texts = fields.flatMap((field) => {
    const text = fieldText(shot, field);
    return text === null ? [] : [{ field, text }];
  });
  const height = lineHeight(layout.value);
  // The small allowance keeps a box of exactly n lines at n despite the float sums that made it.
  let linesLeft = Math.floor(box.height / height + 1e-6);
  if (texts.length > linesLeft) return packedFields(doc, texts, box, layout, Math.max(1, linesLeft));
  let y = box.y;
  texts.forEach(({ field, text }, index) => {
    // One line kept for each field after this one (there are enough: fewer lines than fields took packedFields).
    const reserved = Math.min(texts.length - index - 1, linesLeft - 1);
    const maxLines = linesLeft - Math.max(0, reserved);
    if (maxLines <= 0) return;
    const lines = wrapText(doc, text, box.width - layout.labelWidth, layout.value, maxLines);
    const labelTop = y + (layout.value.size - layout.label.size) * 0.95;
    drawLines(doc, [FIELD_LABELS[field]], layout.label, { x: box.x, y: labelTop });
    drawLines(doc, lines, layout.value, { x: box.x + layout.labelWidth, y });
    y += lines.length * height;
    linesLeft -= lines.length;
  });
}

/**
 * Fields sharing lines, in the sheet's order left to right then down: each in its cell with its own label and one
 * line of its value, cut with an ellipsis. On the rare panel with fewer lines than even that needs, the last cell
 * names the fields left out ("+ Notes") rather than dropping them without a mark.
 */
function packedFields(
  doc: PDFKit.PDFDocument,
  texts: ReadonlyArray<{ field: SheetField; text: string }>,
  box: Box,
  layout: PanelLayout,
  lines: number,
): void {
  const perLine = Math.min(FIELDS_A_LINE, Math.ceil(texts.length / lines));
  const cellWidth = (box.width - FIELD_GAP * (perLine - 1)) / perLine;
  const cells = perLine * lines;
  const shown = texts.length > cells ? texts.slice(0, cells - 1) : texts;
  const height = lineHeight(layout.value);
  const cellAt = (index: number) => ({
    x: box.x + (index % perLine) * (cellWidth + FIELD_GAP),
    y: box.y + Math.floor(index / perLine) * height,
  });
  shown.forEach(({ field, text }, index) => {
    const { x, y } = cellAt(index);
    const label = FIELD_LABELS[field];
    const labelWidth = textWidth(doc, label, layout.label) + 4;
    const labelTop = y + (layout.value.size - layout.label.size) * 0.95;
    drawLines(doc, [label], layout.label, { x, y: labelTop });
    const lines = wrapText(doc, text, Math.max(1, cellWidth - labelWidth), layout.value, 1);
    drawLines(doc, lines, layout.value, { x: x + labelWidth, y });
  });
  if (shown.length < texts.length) {
    const rest = texts.slice(shown.length).map(({ field }) => FIELD_LABELS[field]);
    const { x, y } = cellAt(shown.length);
    drawLines(doc, wrapText(doc, `+ ${rest.join(', ')}`, cellWidth, layout.label, 1), layout.label, { x, y });
  }
}

async function drawPanel(
  sheet: Sheet,
  shot: ExportShot,
  panel: Box,
  layout: PanelLayout,
  fields: readonly SheetField[],
  guides: readonly GuideName[],
): Promise<string | null> {
  const { doc } = sheet;
  drawLines(doc, [shot.number], layout.number, { x: panel.x, y: panel.y });
  const at = (box: Box): Box => ({ ...box, x: panel.x + box.x, y: panel.y + box.y });
  const warning = await drawPicture(doc, shot, at(layout.picture), guides);
  if (layout.text) drawFields(doc, shot, fields, at(layout.text), layout);
  return warning;
}

export async function pdfBoard(
  board: ExportBoard,
  options: PdfBoardOptions,
  logo: string | null,
  progress: ExportProgress,
): Promise<ExportFile & { warnings: string[] }> {
  const warnings: string[] = [];
  const sheet = openSheet(board, options, 'Storyboard');
  const frameLogo = await openLogo(sheet, logo, warnings);
  const { doc, content } = sheet;
  const fields = sheetFields(options.fields);
  const aspect = board.aspect > 0 && Number.isFinite(board.aspect) ? board.aspect : 16 / 9;
  const perPage = options.columns * options.rows;
  const shotPages = Math.max(1, Math.ceil(board.shots.length / perPage));
  // After the shots: their open review notes when asked for, then the floor plans filming them, a page each.
  const notesPages = options.notes_pages ? layoutNotesPages(doc, board, content, aspect) : [];
  const plans = board.plans ?? [];
  const pages = shotPages + notesPages.length + plans.length;
  const panelWidth = (content.width - GUTTER * (options.columns - 1)) / options.columns;
  const panelHeight = (content.height - GUTTER * (options.rows - 1)) / options.rows;
  const layout = panelLayout(doc, { x: 0, y: 0, width: panelWidth, height: panelHeight }, aspect, fields);

  for (let page = 0; page < shotPages; page++) {
    doc.addPage();
    drawFrame(sheet, board, { kind: 'Storyboard', logo: frameLogo, page: page + 1, pages });
    const shots = board.shots.slice(page * perPage, (page + 1) * perPage);
    if (board.shots.length === 0)
      drawLines(doc, ['This board has no shots.'], { size: 11, weight: 'regular', color: '#666666' }, content);
    for (const [index, shot] of shots.entries()) {
      const column = index % options.columns;
      const row = Math.floor(index / options.columns);
      const panel: Box = {
        x: content.x + column * (panelWidth + GUTTER),
        y: content.y + row * (panelHeight + GUTTER),
        width: panelWidth,
        height: panelHeight,
      };
      const warning = await drawPanel(sheet, shot, panel, layout, fields, options.guides);
      if (warning) warnings.push(warning);
    }
    progress(Math.round(((page + 1) / pages) * 95), `Page ${page + 1} of ${pages}`);
  }
  for (const [index, notesPage] of notesPages.entries()) {
    doc.addPage();
    const page = shotPages + index + 1;
    drawFrame(sheet, board, { kind: 'Storyboard', logo: frameLogo, page, pages });
    await drawNotesPage(doc, notesPage, content, aspect);
    progress(Math.round((page / pages) * 95), `Page ${page} of ${pages}`);
  }
  for (const [index, plan] of plans.entries()) {
    doc.addPage();
    const page = shotPages + notesPages.length + index + 1;
    drawFrame(sheet, board, { kind: 'Storyboard', logo: frameLogo, page, pages });
    drawFloorPlan(doc, plan, content);
    progress(Math.round((page / pages) * 95), `Page ${page} of ${pages}`);
  }
  const bytes = await sheet.finish();
  progress(100, `${pages} ${pages === 1 ? 'page' : 'pages'}`);
  return { bytes, contentType: 'application/pdf', extension: 'pdf', warnings };
}
