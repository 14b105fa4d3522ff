import { webBoardPath, webCanvasPath, webTeamPath } from '../../../src/contract/index.js';

/**
 * The page's few routes, on the History API: / (projects), /p/{project}/c/{canvas} (a canvas),
 * /p/{project}/c/{canvas}/board/{node} (one storyboard as a page), /p/{project}/team.
 */

export type Route =
  | { kind: 'home' }
  | { kind: 'canvas'; projectId: string; canvasId: string }
  | { kind: 'board'; projectId: string; canvasId: string; nodeId: string }
  | { kind: 'team'; projectId: string }
  | { kind: 'share'; secret: string };

export function parseRoute(pathname: string): Route {
  const share = /^\/share\/([^/]+)\/?$/.exec(pathname);
  if (share) return { kind: 'share', secret: decodeURIComponent(share[1]!) };
  const team = /^\/p\/([^/]+)\/team\/?$/.exec(pathname);
  if (team) return { kind: 'team', projectId: decodeURIComponent(team[1]!) };
  const board = /^\/p\/([^/]+)\/c\/([^/]+)\/board\/([^/]+)\/?$/.exec(pathname);
  if (board)
    return {
      kind: 'board',
      projectId: decodeURIComponent(board[1]!),
      canvasId: decodeURIComponent(board[2]!),
      nodeId: decodeURIComponent(board[3]!),
    };
  const match = /^\/p\/([^/]+)\/c\/([^/]+)\/?$/.exec(pathname);
  if (match)
    return { kind: 'canvas', projectId: decodeURIComponent(match[1]!), canvasId: decodeURIComponent(match[2]!) };
  return { kind: 'home' };
}

export const canvasHref = webCanvasPath;
export const boardHref = webBoardPath;
export const teamHref = webTeamPath;

export { navigate, usePathname } from '../model/navigation.js';
