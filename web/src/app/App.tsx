import { CanvasScreen } from './CanvasScreen.js';
import { Home } from './Home.js';
import { parseRoute, usePathname } from './router.js';

export function App() {
  const route = parseRoute(usePathname());
  return route.kind === 'canvas' ? (
    <CanvasScreen key={`${route.projectId}/${route.canvasId}`} projectId={route.projectId} canvasId={route.canvasId} />
  ) : (
    <Home />
  );
}
