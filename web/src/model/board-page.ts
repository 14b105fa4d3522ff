import { create } from 'zustand';

/**
 * What a person chose for the board page in this browser (docs/ui.md, "The board page"): the fields shown under each
 * frame of the grid and the frames' width. A viewing choice, never part of the board: kept in localStorage, the same
 * on every board, read defensively (another version of the page, or a person, may have written it).
 */

export type BoardField = 'caption' | 'action' | 'dialogue' | 'camera' | 'durationMs';

/** The fields the grid offers, in the order it shows them. */
export const BOARD_FIELDS: ReadonlyArray<{ id: BoardField; label: string }> = [
  { id: 'caption', label: 'Description' },
  { id: 'action', label: 'Action' },
  { id: 'dialogue', label: 'Dialogue' },
  { id: 'camera', label: 'Camera' },
  { id: 'durationMs', label: 'Duration' },
];

export const FRAME_WIDTH = { min: 160, max: 520, step: 40, initial: 280 } as const;

interface BoardPageChoice {
  fields: BoardField[];
  frameWidth: number;
}

const KEY = 'canvas-mcp.board-page';
const DEFAULT: BoardPageChoice = {
  fields: ['caption', 'action', 'dialogue', 'durationMs'],
  frameWidth: FRAME_WIDTH.initial,
};

export function readBoardPageChoice(stored: string | null): BoardPageChoice {
  try {
    const value = JSON.parse(stored ?? 'null') as Partial<BoardPageChoice> | null;
    if (!value || typeof value !== 'object') return DEFAULT;
    const fields = Array.isArray(value.fields)
      ? BOARD_FIELDS.map((field) => field.id).filter((id) => (value.fields as unknown[]).includes(id))
      : DEFAULT.fields;
    const width = typeof value.frameWidth === 'number' && Number.isFinite(value.frameWidth) ? value.frameWidth : NaN;
    const frameWidth = Number.isNaN(width)
      ? DEFAULT.frameWidth
      : Math.min(FRAME_WIDTH.max, Math.max(FRAME_WIDTH.min, Math.round(width)));
    return { fields, frameWidth };
  } catch {
    return DEFAULT;
  }
}

function stored(): BoardPageChoice {
  try {
    return readBoardPageChoice(localStorage.getItem(KEY));
  } catch {
    return DEFAULT;
  }
}

function keep(choice: BoardPageChoice): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(choice));
  } catch {
    // A browser that keeps nothing (private mode, storage full): the choice lasts this page.
  }
}

interface BoardPageState extends BoardPageChoice {
  setFields(fields: BoardField[]): void;
  setFrameWidth(width: number): void;
}

export const useBoardPageChoice = create<BoardPageState>((set, get) => ({
  ...stored(),
  setFields(fields) {
    set({ fields });
    keep({ fields, frameWidth: get().frameWidth });
  },
  setFrameWidth(width) {
    const frameWidth = Math.min(FRAME_WIDTH.max, Math.max(FRAME_WIDTH.min, Math.round(width)));
    set({ frameWidth });
    keep({ fields: get().fields, frameWidth });
  },
}));
