import type { ToolSetName } from '../../src/contract/index.js';
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

/**
 * An agent of the tool server: its token (editor of one project, with the tool sets an owner gave it) and a chat run
 * of its own on one canvas, for the X-Agent-Run-Id its writes need.
 */
export async function agentOnCanvas(
  store: Store,
  options: { projectId: string; canvasId: string; name: string; toolSets?: ToolSetName[] },
): Promise<{ tokenId: string; secret: string; chatRunId: string }> {
  const { tokenId, secret } = await store.tokens.createToken({
    name: options.name,
    kind: 'agent',
    role: 'editor',
    projects: [options.projectId],
    workspaces: [],
    actor: null,
    expiresAt: null,
    toolSets: options.toolSets ?? [],
  });
  const chatRunId = await store.chatRuns.createChatRun({
    projectId: options.projectId,
    canvasId: options.canvasId,
    actor: null,
    tokenId,
    canEdit: true,
    expiresAt: null,
  });
  return { tokenId, secret, chatRunId };
}
