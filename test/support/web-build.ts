import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Vitest global setup: the browser tests run against dist/web, which `npm run build` (run by `npm ci`) makes. When a
 * source of the page is newer than the build (a developer edited web/ and ran the tests), it is built again first,
 * so a test never passes or fails on a stale page.
 */

const SOURCES = [
  'web/src',
  'web/index.html',
  'web/app.html',
  'web/vite.config.ts',
  'web/vite.app.config.ts',
  'src/contract',
  'src/shared/client-configs.ts',
];
const BUILT = ['dist/web/index.html', 'dist/mcp-app/app.html'];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

export default function buildWebIfStale(): void {
  const newestSource = Math.max(...SOURCES.filter(existsSync).map(newestChange));
  const stale = BUILT.some((built) => !existsSync(built) || newestSource > statSync(built).mtimeMs);
  if (!stale) return;
  console.log('web canvas sources changed since the last build: building dist/web and dist/mcp-app');
  // The production build, as `npm run build` makes it: vitest sets NODE_ENV=test, which would build React's development one.
  for (const config of ['web/vite.config.ts', 'web/vite.app.config.ts']) {
    execFileSync(join('node_modules', '.bin', 'vite'), ['build', '--config', config, '--logLevel', 'warn'], {
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
