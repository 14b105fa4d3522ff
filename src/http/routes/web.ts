import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { compress } from 'hono/compress';
import { secureHeaders } from 'hono/secure-headers';
import { WEB_BOARD_ROUTE, WEB_CANVAS_ROUTE, WEB_SHARE_ROUTE, WEB_TEAM_ROUTE } from '../../contract/index.js';
import { WEB_DIR } from '../../shared/package-paths.js';
import type { BackendContext, BackendHttpEnv } from '../http-env.js';

/**
 * The web canvas (web/, built into dist/web by `npm run build`), served at `/`: hashed files under /static/ are
 * cached for a year (their names change with their content); index.html is never cached, so a new build reaches
 * every browser on its next load. The page's own routes (/, /p/{project}/c/{canvas}) all answer index.html.
 */

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>canvas-mcp</title>
<p style="font:16px system-ui;max-width:36rem;margin:4rem auto">The web canvas is not built. Run <code>npm run build</code>
(<code>npm ci</code> does it) and reload.</p>`;

/**
 * The page may load only from this server, may not be framed by another site (it has destructive buttons: no
 * clickjacking), and sends no referrer elsewhere. Styles may be inline: React Flow places every card with a style
 * attribute. Run outputs and previews come from this server's /assets.
 */
const PAGE_HEADERS = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    mediaSrc: ["'self'", 'blob:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
  // HSTS belongs to whoever terminates TLS (the proxy behind --public-url), not to a loopback server.
  strictTransportSecurity: false,
});

export function registerWebRoutes(app: Hono<BackendHttpEnv>): void {
  const indexFile = join(WEB_DIR, 'index.html');
  // serveStatic takes a root relative to the working directory.
  const root = relative(process.cwd(), WEB_DIR) || '.';
  // The page's script is about 480 KB as built and 150 KB gzipped: a browser away from this machine gets the latter.
  app.use('/static/*', compress());
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
  for (const path of ['/', WEB_CANVAS_ROUTE, WEB_BOARD_ROUTE, WEB_TEAM_ROUTE, WEB_SHARE_ROUTE]) {
    app.use(path, PAGE_HEADERS);
    app.get(path, page);
  }
  app.get('/favicon.ico', (c) => c.body(null, 204));
}
