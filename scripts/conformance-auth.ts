/**
 * The MCP conformance suite's authorization-server scenarios against this server (docs/conformance.md): the suite's
 * `authorization` command checks the RFC 8414 metadata and runs an authorization code grant with PKCE through our
 * authorization server. The person's part (signing in, the consent page, Allow) is played here with a cookie jar
 * over fetch, as a browser would; the suite receives the redirect on its own callback server.
 *
 *   CONFORMANCE_NODE=… CONFORMANCE_CLI=… npx tsx scripts/conformance-auth.ts     (scripts/conformance-node22.sh runs it)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServeConfig } from '../src/config/index.js';
import { startServer } from '../src/server/server.js';
import { createLogger } from '../src/shared/logger.js';

const CALLBACK_PORT = Number(process.env.CONFORMANCE_CALLBACK_PORT ?? 3917);
const conformanceNode = process.env.CONFORMANCE_NODE ?? process.execPath;
const conformanceCli = process.env.CONFORMANCE_CLI ?? '';
if (!conformanceCli)
  throw new Error(
    "CONFORMANCE_CLI must name the suite's dist/index.js (a release with the authorization command: 0.2.0-alpha.12).",
  );

/** A browser's cookies, kept by hand: fetch follows no redirect here, so every hop is seen. */
const jar = new Map<string, string>();
async function browse(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0]!;
    jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  }
  return response;
}

async function followUntil(
  start: string,
  stop: (url: string) => boolean,
): Promise<{ url: string; response?: Response }> {
  let url = start;
  for (let hop = 0; hop < 12; hop += 1) {
    if (stop(url)) return { url };
    const response = await browse(url);
    const location = response.headers.get('location');
    if (!location) return { url, response };
    await response.body?.cancel();
    url = new URL(location, url).href;
  }
  throw new Error(`too many redirects from ${start}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-conformance-auth-'));
const server = await startServer(
  loadServeConfig({ port: 0, dataDir, seedDemo: false, workers: 0, rateLimitPerMinute: 0 }, {}),
  { logger: createLogger('warn') },
);
const origin = new URL(server.url).origin;

/** Runs the suite's authorization scenarios, the person's part played here; answers the suite's exit code. */
async function run(): Promise<number | null> {
  const store = server.store!;
  const person = { issuer: 'https://conformance.example', subject: 'tester' };
  await store.projects.createWorkspace('conformance');
  await store.projects.createProject('conformance', 'conformance');
  await store.projects.createCanvas('conformance', 'board', false);
  await store.projects.addMember('conformance', person, 'editor');
  const link = await store.sessions.createLoginLink(person, { expiresInMs: 300_000 });
  await browse(`${origin}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: `token=${encodeURIComponent(link)}`,
  });

  const callback = `http://127.0.0.1:${CALLBACK_PORT}/callback`;
  const registered = (await (
    await fetch(`${origin}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'MCP conformance suite',
        redirect_uris: [callback],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      }),
    })
  ).json()) as { client_id: string };

  const args = [
    conformanceCli,
    'authorization',
    '--url',
    `${origin}/oauth`,
    '--client-id',
    registered.client_id,
    '--resource',
    server.mcpUrl,
    '-p',
    String(CALLBACK_PORT),
  ];
  const child = spawn(conformanceNode, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  process.on('exit', () => child.kill());
  let output = '';
  let driven = false;
  const drive = async (authorizeUrl: string) => {
    // The person: to the consent page, Allow on the canvas, and on to the suite's callback.
    const consent = await followUntil(authorizeUrl, (url) => url.startsWith(callback));
    if (!consent.response) throw new Error('the authorization went to the client without a consent page');
    const answered = await browse(consent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ decision: 'allow', canvas: 'conformance/board', access: 'read' }).toString(),
    });
    const back = await followUntil(new URL(answered.headers.get('location')!, consent.url).href, (url) =>
      url.startsWith(callback),
    );
    await fetch(back.url);
  };
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    const match = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/auth\?\S+)/.exec(output);
    if (match && !driven) {
      driven = true;
      // The suite starts its callback server before it prints the address.
      setTimeout(
        () =>
          drive(match[1]!).catch((error: unknown) => {
            console.error('driving the authorization failed:', error);
            child.kill();
          }),
        200,
      );
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  process.stdout.write(output.replace(/(code|access_token|refresh_token)([=:"\s]+)[A-Za-z0-9_-]{20,}/g, '$1$2…'));
  return exitCode;
}

const exitCode = await run().finally(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});
process.exit(exitCode ?? 1);
