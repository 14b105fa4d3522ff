import type { Store } from '../../src/store/store.js';

/** A backend (REST) token of one project with a role, as a script or a second reader holds one; its secret. */
export async function projectToken(
  store: Store,
  projectId: string,
  role: 'viewer' | 'editor',
  name = `${role} script`,
): Promise<string> {
  const { secret } = await store.tokens.createToken({
    name,
    kind: 'backend',
    role,
    projects: [projectId],
    workspaces: [],
    actor: null,
    expiresAt: null,
  });
  return secret;
}
