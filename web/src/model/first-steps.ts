/**
 * What to try in the first minutes (docs/ui.md, "First minutes"): shown where the details of a selected node go, until
 * each step has been done once in this browser (kept in localStorage, so it disappears once used and stays gone), or
 * dismissed. The record lives here, apart from the tips (panels/details/FirstSteps.tsx), because the canvas and the
 * pages mark steps done too.
 */

export const FIRST_STEPS = {
  addCard: 'Add a frame or a note from the Add panel on the left (it lands in a free spot in view).',
  upload:
    'Drop your own pictures, films, sound or PDFs on the canvas, or paste them: each becomes a card where it lands.',
  select: 'Select a card to see and edit its details here; press A to reach its actions, Enter to edit its text.',
  askAssistant: 'Ask the assistant in the Chat tab: "add three frames of a lighthouse at dusk".',
  invite: 'Invite someone from the Team page (on your canvases page): they join with a link.',
} as const;
export type FirstStep = keyof typeof FIRST_STEPS;

const KEY = 'canvas-mcp.first-steps';
const EVENT = 'canvas-mcp:first-step';

/** The steps done (and 'dismissed') in this browser. */
export function doneSteps(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

/** Records that a first step was done (the tips drop it, here and in any tab open on this browser). */
export function markFirstStep(step: FirstStep | 'dismissed'): void {
  const done = doneSteps();
  if (done.has(step)) return;
  done.add(step);
  localStorage.setItem(KEY, JSON.stringify([...done]));
  window.dispatchEvent(new Event(EVENT));
}

/** Calls `refresh` whenever a step is marked done, here or in another tab; answers how to stop. */
export function watchFirstSteps(refresh: () => void): () => void {
  window.addEventListener(EVENT, refresh);
  window.addEventListener('storage', refresh);
  return () => {
    window.removeEventListener(EVENT, refresh);
    window.removeEventListener('storage', refresh);
  };
}
