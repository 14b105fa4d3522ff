import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ElementView } from '../../../src/contract/index.js';
import { api } from './api.js';

/**
 * The project's elements as the page knows them (docs/storyboards.md, "Elements"): read when a canvas opens and again
 * after every change made here, shared by the Elements panel and the shot list (which shows each shot's elements).
 */

interface ElementsState {
  projectId: string | null;
  elements: ElementView[];
  /** Why the last read failed, or null. */
  error: string | null;
}

const elementsStore = createStore<ElementsState>(() => ({ projectId: null, elements: [], error: null }));

export async function reloadElements(projectId: string): Promise<void> {
  try {
    const { elements } = await api.elements(projectId);
    elementsStore.setState({ projectId, elements, error: null });
  } catch (error) {
    elementsStore.setState({ projectId, error: (error as Error).message });
  }
}

/** The elements of the project, read once per project while a view that needs them is open. */
export function useProjectElements(projectId: string): ElementsState {
  useEffect(() => {
    if (elementsStore.getState().projectId !== projectId) {
      elementsStore.setState({ projectId, elements: [], error: null });
      void reloadElements(projectId);
    }
  }, [projectId]);
  const state = useStore(elementsStore);
  return state.projectId === projectId ? state : EMPTY;
}

const EMPTY: ElementsState = { projectId: null, elements: [], error: null };
