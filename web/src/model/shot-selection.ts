import { create } from 'zustand';

/**
 * The shots the person has selected on boards' cards, where a view tracks them (the MCP App's view, whose host's
 * model asks what is selected: docs/contract.md, "Tools from the canvas view"). A click on a frame selects its shot (a
 * click with Ctrl, Cmd or Shift adds it); a click elsewhere on the canvas clears the shots. Pages that do not track
 * them (`tracking` false) never select a shot, so their boards look as they always did.
 */

export interface SelectedShotRef {
  boardId: string;
  shotId: string;
}

interface ShotSelectionState {
  tracking: boolean;
  shots: SelectedShotRef[];
  select(shot: SelectedShotRef, additive: boolean): void;
  clear(): void;
}

const same = (a: SelectedShotRef, b: SelectedShotRef) => a.boardId === b.boardId && a.shotId === b.shotId;

export const useShotSelection = create<ShotSelectionState>((set) => ({
  tracking: false,
  shots: [],
  select: (shot, additive) =>
    set((state) => {
      if (!state.tracking) return state;
      if (!additive) return { shots: [shot] };
      // An added shot that was selected already is taken out again, as Ctrl+click does with cards.
      return state.shots.some((each) => same(each, shot))
        ? { shots: state.shots.filter((each) => !same(each, shot)) }
        : { shots: [...state.shots, shot] };
    }),
  clear: () => set((state) => (state.shots.length === 0 ? state : { shots: [] })),
}));

/** Whether the shot is among the selected ones (for the card's highlight). */
export function isShotSelected(
  shots: readonly SelectedShotRef[],
  boardId: string,
  shotId: string | undefined,
): boolean {
  return shotId !== undefined && shots.some((each) => same(each, { boardId, shotId }));
}
