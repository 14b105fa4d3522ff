import { useSyncExternalStore } from 'react';
import { webCanvasPath, webTeamPath } from '../../../src/contract/index.js';

/** The page's few routes, on the History API: / (projects), /p/{project}/c/{canvas} (a canvas), /p/{project}/team. */

export type Route =
  | { kind: 'home' }
  | { kind: 'canvas'; projectId: string; canvasId: string }
  | { kind: 'team'; projectId: string }
  | { kind: 'share'; secret: string };

export function parseRoute(pathname: string): Route {
  const share = /^\/share\/([^/]+)\/?$/.exec(pathname);
  if (share) return { kind: 'share', secret: decodeURIComponent(share[1]!) };
  const team = /^\/p\/([^/]+)\/team\/?$/.exec(pathname);
  if (team) return { kind: 'team', projectId: decodeURIComponent(team[1]!) };
  const match = /^\/p\/([^/]+)\/c\/([^/]+)\/?$/.exec(pathname);
  if (match)
    return { kind: 'canvas', projectId: decodeURIComponent(match[1]!), canvasId: decodeURIComponent(match[2]!) };
  return { kind: 'home' };
}

export const canvasHref = webCanvasPath;
export const teamHref = webTeamPath;

const listeners = new Set<() => void>();
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
