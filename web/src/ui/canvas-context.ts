import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { SkillCatalog } from '../../../src/contract/index.js';
import type { CanvasController, CanvasState } from '../model/canvas-state.js';

/** What every card and panel of an open canvas reaches: the controller (state and actions) and the skill catalog. */
export interface CanvasContextValue {
  controller: CanvasController;
  skills: SkillCatalog | null;
  /** A view that never edits (the MCP App): cards show states, not the controls that change them. */
  viewOnly?: boolean;
  /**
   * The one origin cards draw media from (cards/media-url.ts): the page's own (the default), or in the MCP App
   * the canvas-mcp server's; null: no media at all.
   */
  mediaOrigin?: string | null;
  /** False where the page cannot upload (the MCP App connects nowhere): no file is taken on a frame. */
  takesFiles?: boolean;
  /** Where a storyboard opens as a page of its own (the web app's board page); absent where there is none (the MCP App). */
  boardHref?: (nodeId: string) => string;
}

export const CanvasContext = createContext<CanvasContextValue | null>(null);

export function useCanvas(): CanvasContextValue {
  const value = useContext(CanvasContext);
  if (!value) throw new Error('useCanvas outside a canvas');
  return value;
}

export function useCanvasState<T>(selector: (state: CanvasState) => T): T {
  return useStore(useCanvas().controller.store, selector);
}

/** The origin cards may draw media from. */
export function useMediaOrigin(): string | null {
  const value = useContext(CanvasContext);
  return value?.mediaOrigin === undefined ? window.location.origin : value.mediaOrigin;
}

/** Editors and owners edit; viewers see everything and change nothing. */
export function useEditable(): boolean {
  return useCanvasState((state) => state.role === 'editor' || state.role === 'owner');
}

/** Whether files dropped or pasted here may be uploaded (the web canvas, for an editor). */
export function useTakesFiles(): boolean {
  const editable = useEditable();
  const { takesFiles } = useCanvas();
  return editable && takesFiles !== false;
}
