import {
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import {
  startModelStandin,
  type Brain,
  type ModelStandin,
  type Protocol,
  type StandinRequest,
} from '../support/model-standin.js';
import type { StoreTarget } from '../support/stores.js';

/** A server whose canvas chat answers with the local model stand-in, a project with people, and their sessions. */

export const IDP = 'https://idp.example';
export const CANVAS = '/api/v2/projects/p/canvases/c';

export interface ChatStage {
  server: TestServer;
  model: ModelStandin;
  /** Session cookies by person: ana (editor), olga (owner), vic (viewer), ben (editor). */
  cookies: Record<'ana' | 'olga' | 'vic' | 'ben', string>;
  close(): Promise<void>;
}

export async function startChatStage(
  target: StoreTarget,
  protocol: Protocol = 'openai',
  brain?: Brain,
  overrides: Record<string, unknown> = {},
  clock?: () => number,
): Promise<ChatStage> {
  const model = await startModelStandin(protocol, brain);
  const server = await startTestServer(
    target,
    {
      modelProvider: protocol === 'openai' ? 'openai-compatible' : 'anthropic',
      model: 'standin-model',
      modelBaseUrl: model.baseUrl,
      modelApiKey: 'sk-standin',
      ...overrides,
    },
    clock ? { clock } : {},
  );
  const { projects } = server.store;
  await projects.createWorkspace('w');
  await projects.createProject('p', 'w');
  await projects.createCanvas('p', 'c', false);
  const roles = { ana: 'editor', olga: 'owner', vic: 'viewer', ben: 'editor' } as const;
  const cookies = {} as ChatStage['cookies'];
  for (const [subject, role] of Object.entries(roles) as Array<
    [keyof typeof roles, (typeof roles)[keyof typeof roles]]
  >) {
    await projects.addMember('p', { issuer: IDP, subject }, role);
    const secret = await server.store.sessions.createLoginLink({ issuer: IDP, subject }, { expiresInMs: 60_000 });
    cookies[subject] = (await signInWithLink(`${server.url}/auth/login?token=${secret}`)).cookie;
  }
  return {
    server,
    model,
    cookies,
    async close() {
      await server.close();
      await model.close();
    },
  };
}

/** Headers of a request from the page (session, Origin, X-Requested-By). */
export function fromPage(stage: ChatStage, who: keyof ChatStage['cookies']): Record<string, string> {
  return {
    cookie: stage.cookies[who],
    origin: stage.server.url,
    'x-requested-by': 'canvas-mcp',
    'content-type': 'application/json',
  };
}

export async function newConversation(
  stage: ChatStage,
  who: keyof ChatStage['cookies'] = 'ana',
): Promise<{ conversation_id: string; agent_run_id: string; can_edit: boolean }> {
  const response = await fetch(`${stage.server.url}${CANVAS}/conversations`, {
    method: 'POST',
    headers: fromPage(stage, who),
    body: '{}',
  });
  if (response.status !== 201) throw new Error(`create conversation: ${response.status} ${await response.text()}`);
  return (await response.json()) as { conversation_id: string; agent_run_id: string; can_edit: boolean };
}

/** The chunks of a UI message stream response, read with the AI SDK's own parser, and the message they build. */
export async function readTurn(
  response: Response,
): Promise<{ chunks: UIMessageChunk[]; message: UIMessage | undefined }> {
  if (!response.body) throw new Error(`no body (status ${response.status})`);
  const [forChunks, forMessage] = response.body.tee();
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: forChunks, schema: uiMessageChunkSchema });
  const collecting = (async () => {
    for await (const result of parsed) if (result.success) chunks.push(result.value as UIMessageChunk);
  })();
  let message: UIMessage | undefined;
  const stream = parseJsonEventStream({ stream: forMessage, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (result.success) controller.enqueue(result.value);
      },
    }),
  );
  for await (const next of readUIMessageStream({ stream: stream as ReadableStream<UIMessageChunk> })) message = next;
  await collecting;
  return { chunks, message };
}

export function send(
  stage: ChatStage,
  conversationId: string,
  body: unknown,
  who: keyof ChatStage['cookies'] = 'ana',
): Promise<Response> {
  return fetch(`${stage.server.url}${CANVAS}/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: fromPage(stage, who),
    body: JSON.stringify(body),
  });
}

/** What a careful model does with the canvas, step by step: the spec's rules, played by the stand-in. */
export type PlannedStep =
  | { create: Record<string, unknown> }
  | { connect: { id: string; source: string; target: string } }
  | { deleteNamed: string }
  | { run: string };

function resultsSinceLastUserMessage(request: StandinRequest): unknown[] {
  const lastUser = request.messages.map((message) => message.role).lastIndexOf('user');
  return request.messages
    .slice(lastUser + 1)
    .filter((message) => message.role === 'tool')
    .map((message) => parseToolText(message.text));
}

function parseToolText(text: string): unknown {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed))
      return parseToolText(parsed.map((item) => (item as { text?: string }).text ?? '').join(''));
    return parsed;
  } catch {
    return text;
  }
}

/**
 * Reads the canvas first, then does each step at the revision it last saw; on revision_conflict it reads again and
 * redoes the step; finally it says what it did. Steps refer to nodes by name, as a person does; ids come from the read.
 */
export function plannedAgent(
  steps: PlannedStep[],
  finalText = 'Done.',
  canvas = { project_id: 'p', canvas_id: 'c' },
): Brain {
  return (request) => {
    const results = resultsSinceLastUserMessage(request);
    type Layout = { revision: number; nodes: Array<{ id: string; data: Record<string, unknown> }> };
    let layout: Layout | null = null;
    let revision: number | null = null;
    let done = 0;
    let mustRead = true;
    for (const result of results) {
      const value = result as {
        layout?: Layout;
        revision?: number;
        operation?: string;
        error?: { code?: string };
        run_id?: string;
        status?: string;
      };
      if (value.layout) {
        layout = value.layout;
        revision = value.layout.revision;
        mustRead = false;
      } else if (
        value.error?.code === 'revision_conflict' ||
        (typeof result === 'string' && result.startsWith('revision_conflict'))
      ) {
        mustRead = true;
      } else if (value.operation !== undefined && value.revision !== undefined) {
        revision = value.revision;
        done += 1;
      } else if (value.run_id !== undefined && value.status !== undefined) {
        done += 1;
      } else if (typeof result === 'string' || value.error) {
        // A refusal or a declined approval: the step is over, whatever happened.
        done += 1;
      }
    }
    if (mustRead) return { toolCalls: [{ name: 'get_canvas', args: { ...canvas } }] };
    const step = steps[done];
    if (!step) return { text: finalText };
    if ('create' in step)
      return {
        toolCalls: [{ name: 'create_canvas_node', args: { ...canvas, base_revision: revision, node: step.create } }],
      };
    if ('connect' in step)
      return {
        toolCalls: [{ name: 'create_canvas_edge', args: { ...canvas, base_revision: revision, edge: step.connect } }],
      };
    const named = layout?.nodes.find(
      (node) =>
        node.data.displayName === ('deleteNamed' in step ? step.deleteNamed : step.run) ||
        node.data.label === ('deleteNamed' in step ? step.deleteNamed : step.run),
    );
    if (!named) return { text: `I cannot find a node named ${'deleteNamed' in step ? step.deleteNamed : step.run}.` };
    if ('deleteNamed' in step)
      return {
        toolCalls: [{ name: 'delete_canvas_node', args: { ...canvas, base_revision: revision, node_id: named.id } }],
      };
    return {
      toolCalls: [
        {
          name: 'submit_canvas_node_run',
          args: { ...canvas, node_id: named.id, idempotency_key: `run-${named.id}-${request.messages.length}` },
        },
      ],
    };
  };
}
