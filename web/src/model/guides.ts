import { create } from 'zustand';
import { GUIDE_NAMES, type GuideName } from '../../../src/contract/index.js';

/**
 * Which framing guides a person shows over the board's card and in Present (docs/storyboards.md, "Frame shapes and
 * guides"): a viewing aid of this browser, never part of the board (nobody else's view changes), kept in localStorage
 * so it stays on from one visit to the next. The frame editor keeps its own choice while it is open.
 */

const KEY = 'canvas-mcp.frame-guides';

interface GuideChoice {
  /** The guides are drawn. */
  shown: boolean;
  /** Which ones, when shown: title and action safe until the person picks. */
  chosen: GuideName[];
}

interface GuideChoiceState extends GuideChoice {
  setShown(shown: boolean): void;
  toggle(name: GuideName, on: boolean): void;
}

const DEFAULT: GuideChoice = { shown: false, chosen: ['actionSafe', 'titleSafe'] };

/** What localStorage holds, read defensively (another version of the page, or a person, may have written it). */
export function readGuideChoice(stored: string | null): GuideChoice {
  try {
    const value = JSON.parse(stored ?? 'null') as Partial<GuideChoice> | null;
    if (!value || typeof value !== 'object') return DEFAULT;
    const chosen = Array.isArray(value.chosen)
      ? GUIDE_NAMES.filter((name) => (value.chosen as unknown[]).includes(name))
      : DEFAULT.chosen;
    return { shown: value.shown === true, chosen };
  } catch {
    return DEFAULT;
  }
}

function stored(): GuideChoice {
  try {
    return readGuideChoice(localStorage.getItem(KEY));
  } catch {
    return DEFAULT;
  }
}

function keep(choice: GuideChoice): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(choice));
  } catch {
    // A browser that keeps nothing (private mode, storage full): the choice lasts this page.
  }
}

export const useGuideChoice = create<GuideChoiceState>((set, get) => ({
  ...stored(),
  setShown(shown) {
    set({ shown });
    keep({ shown, chosen: get().chosen });
  },
  toggle(name, on) {
    const now = get().chosen;
    // Kept in the guides' own order, so every view lists and draws them alike.
    const chosen = GUIDE_NAMES.filter((each) => (each === name ? on : now.includes(each)));
    set({ chosen, shown: true });
    keep({ shown: true, chosen });
  },
}));

/** The guides to draw now: none while they are off. */
export function useShownGuides(): GuideName[] {
  const shown = useGuideChoice((state) => state.shown);
  const chosen = useGuideChoice((state) => state.chosen);
  return shown ? chosen : [];
}
