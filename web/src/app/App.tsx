import { Suspense, lazy } from 'react';
import { CanvasScreen } from './CanvasScreen.js';
import { Home } from './Home.js';
import { SharePage } from './SharePage.js';
import { TeamPage } from './TeamPage.js';
import { parseRoute, usePathname } from './router.js';

// The board page brings its grid's virtualiser and drag and drop with it: loaded when a board is first opened.
const BoardScreen = lazy(() => import('./BoardScreen.js').then((module) => ({ default: module.BoardScreen })));

export function App() {
  const route = parseRoute(usePathname());
  if (route.kind === 'canvas')
    return (
      <CanvasScreen
        key={`${route.projectId}/${route.canvasId}`}
        projectId={route.projectId}
        canvasId={route.canvasId}
      />
    );
  if (route.kind === 'board')
    return (
      <Suspense fallback={<main className="screen-message">Opening the board…</main>}>
        <BoardScreen
          key={`${route.projectId}/${route.canvasId}/${route.nodeId}`}
          projectId={route.projectId}
          canvasId={route.canvasId}
          nodeId={route.nodeId}
        />
      </Suspense>
    );
  if (route.kind === 'share') return <SharePage secret={route.secret} />;
  if (route.kind === 'team') return <TeamPage key={route.projectId} projectId={route.projectId} />;
  return <Home />;
}
