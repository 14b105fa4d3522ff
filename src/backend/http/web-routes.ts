import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { BackendContext, BackendHttpEnv } from './http-env.js';

/**
 * The web canvas (web/, built into dist/web by `npm run build`), served at `/`: hashed files under /static/ are
 * cached for a year (their names change with their content); index.html is never cached, so a new build reaches
 * every browser on its next load. The page's own routes (/, /p/{project}/c/{canvas}) all answer index.html.
 */

// src/backend/http and dist/backend/http both sit three levels below the package root.
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const WEB_DIR = join(PACKAGE_ROOT, 'dist', 'web');

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>canvas-mcp</title>
<p style="font:16px system-ui;max-width:36rem;margin:4rem auto">The web canvas is not built. Run <code>npm run build</code>
(<code>npm ci</code> does it) and reload.</p>`;

export function registerWebRoutes(app: Hono<BackendHttpEnv>): void {
  const indexFile = join(WEB_DIR, 'index.html');
  // serveStatic takes a root relative to the working directory.
  const root = relative(process.cwd(), WEB_DIR) || '.';
  app.use(
    '/static/*',
    serveStatic({
      root,
      onFound: (_path, c) => {
        c.header('cache-control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  const page = (c: BackendContext) => {
    c.header('cache-control', 'no-cache');
    // Read per request: cheap, and a rebuild while the server runs is served at once.
    return c.html(existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : NOT_BUILT);
  };
  app.get('/', page);
  app.get('/p/:project_id/c/:canvas_id', page);
  app.get('/favicon.ico', (c) => c.body(null, 204));
}
