import { readFileSync, readdirSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIR } from '../../src/shared/package-paths.js';
import { rawRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/** How `serve` delivers the built web canvas: hashed files cached for a year and gzipped, index.html never cached. */

const sqlite = STORE_TARGETS.find((target) => target.name === 'sqlite')!;

describe('serving the web canvas', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(sqlite);
  });
  afterAll(async () => server?.close());

  it('answers the page routes with index.html, never cached', async () => {
    for (const path of ['/', '/p/demo/c/main']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(readFileSync(join(WEB_DIR, 'index.html'), 'utf8'));
    }
  });

  it('keeps the page from being framed by another site or loading from elsewhere', async () => {
    const response = await fetch(`${server.url}/p/demo/c/main`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('serves the hashed script gzipped and cacheable for a year', async () => {
    const script = readdirSync(join(WEB_DIR, 'static')).find((file) => file.endsWith('.js'))!;
    const response = await rawRequest(`${server.url}/static/${script}`, {
      method: 'GET',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toMatch(/javascript/);
  });

  it('sends the exact built file', async () => {
    const script = readdirSync(join(WEB_DIR, 'static')).find((file) => file.endsWith('.js'))!;
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      get(`${server.url}/static/${script}`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve());
        response.on('error', reject);
      }).on('error', reject);
    });
    expect(gunzipSync(Buffer.concat(chunks)).equals(readFileSync(join(WEB_DIR, 'static', script)))).toBe(true);
  });

  it('answers an unknown static file with 404', async () => {
    expect((await fetch(`${server.url}/static/nope-123.js`)).status).toBe(404);
  });
});
