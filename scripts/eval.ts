import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_WRITE } from '../src/store/edit-authorization.js';
import { CanvasNode, type ChatContext } from '../src/contract/index.js';
import { loadServeConfig } from '../src/config/index.js';
import { startServer } from '../src/server/server.js';
import { createLogger } from '../src/shared/logger.js';
import type { Store } from '../src/store/store.js';

/**
 * `npm run eval` (docs/chat.md, "Trying it with your model"): ten canvas tasks for the canvas chat, against the model
 * you configure with the same settings as `serve` (CANVAS_MCP_MODEL_PROVIDER, CANVAS_MCP_MODEL, CANVAS_MCP_MODEL_API_KEY,
 * and CANVAS_MCP_MODEL_BASE_URL for an OpenAI-compatible server). Each task runs on a fresh canvas through the chat's
 * own HTTP routes, as the web canvas sends it, and is judged on the layout it leaves. Prints a pass table. Without a
 * model it says so and exits 0: this needs your key and spends your tokens.
 */

if (!process.env.CANVAS_MCP_MODEL_PROVIDER) {
  process.stdout.write(
    'npm run eval: skipped, no model configured. Set CANVAS_MCP_MODEL_PROVIDER (anthropic, openai or openai-compatible), CANVAS_MCP_MODEL and CANVAS_MCP_MODEL_API_KEY (and CANVAS_MCP_MODEL_BASE_URL for openai-compatible), then run it again.\n',
  );
  process.exit(0);
}

type Node = {
  id: string;
  type: string;
  parentId?: string;
  position: { x: number; y: number };
  width?: number;
  height?: number;
  data: Record<string, unknown>;
};

interface Task {
  name: string;
  ask: string;
  selection?: string[];
  /** What the canvas holds before (besides the shared beat): node bodies. */
  seed?: Array<Record<string, unknown>>;
  judge: (nodes: Node[], answer: string) => boolean;
}

const beat = {
  id: 'beat-storm',
  type: 'textAnnotationNode',
  position: { x: 0, y: 0 },
  data: { displayName: 'The storm beat', content: 'Mara crosses the bay at night while the storm rises.' },
};
const named = (nodes: Node[], name: string) =>
  nodes.filter((node) => node.data.displayName === name || node.data.label === name);
const added = (nodes: Node[], type: string) => nodes.filter((node) => node.type === type && node.id !== beat.id);
const overlaps = (a: Node, b: Node) => {
  const box = (node: Node) => ({ x: node.position.x, y: node.position.y, w: node.width ?? 280, h: node.height ?? 200 });
  const [p, q] = [box(a), box(b)];
  return p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
};

const TASKS: Task[] = [
  {
    name: 'add a titled note',
    ask: "Add a note titled 'Ideas' that says 'try a night scene'.",
    judge: (nodes) =>
      named(nodes, 'Ideas').some(
        (node) => node.type === 'textAnnotationNode' && String(node.data.content).includes('night'),
      ),
  },
  {
    name: 'three frames for the selected beat',
    ask: 'Add three storyboard frames for this beat.',
    selection: ['beat-storm'],
    judge: (nodes) => added(nodes, 'imageGenNode').length === 3,
  },
  {
    name: 'delete by name',
    ask: "Delete the note called 'Old idea'.",
    seed: [
      {
        id: 'n-old',
        type: 'textAnnotationNode',
        position: { x: 0, y: 400 },
        data: { displayName: 'Old idea', content: 'a ferry' },
      },
    ],
    judge: (nodes) => named(nodes, 'Old idea').length === 0 && nodes.some((node) => node.id === beat.id),
  },
  {
    name: 'delete two by name',
    ask: "Delete the frames named 'Draft A' and 'Draft B', and nothing else.",
    seed: ['A', 'B', 'C'].map((letter, index) => ({
      id: `draft-${letter}`,
      type: 'imageGenNode',
      position: { x: 400 + index * 320, y: 0 },
      data: { displayName: `Draft ${letter}`, prompt: 'p', size: '1K', imageUrl: null, aspectRatio: '16:9' },
    })),
    judge: (nodes) =>
      named(nodes, 'Draft A').length === 0 &&
      named(nodes, 'Draft B').length === 0 &&
      named(nodes, 'Draft C').length === 1,
  },
  {
    name: 'a child inside a group',
    ask: "Put a new note saying 'opening shot' inside the group 'Act 1'.",
    seed: [
      {
        id: 'group-act1',
        type: 'groupNode',
        position: { x: 0, y: 600 },
        width: 800,
        height: 500,
        data: { label: 'Act 1' },
      },
    ],
    judge: (nodes) =>
      nodes.some(
        (node) =>
          node.parentId === 'group-act1' &&
          String(node.data.content ?? '')
            .toLowerCase()
            .includes('opening'),
      ),
  },
  {
    name: 'count the nodes',
    ask: 'How many nodes are on this canvas? Answer with the number.',
    seed: [{ id: 'x1', type: 'textAnnotationNode', position: { x: 0, y: 300 }, data: { content: 'x' } }],
    judge: (_nodes, answer) => /\b2\b|two/i.test(answer),
  },
  {
    name: 'a skill node with parameters',
    ask: 'Add a skill node that sketches from context, in 16:9.',
    judge: (nodes) =>
      nodes.some(
        (node) =>
          node.type === 'skillNode' &&
          node.data.skill_id === 'zone.sketch_from_context' &&
          (node.data.parameters as { aspect_ratio?: string } | undefined)?.aspect_ratio === '16:9',
      ),
  },
  {
    name: 'a script node',
    ask: "Add a script node whose prompt is 'A lighthouse keeper's last night'.",
    judge: (nodes) => added(nodes, 'scriptNode').some((node) => String(node.data.prompt).includes('lighthouse')),
  },
  {
    name: 'a speech audio node',
    ask: "Add an audio node where the narrator says 'Welcome aboard'.",
    judge: (nodes) => added(nodes, 'audioNode').some((node) => String(node.data.text ?? '').includes('Welcome aboard')),
  },
  {
    name: 'no overlap',
    ask: "Add a note next to 'The storm beat' saying 'thunder'. It must not overlap any card.",
    seed: [
      {
        id: 'right',
        type: 'textAnnotationNode',
        position: { x: 320, y: 0 },
        data: { displayName: 'Neighbour', content: 'taken' },
      },
    ],
    judge: (nodes) => {
      const note = nodes.find((node) => String(node.data.content ?? '').includes('thunder'));
      return (
        !!note && nodes.every((other) => other.id === note.id || other.parentId !== undefined || !overlaps(note, other))
      );
    },
  },
  // Storyboard tasks: edit in place, lay out a board, compare two shots.
  {
    name: 'make frame 1 moodier in place',
    ask: "Make 'Frame 1' moodier: rewrite its prompt for a darker, stormier mood. Keep the same card.",
    seed: [
      {
        id: 'frame-1',
        type: 'imageGenNode',
        position: { x: 0, y: 300 },
        data: { displayName: 'Frame 1', prompt: 'a lighthouse on a calm sunny morning', size: '1K', imageUrl: null },
      },
      { id: 'frame-2', type: 'textAnnotationNode', position: { x: 400, y: 300 }, data: { content: 'next' } },
    ],
    judge: (nodes) => {
      const frame = nodes.find((node) => node.id === 'frame-1');
      return (
        !!frame &&
        frame.type === 'imageGenNode' &&
        !String(frame.data.prompt).includes('calm sunny') &&
        added(nodes, 'imageGenNode').length === 1
      );
    },
  },
  {
    name: 'tidy a messy board',
    ask: 'The cards on this canvas are piled on top of each other: lay them out so none overlaps.',
    seed: ['a', 'b', 'c', 'd'].map((letter, index) => ({
      id: `pile-${letter}`,
      type: 'textAnnotationNode',
      position: { x: 40 + index * 20, y: 300 + index * 15 },
      data: { displayName: `Card ${letter}`, content: letter },
    })),
    judge: (nodes) => {
      const pile = nodes.filter((node) => node.id.startsWith('pile-'));
      return pile.length === 4 && pile.every((a) => pile.every((b) => a === b || !overlaps(a, b)));
    },
  },
  {
    name: 'compare two shots',
    ask: "Do shot 1 and shot 2 of the board 'Harbour' share a location? Answer yes or no, then why, changing nothing.",
    seed: [
      {
        id: 'harbour',
        type: 'storyboardNode',
        position: { x: 0, y: 300 },
        data: {
          title: 'Harbour',
          frames: [
            { id: 's1', number: '1', imageUrl: null, location: 'The harbour wall', action: 'Mara waits.' },
            { id: 's2', number: '2', imageUrl: null, location: 'The lighthouse stairs', action: 'Ode climbs.' },
          ],
        },
      },
    ],
    judge: (nodes, answer) => /\bno\b/i.test(answer) && nodes.length === 2,
  },
];

async function seed(store: Store, canvasId: string, task: Task): Promise<void> {
  await store.projects.createCanvas('eval', canvasId, false);
  let revision = 0;
  for (const body of [beat, ...(task.seed ?? [])]) {
    await store.writes.createNode(
      { projectId: 'eval', canvasId, baseRevision: revision++, clientSaveId: null, authorization: SYSTEM_WRITE },
      CanvasNode.parse(body),
    );
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-eval-'));
const server = await (async () =>
  startServer(loadServeConfig({ port: 0, dataDir, seedDemo: false, workers: 0, rateLimitPerMinute: 0 }), {
    logger: createLogger('warn'),
  }))().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
});
const store = server.store!;
const person = { issuer: 'canvas-mcp', subject: 'evaluator' };
await store.projects.createWorkspace('eval');
await store.projects.createProject('eval', 'eval');
await store.projects.addMember('eval', person, 'editor');
const link = await store.sessions.createLoginLink(person, { expiresInMs: 60_000 });
const login = await fetch(`${server.url}/auth/login`, {
  method: 'POST',
  redirect: 'manual',
  headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ token: link }),
});
const headers = {
  cookie: login.headers.get('set-cookie')!.split(';', 1)[0]!,
  origin: server.url,
  'x-requested-by': 'canvas-mcp',
  'content-type': 'application/json',
};

const rows: Array<{ task: string; pass: boolean; seconds: string; answer: string }> = [];
try {
  for (const [index, task] of TASKS.entries()) {
    const canvasId = `task-${index + 1}`;
    await seed(store, canvasId, task);
    const base = `${server.url}/api/v2/projects/eval/canvases/${canvasId}/conversations`;
    const started = performance.now();
    const conversation = (await (await fetch(base, { method: 'POST', headers, body: '{}' })).json()) as {
      conversation_id: string;
    };
    const context: ChatContext = { selection: task.selection ?? [] };
    const turn = await fetch(`${base}/${conversation.conversation_id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: { id: `m-${index}`, text: task.ask }, context }),
    });
    const stream = await turn.text();
    const answer = stream
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string; errorText?: string })
      .map((chunk) =>
        chunk.type === 'text-delta' ? chunk.delta : chunk.type === 'error' ? `[error: ${chunk.errorText}]` : '',
      )
      .join('');
    const layout = await store.layout.loadLayout('eval', canvasId);
    const nodes = (layout?.nodes ?? []).map((row) => JSON.parse(row.body) as Node);
    let pass = false;
    try {
      pass = task.judge(nodes, answer);
    } catch {
      pass = false;
    }
    rows.push({
      task: task.name,
      pass,
      seconds: ((performance.now() - started) / 1000).toFixed(1),
      answer: answer.replace(/\s+/g, ' ').slice(0, 70),
    });
    process.stderr.write(`${pass ? 'pass' : 'FAIL'}  ${task.name}\n`);
  }
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const model = `${process.env.CANVAS_MCP_MODEL_PROVIDER}/${process.env.CANVAS_MCP_MODEL}`;
process.stdout.write(`\n| task (${model}) | pass | seconds | the assistant's answer |\n|---|---|---|---|\n`);
for (const row of rows)
  process.stdout.write(`| ${row.task} | ${row.pass ? 'yes' : 'NO'} | ${row.seconds} | ${row.answer} |\n`);
process.stdout.write(`\n${rows.filter((row) => row.pass).length} of ${rows.length} tasks passed\n`);
