import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Vitest global setup: the browser tests run against dist/web and dist/mcp-app, and the CLI tests run the built CLI
 * (dist/cli/main.js, started as a user starts it), all of which `npm run build` (run by `npm ci`) makes. When a source
 * is newer than its build (a developer edited and ran the tests), that part is built again first, so a test never
 * passes or fails on a stale build.
 */

const WEB_SOURCES = [
  'web/src',
  'web/index.html',
  'web/app.html',
  'web/vite.config.ts',
  'web/vite.app.config.ts',
  'src/contract',
  'src/shared/client-configs.ts',
];
const WEB_BUILT = ['dist/web/index.html', 'dist/mcp-app/app.html'];
const SERVER_SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json'];
const SERVER_BUILT = ['dist/cli/main.js'];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

function stale(sources: string[], built: string[]): boolean {
  const newestSource = Math.max(...sources.filter(existsSync).map(newestChange));
  return built.some((file) => !existsSync(file) || newestSource > statSync(file).mtimeMs);
}

export default function buildIfStale(): void {
  if (stale(SERVER_SOURCES, SERVER_BUILT)) {
    console.log('server sources changed since the last build: building dist (tsc)');
    execFileSync(join('node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  }
  if (!stale(WEB_SOURCES, WEB_BUILT)) return;
  console.log('web canvas sources changed since the last build: building dist/web and dist/mcp-app');
  // The production build, as `npm run build` makes it: vitest sets NODE_ENV=test, which would build React's development one.
  for (const config of ['web/vite.config.ts', 'web/vite.app.config.ts']) {
    execFileSync(join('node_modules', '.bin', 'vite'), ['build', '--config', config, '--logLevel', 'warn'], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
