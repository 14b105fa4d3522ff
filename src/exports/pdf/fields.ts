import { SHEET_FIELDS, type SheetField } from '../../contract/exports.js';
import type { ExportShot } from '../export-board.js';

/**
 * A shot's fields as the PDF sheets print them (the storyboard's panels and the shot list's cells): short labels (the
 * contract's "Camera (size, angle, movement)" names the option; under a picture "Camera" is enough), lens and duration
 * with their units.
 */

export const FIELD_LABELS: Record<SheetField, string> = {
  caption: 'Description',
  action: 'Action',
  dialogue: 'Dialogue',
  camera: 'Camera',
  lens: 'Lens',
  duration: 'Duration',
  notes: 'Notes',
};

/** "3.5 s": seconds with at most two decimals, no trailing zeros. */
export function seconds(durationMs: number): string {
  return `${Number((durationMs / 1000).toFixed(2))} s`;
}

/** "50 mm", or null when no lens is set. */
export function lens(lensMm: number | null): string | null {
  return lensMm === null ? null : `${Number(lensMm.toFixed(1))} mm`;
}

/** A field's text for a shot; null when the shot has none (it is left out rather than printed empty). */
export function fieldText(shot: ExportShot, field: SheetField): string | null {
  const text = {
    caption: shot.caption,
    action: shot.action,
    dialogue: shot.dialogue,
    camera: shot.camera,
    lens: lens(shot.lensMm),
    duration: seconds(shot.durationMs),
    notes: shot.notes,
  }[field];
  return text?.trim() ? text.trim() : null;
}

/** The chosen fields in the sheet's order (SHEET_FIELDS), each once, whatever order the options list them in. */
export function sheetFields(chosen: readonly SheetField[]): SheetField[] {
  return (Object.keys(SHEET_FIELDS) as SheetField[]).filter((field) => chosen.includes(field));
}
