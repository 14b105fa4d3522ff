import { SNAPSHOT_CONTRACT_VERSION, type CanvasLayout } from '../../src/contract/index.js';
import type { Actor } from '../../src/store/records.js';
import { api, signInWithLink, type ApiRequest, type TestServer } from './servers.js';

/** A canvas's layout as a REST reader sees it (a token with read rights), for checking what a test's writes did. */
export async function readLayout(
  server: TestServer,
  projectId: string,
  canvasId: string,
  token: string,
): Promise<CanvasLayout> {
  const answer = await api(server.url, `/api/v2/projects/${projectId}/canvases/${canvasId}/snapshot`, {
    token,
    headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
  });
  return (answer.body as { layout: CanvasLayout }).layout;
}

/**
 * A person signed in with a one-time link, as the page is: REST writes as them carry their session cookie, this
 * server's Origin and X-Requested-By. Answers a function that dresses a request that way.
 */
export async function signedInPerson(server: TestServer, person: Actor): Promise<(request?: ApiRequest) => ApiRequest> {
  const link = await server.store.sessions.createLoginLink(person, { expiresInMs: 60_000 });
  const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
  return (request = {}) => ({
    ...request,
    headers: { ...request.headers, cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' },
  });
}
