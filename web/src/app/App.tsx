import { CanvasScreen } from './CanvasScreen.js';
import { Home } from './Home.js';
import { SharePage } from './SharePage.js';
import { TeamPage } from './TeamPage.js';
import { parseRoute, usePathname } from './router.js';

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
  if (route.kind === 'share') return <SharePage secret={route.secret} />;
  if (route.kind === 'team') return <TeamPage key={route.projectId} projectId={route.projectId} />;
  return <Home />;
}
