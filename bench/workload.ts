import autocannon from 'autocannon';
import { SYSTEM_WRITE } from '../src/store/edit-authorization.js';
import { CanvasNode } from '../src/contract/index.js';
import { openStore, sqliteFileIn, type Store, type StoreLocation } from '../src/store/store.js';
import type { NewToken } from '../src/store/token-store.js';
import { DEMO_OWNER } from '../src/server/demo-seed.js';
import { cpuMillis, rssMegabytes } from './process-stats.js';

/** What the benches share: the node mix, the seeded store, MCP request shapes and one autocannon measurement. */

export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Seconds of load before each measurement (BENCH_WARMUP; default a fifth of the measurement, at least 1). */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? Math.max(1, Math.round(DURATION / 5)));
export type Era = 'legacy' | 'modern';

export interface Measurement {
  target: string;
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuPerCallMs: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  errors: number;
}

export function node(index: number): CanvasNode {
  const position = { x: (index % 40) * 360, y: Math.floor(index / 40) * 280 };
  const id = `n${index}`;
  switch (index % 4) {
    case 0:
      return CanvasNode.parse({
        id,
        type: 'imageGenNode',
        position,
        data: {
          displayName: `Frame ${index}`,
          prompt: `Shot ${index}: a lighthouse keeper climbs the stairs as the storm hits the windows, low angle, cinematic`,
          size: '1K',
          count: 1,
          imageUrl: null,
          aspectRatio: '16:9',
        },
      });
    case 1:
      return CanvasNode.parse({
        id,
        type: 'textAnnotationNode',
        position,
        data: { displayName: `Note ${index}`, content: `Keep the lamp as the only warm light in shot ${index}.` },
      });
    case 2:
      return CanvasNode.parse({
        id,
        type: 'audioNode',
        position,
        data: {
          displayName: `Line ${index}`,
          audioUrl: null,
          audioKind: 'speech',
          text: 'The sea had been waiting for her.',
        },
      });
    default:
      return CanvasNode.parse({
        id,
        type: 'skillNode',
        position,
        data: {
          skill_id: 'zone.sketch_from_context',
          skill_schema_version: 'skill.v1',
          parameters: { aspect_ratio: '16:9' },
        },
      });
  }
}

/**
 * A canvas holds at most 20,000 nodes (LIMITS.canvasNodes): sequential creates fill one write canvas up to
 * WRITE_CANVAS_FILL, then go on on the next, so every measured create is a real write, never a "canvas full" refusal.
 */
export const WRITE_CANVASES = 16;
export const WRITE_CANVAS_FILL = 15_000;
export const writeCanvas = (index: number) => `writes-${index}`;

/**
 * A bench's token: on the bench project, no workspace, no expiry, acting for nobody, unless `token` says otherwise
 * (the benches on the demo's project name theirs).
 * Answers the secret a client presents and the token's id.
 */
export function benchToken(
  store: Store,
  token: Pick<NewToken, 'name' | 'kind' | 'role'> & Partial<NewToken>,
): Promise<{ tokenId: string; secret: string }> {
  return store.tokens.createToken({
    projects: ['bench'],
    workspaces: [],
    actor: null,
    expiresAt: null,
    ...token,
  });
}

/**
 * The headers of a script acting for the demo's owner on the demo project: it writes as that person (the REST API
 * takes no agent tokens), through a backend token made for it.
 */
export async function demoOwnerScript(store: Store, name: string): Promise<Record<string, string>> {
  const { secret } = await benchToken(store, {
    name,
    kind: 'backend',
    role: 'editor',
    projects: ['demo'],
    actor: { issuer: 'canvas-mcp', subject: 'demo-owner' },
  });
  return {
    authorization: `Bearer ${secret}`,
    'x-service-actor-issuer': 'canvas-mcp',
    'x-service-actor-subject': 'demo-owner',
  };
}

export async function seed(
  where: string | StoreLocation,
  sizes: readonly number[],
): Promise<{ token: string; chatRuns: string[] }> {
  const store = await openStore(typeof where === 'string' ? { kind: 'sqlite', file: sqliteFileIn(where) } : where);
  await store.projects.createWorkspace('bench');
  await store.projects.createProject('bench', 'bench');
  for (const size of sizes) {
    await store.projects.createCanvas('bench', `c${size}`, false);
    for (let index = 0; index < size; index += 1) {
      await store.writes.createNode(
        {
          projectId: 'bench',
          canvasId: `c${size}`,
          baseRevision: index,
          clientSaveId: null,
          authorization: SYSTEM_WRITE,
        },
        node(index),
      );
    }
  }
  const { tokenId, secret } = await benchToken(store, { name: 'bench', kind: 'agent', role: 'editor' });
  const chatRuns: string[] = [];
  for (let index = 0; index < WRITE_CANVASES; index += 1) {
    await store.projects.createCanvas('bench', writeCanvas(index), false);
    // A chat run grants edits to one canvas, and only to the token (or person) it is bound to.
    chatRuns.push(
      await store.chatRuns.createChatRun({
        projectId: 'bench',
        canvasId: writeCanvas(index),
        actor: null,
        tokenId,
        canEdit: true,
        expiresAt: null,
      }),
    );
  }
  await store.close();
  return { token: secret, chatRuns };
}

export const mcpHeaders = (token?: string, era: Era = 'legacy') => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-06-18',
  ...(era === 'modern' ? { 'mcp-method': 'tools/call', 'mcp-name': 'get_canvas' } : {}),
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

/** A 2026-07-28 request names its version and capabilities in `_meta`, with no initialize before it. */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

export const getCanvasBody = (canvasId: string, era: Era = 'legacy') =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'get_canvas',
      arguments: { project_id: 'bench', canvas_id: canvasId },
      ...(era === 'modern' ? { _meta: MODERN_META } : {}),
    },
  });

/** One call, checked: the answer must hold the snapshot with the expected number of nodes. */
export async function fetchSnapshot(
  url: string,
  canvasId: string,
  token: string | undefined,
  expectedNodes: number,
  era: Era = 'legacy',
): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: mcpHeaders(token, era),
    body: getCanvasBody(canvasId, era),
  });
  const text = await response.text();
  const json = text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6).trim() : text;
  const parsed = JSON.parse(json) as { result?: { structuredContent: { layout: { nodes: unknown[] } } } };
  if (!parsed.result) throw new Error(`${url} ${canvasId}: ${json.slice(0, 300)}`);
  const structured = parsed.result.structuredContent;
  if (!structured?.layout) throw new Error(`${url} ${canvasId}: ${json.slice(0, 400)}`);
  if (structured.layout.nodes.length !== expectedNodes)
    throw new Error(`${url} served ${structured.layout.nodes.length} nodes, expected ${expectedNodes}`);
  return structured as unknown as Record<string, unknown>;
}

/**
 * One measurement: a warm-up (WARMUP seconds unless given), then DURATION seconds, with the server's CPU time read from /proc around it. Several
 * option sets run at once as independent load generators (one per writer: autocannon resets a connection's context
 * after each request sequence, so a connection cannot keep a canvas of its own); their counts add up.
 */
export async function measure(
  target: string,
  scenario: string,
  pid: number | number[],
  options: autocannon.Options | autocannon.Options[],
  warmupSeconds = WARMUP,
): Promise<Measurement> {
  const all = Array.isArray(options) ? options : [options];
  await Promise.all(all.map((each) => autocannon({ ...each, duration: warmupSeconds })));
  const pids = Array.isArray(pid) ? pid : [pid];
  const cpuOf = () => pids.reduce((sum, each) => sum + cpuMillis(each), 0);
  const rssOf = () => pids.reduce((sum, each) => sum + rssMegabytes(each), 0);
  const rssBefore = rssOf();
  const cpuBefore = cpuOf();
  const results = await Promise.all(all.map((each) => autocannon({ ...each, duration: DURATION })));
  const cpu = cpuOf() - cpuBefore;
  const calls = results.reduce((sum, result) => sum + result.requests.total, 0);
  const sorted = (pick: (result: autocannon.Result) => number) => results.map(pick).sort((a, b) => a - b);
  return {
    target,
    scenario,
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p50: sorted((result) => result.latency.p50)[Math.floor(results.length / 2)]!,
    p99: sorted((result) => result.latency.p99).at(-1)!,
    cpuPerCallMs: calls > 0 ? cpu / calls : Number.NaN,
    rssBeforeMb: rssBefore,
    rssAfterMb: rssOf(),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx + result.timeouts, 0),
  };
}

export function format(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** One create_canvas_node JSON-RPC call on a write canvas at the revision its writer is at. */
export function createNodeBody(canvas: number, revision: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: revision,
    method: 'tools/call',
    params: {
      name: 'create_canvas_node',
      arguments: {
        project_id: 'bench',
        canvas_id: writeCanvas(canvas),
        base_revision: revision,
        node: { ...node(revision), id: `w${revision}` },
      },
    },
  });
}

/**
 * The people of a review bench on a started `serve`'s data: viewer tokens for the open pages (one per `perToken`
 * feeds) and the demo owner signed in as a page would be (its cookie and a page's write headers).
 */
export async function reviewPeople(
  dataDir: string,
  url: string,
  options: { pages: number; perToken: number; name: string },
): Promise<{ readers: string[]; headers: Record<string, string> }> {
  const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
  const readers: string[] = [];
  for (let index = 0; index < Math.ceil(options.pages / options.perToken); index += 1)
    readers.push(
      (
        await benchToken(store, {
          name: `${options.name}-${index}`,
          kind: 'backend',
          role: 'viewer',
          projects: ['demo'],
        })
      ).secret,
    );
  const link = await store.sessions.createLoginLink(DEMO_OWNER, { expiresInMs: 60_000 });
  const { sessionSecret } = await store.sessions.signIn(link, {
    idleMs: 3_600_000,
    absoluteMs: 86_400_000,
    rememberMs: 86_400_000,
  });
  await store.close();
  return {
    readers,
    headers: {
      cookie: `canvas_mcp_session=${sessionSecret}`,
      origin: url,
      'x-requested-by': 'canvas-mcp',
      'content-type': 'application/json',
    },
  };
}
