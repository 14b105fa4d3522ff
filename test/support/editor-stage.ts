import type { ConfigInput } from '../../src/config/index.js';
import { IDP } from '../backend/world.js';
import { signInWithLink, startTestServer, type TestServer } from './servers.js';
import type { StoreTarget } from './stores.js';
import { projectToken } from './tokens.js';

/**
 * A server with one canvas (project `p`, canvas `c`), an editor `ed` signed in as a page would be (their session
 * cookie), and a viewer's token to read the canvas back: the stage of the tests that write as a person over REST.
 * `overrides`: the server's settings besides (run workers, providers).
 */
export async function editorStage(
  target: StoreTarget,
  overrides: ConfigInput = {},
): Promise<{ server: TestServer; cookie: string; viewer: string }> {
  const server = await startTestServer(target, { rateLimitPerMinute: 1_000_000, ...overrides });
  const { projects } = server.store;
  await projects.createWorkspace('w');
  await projects.createProject('p', 'w');
  await projects.createCanvas('p', 'c', false);
  await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
  const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject: 'ed' }, { expiresInMs: 60_000 });
  const { cookie } = await signInWithLink(`${server.url}/auth/login?token=${link}`);
  return { server, cookie, viewer: await projectToken(server.store, 'p', 'viewer') };
}
