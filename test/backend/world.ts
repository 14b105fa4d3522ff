import type { Store } from '../../src/store/store.js';

/**
 * A small world for permission tests: two workspaces, projects, canvases, tokens of every kind and scope,
 * memberships and chat runs in every state. Seeded through the store, as an administrator would.
 */
export interface World {
  tokens: Record<
    | 'editor'
    | 'viewer'
    | 'workspaceEditor'
    | 'otherProject'
    | 'backendKind'
    | 'agentKind'
    | 'gateway'
    | 'foreignGateway'
    | 'alice'
    | 'carol'
    | 'mallory'
    | 'revoked'
    | 'expired',
    { id: string; secret: string }
  >;
  chatRuns: Record<
    'edit' | 'noEdit' | 'ended' | 'expired' | 'otherCanvas' | 'alice' | 'locked' | 'workspaceEditor' | 'agentKind',
    string
  >;
}

export interface WorldOptions {
  /**
   * The kind of the role tokens (editor, viewer, alice, …): `agent` for the tool server's tests, `backend` for the
   * REST API's (agent tokens are refused there).
   */
  kind?: 'agent' | 'backend';
}

export const IDP = 'https://idp.example';

export async function seedWorld(store: Store, worldOptions: WorldOptions = {}): Promise<World> {
  await store.projects.createWorkspace('w1');
  await store.projects.createWorkspace('w2');
  await store.projects.createProject('p1', 'w1');
  await store.projects.createProject('p2', 'w2');
  await store.projects.createCanvas('p1', 'c1', false);
  await store.projects.createCanvas('p1', 'c-other', false);
  await store.projects.createCanvas('p1', 'c-locked', true);
  await store.projects.createCanvas('p2', 'c2', false);
  await store.projects.addMember('p1', { issuer: IDP, subject: 'alice' }, 'editor');
  await store.projects.addMember('p1', { issuer: IDP, subject: 'carol' }, 'viewer');

  const token = async (
    name: string,
    options: Partial<Parameters<Store['tokens']['createToken']>[0]> = {},
  ): Promise<{ id: string; secret: string }> => {
    const { tokenId, secret } = await store.tokens.createToken({
      name,
      kind: worldOptions.kind ?? 'agent',
      role: 'editor',
      projects: ['p1'],
      workspaces: [],
      actor: null,
      expiresAt: null,
      ...options,
    });
    return { id: tokenId, secret };
  };
  const tokens: World['tokens'] = {
    editor: await token('editor'),
    viewer: await token('viewer', { role: 'viewer' }),
    workspaceEditor: await token('workspace-editor', { projects: [], workspaces: ['w1'] }),
    otherProject: await token('other-project', { projects: ['p2'] }),
    backendKind: await token('backend', { kind: 'backend' }),
    agentKind: await token('agent', { kind: 'agent' }),
    gateway: await token('gateway', { kind: 'gateway', projects: [], workspaces: ['w1'] }),
    foreignGateway: await token('foreign-gateway', { kind: 'gateway', projects: ['p2'] }),
    alice: await token('alice', { actor: { issuer: IDP, subject: 'alice' } }),
    carol: await token('carol', { actor: { issuer: IDP, subject: 'carol' } }),
    mallory: await token('mallory', { actor: { issuer: IDP, subject: 'mallory' } }),
    revoked: await token('revoked'),
    expired: await token('expired', { expiresAt: Date.now() - 1000 }),
  };
  await store.tokens.revokeToken(tokens.revoked.id);

  // Chat runs are bound to their presenter: the editor token, unless said otherwise.
  const chatRun = (canvasId: string, overrides: Partial<Parameters<Store['chatRuns']['createChatRun']>[0]> = {}) =>
    store.chatRuns.createChatRun({
      projectId: 'p1',
      canvasId,
      actor: null,
      tokenId: tokens.editor.id,
      canEdit: true,
      expiresAt: null,
      ...overrides,
    });
  const chatRuns: World['chatRuns'] = {
    workspaceEditor: await chatRun('c1', { tokenId: tokens.workspaceEditor.id }),
    agentKind: await chatRun('c1', { tokenId: tokens.agentKind.id }),
    edit: await chatRun('c1'),
    noEdit: await chatRun('c1', { canEdit: false }),
    ended: await chatRun('c1'),
    expired: await chatRun('c1', { expiresAt: Date.now() - 1000 }),
    otherCanvas: await chatRun('c-other'),
    alice: await chatRun('c1', { actor: { issuer: IDP, subject: 'alice' }, tokenId: null }),
    locked: await chatRun('c-locked'),
  };
  await store.chatRuns.endChatRun(chatRuns.ended);
  return { tokens, chatRuns };
}

export function aliceHeaders(subject = 'alice'): Record<string, string> {
  return { 'x-service-actor-issuer': IDP, 'x-service-actor-subject': subject };
}
