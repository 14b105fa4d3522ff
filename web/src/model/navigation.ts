import { useSyncExternalStore } from 'react';

/**
 * The page's place, on the History API: `navigate` moves to another of its routes without a reload, and `usePathname`
 * re-renders what depends on it. Kept at the bottom of the web ladder so a card (the board's "Open board") and the
 * pages reach the same history.
 */

const listeners = new Set<() => void>();
// Only in a browser: the model's tests import what imports this in Node, where there is no history.
if (typeof window !== 'undefined')
  window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

export function navigate(href: string): void {
  window.history.pushState(null, '', href);
  listeners.forEach((listener) => listener());
}

export function usePathname(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => window.location.pathname,
  );
}
