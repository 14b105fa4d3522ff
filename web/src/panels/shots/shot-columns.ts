import type { ShotFieldName } from '../../ui/shot-fields.js';

/**
 * The shot list's columns beside the number and the order buttons (always shown), and which of them a person shows
 * (the Columns menu), kept per browser and per place: the canvas's shot list shows every column until its person
 * hides some; the board page's List view starts with those that fit a 1,280 px screen without scrolling sideways.
 */

export type ShotColumn = ShotFieldName | 'review' | 'picture' | 'move' | 'elements';

/** In the table's order, with their headers. */
export const SHOT_COLUMNS: ReadonlyArray<{ id: ShotColumn; header: string }> = [
  { id: 'review', header: 'Review' },
  { id: 'picture', header: 'Picture' },
  { id: 'scene', header: 'Scene' },
  { id: 'shotSize', header: 'Size' },
  { id: 'angle', header: 'Angle' },
  { id: 'movement', header: 'Movement' },
  { id: 'lensMm', header: 'Lens (mm)' },
  { id: 'move', header: 'Camera move' },
  { id: 'durationMs', header: 'Duration (s)' },
  { id: 'caption', header: 'Description' },
  { id: 'action', header: 'Action' },
  { id: 'dialogue', header: 'Dialogue' },
  { id: 'cast', header: 'Cast' },
  { id: 'location', header: 'Location' },
  { id: 'look', header: 'Look' },
  { id: 'elements', header: 'Elements' },
  { id: 'status', header: 'Status' },
  { id: 'notes', header: 'Notes' },
];

export type ColumnPlace = 'panel' | 'page';

const DEFAULTS: Record<ColumnPlace, readonly ShotColumn[]> = {
  panel: SHOT_COLUMNS.map((column) => column.id),
  page: ['review', 'picture', 'shotSize', 'durationMs', 'caption', 'action', 'dialogue', 'status'],
};

const key = (place: ColumnPlace) => `canvas-mcp.shot-columns.${place}`;

/** The columns a place shows: what this browser kept for it (read defensively), else its default. */
export function shownColumns(place: ColumnPlace, stored: string | null): ShotColumn[] {
  try {
    const value = JSON.parse(stored ?? 'null') as unknown;
    if (!Array.isArray(value)) return [...DEFAULTS[place]];
    return SHOT_COLUMNS.map((column) => column.id).filter((id) => value.includes(id));
  } catch {
    return [...DEFAULTS[place]];
  }
}

export function readColumns(place: ColumnPlace): ShotColumn[] {
  try {
    return shownColumns(place, localStorage.getItem(key(place)));
  } catch {
    return [...DEFAULTS[place]];
  }
}

export function keepColumns(place: ColumnPlace, columns: readonly ShotColumn[]): void {
  try {
    localStorage.setItem(key(place), JSON.stringify(columns));
  } catch {
    // A browser that keeps nothing: the choice lasts this page.
  }
}
