import { SYSTEM_WRITE } from '../store/edit-authorization.js';
import { CanvasNode, type CanvasEdge } from '../contract/index.js';
import type { Store } from '../store/store.js';

/** The demo a first `serve` on an empty store creates, so the whole flow can be tried at once. */

export const DEMO = { workspace: 'demo', project: 'demo', canvas: 'main' } as const;

/** The person the first start signs in: the owner of the demo project. */
export const DEMO_OWNER = { issuer: 'canvas-mcp', subject: 'demo-owner' } as const;

/** A first-start sign-in link lasts this long (a new one: `admin login-link`). */
export const DEMO_LINK_MS = 15 * 60_000;

export interface DemoCredentials {
  projectId: string;
  canvasId: string;
  tokenId: string;
  token: string;
  agentRunId: string;
  /** A one-time sign-in secret for the demo owner: the link is `<url>/auth/login?token=<secret>`. */
  loginSecret: string;
}

const DEMO_NODES: unknown[] = [
  {
    id: 'act-1',
    type: 'groupNode',
    position: { x: 0, y: 0 },
    width: 900,
    height: 520,
    data: { label: 'Act I: the storm' },
  },
  {
    id: 'beat-1',
    type: 'beatContextNode',
    parentId: 'act-1',
    extent: 'parent',
    position: { x: 24, y: 48 },
    data: {
      displayName: 'Beat 1',
      episode: 1,
      beat: 1,
      content: 'Mara reaches the lighthouse as the storm breaks.',
      syncStatus: 'fresh',
    },
  },
  {
    id: 'note-1',
    type: 'textAnnotationNode',
    parentId: 'act-1',
    extent: 'parent',
    position: { x: 24, y: 300 },
    data: { displayName: 'Director note', content: 'Keep the lamp as the only warm light in the frame.' },
  },
  {
    id: 'frame-1',
    type: 'imageGenNode',
    parentId: 'act-1',
    extent: 'parent',
    position: { x: 360, y: 48 },
    data: {
      displayName: 'Frame 1',
      prompt: 'A lighthouse on a cliff at dusk, storm clouds, a lone figure with a lantern, cinematic wide shot',
      size: '1K',
      count: 1,
      imageUrl: null,
      aspectRatio: '16:9',
    },
  },
  {
    id: 'voice-1',
    type: 'audioNode',
    position: { x: 960, y: 48 },
    data: { displayName: 'Narration', audioUrl: null, audioKind: 'speech', text: 'The sea had been waiting for her.' },
  },
  {
    id: 'sketch-1',
    type: 'skillNode',
    position: { x: 960, y: 300 },
    data: {
      displayName: 'Sketch from context',
      skill_id: 'zone.sketch_from_context',
      skill_schema_version: 'skill.v1',
      parameters: { aspect_ratio: '16:9' },
    },
  },
];

const DEMO_EDGES: CanvasEdge[] = [
  { id: 'e-beat-frame', source: 'beat-1', target: 'frame-1' },
  { id: 'e-beat-sketch', source: 'beat-1', target: 'sketch-1' },
  { id: 'e-frame-voice', source: 'frame-1', target: 'voice-1' },
];

export async function seedDemo(store: Store): Promise<DemoCredentials> {
  const { workspace, project, canvas } = DEMO;
  await store.projects.createWorkspace(workspace);
  await store.projects.createProject(project, workspace);
  await store.projects.createCanvas(project, canvas, false);
  let revision = 0;
  const at = () => ({
    projectId: project,
    canvasId: canvas,
    baseRevision: revision++,
    clientSaveId: null,
    authorization: SYSTEM_WRITE,
  });
  for (const node of DEMO_NODES) await store.writes.createNode(at(), CanvasNode.parse(node));
  for (const edge of DEMO_EDGES) await store.writes.createEdge(at(), edge);
  const { tokenId, secret } = await store.tokens.createToken({
    name: 'demo-agent',
    kind: 'agent',
    role: 'editor',
    projects: [project],
    workspaces: [],
    actor: null,
    expiresAt: null,
  });
  const agentRunId = await store.chatRuns.createChatRun({
    projectId: project,
    canvasId: canvas,
    actor: null,
    tokenId,
    canEdit: true,
    expiresAt: null,
  });
  await store.projects.addMember(project, DEMO_OWNER, 'owner');
  const loginSecret = await store.sessions.createLoginLink(DEMO_OWNER, {
    expiresInMs: DEMO_LINK_MS,
    projectId: project,
    canvasId: canvas,
  });
  return { projectId: project, canvasId: canvas, tokenId, token: secret, agentRunId, loginSecret };
}
