import { create } from 'zustand';

/**
 * Which shot's frame editor is open (docs/drawing.md). Anything that shows a shot opens it here (the board's card on
 * a double-click or Enter, the shot list's "Draw"); the page draws the editor while `open` names a shot.
 */
export interface FrameEditorTarget {
  boardId: string;
  shotId: string;
}

interface FrameEditorState {
  open: FrameEditorTarget | null;
  openEditor(target: FrameEditorTarget): void;
  closeEditor(): void;
}

export const useFrameEditor = create<FrameEditorState>((set) => ({
  open: null,
  openEditor: (target) => set({ open: target }),
  closeEditor: () => set({ open: null }),
}));
