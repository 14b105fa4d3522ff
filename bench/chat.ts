import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { openStore, sqliteFileIn } from '../src/store/store.js';
import { plannedAgent } from '../test/agent/chat-support.js';
import { scripted, startModelStandin, type Brain } from '../test/support/model-standin.js';
import { cpuMillis } from './process-stats.js';
import { ROOT, startProcess } from './processes.js';
import { benchToken } from './workload.js';

/**
 * `npm run bench` (part): the canvas chat against the built server, with the local model stand-in in this process (so
 * the server's CPU is the server's alone):
 * - server CPU per tool call of the in-product agent (the loop, its MCP client, and the tool server it calls) against
 *   the same calls from an external client (target ≤ 1.2×);
 * - a tool call the model sends → the card visible in a second open page (p99, target < 300 ms);
 * - the first token the model sends → relayed to the person's stream (p50/p99, target < 50 ms).
 */

const CLI = join(ROOT, 'dist/cli/main.js');
const CHROMIUM = process.env.CANVAS_MCP_CHROMIUM ?? '/usr/bin/chromium';
const CALLS = Number(process.env.BENCH_CHAT_CALLS ?? 40);
const PERSON = { issuer: 'bench', subject: 'ana' };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const note = (id: string, index: number) => ({
  id,
  type: 'textAnnotationNode',
  position: { x: (index % 10) * 320, y: 400 + Math.floor(index / 10) * 240 },
  data: { content: id },
});

async function seed(dataDir: string) {
  const store = await openStore({ kind: 'sqlite', file: sqliteFileIn(dataDir) });
  try {
    await store.projects.createWorkspace('w');
    await store.projects.createProject('p', 'w');
    for (const canvas of ['inproduct', 'external', 'live', 'tokens'])
      await store.projects.createCanvas('p', canvas, false);
    await store.projects.addMember('p', PERSON, 'editor');
    await store.projects.addMember('p', { issuer: 'bench', subject: 'watcher' }, 'viewer');
    const { tokenId, secret } = await benchToken(store, {
      name: 'external',
      kind: 'agent',
      role: 'editor',
      projects: ['p'],
    });
    const chatRun = await store.chatRuns.createChatRun({
      projectId: 'p',
      canvasId: 'external',
      actor: null,
      tokenId,
      canEdit: true,
      expiresAt: null,
    });
    const links = [
      await store.sessions.createLoginLink(PERSON, { expiresInMs: 600_000 }),
      await store.sessions.createLoginLink({ issuer: 'bench', subject: 'watcher' }, { expiresInMs: 600_000 }),
    ];
    return { token: secret, chatRun, links };
  } finally {
    await store.close();
  }
}

async function session(url: string, link: string): Promise<string> {
  const response = await fetch(`${url}/auth/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: link }),
  });
  return response.headers.get('set-cookie')!.split(';', 1)[0]!;
}

async function mcp(
  url: string,
  headers: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/mcp/`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return ((await response.json()) as { result: { structuredContent: Record<string, unknown> } }).result
    .structuredContent;
}

export async function measureChat() {
  const model = await startModelStandin('openai');
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-chat-'));
  const { token, chatRun, links } = await seed(dataDir);
  const { child, url } = await startProcess(
    [
      CLI,
      'serve',
      '--data',
      dataDir,
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--workers',
      '0',
      '--log-level',
      'warn',
      '--no-seed-demo',
      '--chat-max-steps',
      '100',
    ],
    join(dataDir, 'serve.log'),
    {
      env: {
        CANVAS_MCP_MODEL_PROVIDER: 'openai-compatible',
        CANVAS_MCP_MODEL: 'standin',
        CANVAS_MCP_MODEL_BASE_URL: model.baseUrl,
        CANVAS_MCP_MODEL_API_KEY: 'sk-bench',
      },
    },
  );
  const pid = child.pid!;
  const cookie = await session(url, links[0]!);
  const headers = { cookie, origin: url, 'x-requested-by': 'canvas-mcp', 'content-type': 'application/json' };
  const conversations = (canvas: string) => `${url}/api/v2/projects/p/canvases/${canvas}/conversations`;

  /** One turn on a canvas with the given brain; answers when the turn is over. */
  const turn = async (canvas: string, brain: Brain, text: string, onChunk?: (line: string) => void) => {
    model.setBrain(brain);
    const conversation = (await (
      await fetch(conversations(canvas), { method: 'POST', headers, body: '{}' })
    ).json()) as { conversation_id: string };
    const response = await fetch(`${conversations(canvas)}/${conversation.conversation_id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ message: { id: `m-${Date.now()}`, text } }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onChunk?.(value);
    }
  };

  try {
    // Warm both paths (JIT, caches) on other canvases first.
    const on = (canvas_id: string) => ({ project_id: 'p', canvas_id });
    await turn(
      'tokens',
      plannedAgent(
        Array.from({ length: 5 }, (_, index) => ({ create: note(`warm-${index}`, index) })),
        'Done.',
        on('tokens'),
      ),
      'warm up',
    );
    for (let index = 0; index < 5; index += 1) {
      const base = (
        (
          await mcp(url, { authorization: `Bearer ${token}`, 'x-agent-run-id': chatRun }, 'get_canvas', {
            project_id: 'p',
            canvas_id: 'external',
          })
        ).layout as { revision: number }
      ).revision;
      await mcp(url, { authorization: `Bearer ${token}`, 'x-agent-run-id': chatRun }, 'create_canvas_node', {
        project_id: 'p',
        canvas_id: 'external',
        base_revision: base,
        node: note(`warm-${index}`, index),
      });
    }

    // 1. Server CPU per tool call: one read, then CALLS creates, each at the revision the last one answered.
    const inProductStart = cpuMillis(pid);
    await turn(
      'inproduct',
      plannedAgent(
        Array.from({ length: CALLS }, (_, index) => ({ create: note(`a-${index}`, index) })),
        'Done.',
        on('inproduct'),
      ),
      'add the notes',
    );
    const inProductMs = cpuMillis(pid) - inProductStart;
    const externalStart = cpuMillis(pid);
    const agent = { authorization: `Bearer ${token}`, 'x-agent-run-id': chatRun };
    let revision = (
      (await mcp(url, agent, 'get_canvas', { project_id: 'p', canvas_id: 'external' })).layout as { revision: number }
    ).revision;
    for (let index = 0; index < CALLS; index += 1) {
      revision = (
        await mcp(url, agent, 'create_canvas_node', {
          project_id: 'p',
          canvas_id: 'external',
          base_revision: revision,
          node: note(`a-${index}`, index),
        })
      ).revision as number;
    }
    const externalMs = cpuMillis(pid) - externalStart;
    const calls = CALLS + 1;

    // 2. A tool call the model sends → the card in a second open page.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const delays: number[] = [];
    try {
      const context = await browser.newContext({ viewport: { width: 3840, height: 2160 } });
      const page: Page = await context.newPage();
      await context.addCookies([
        { name: 'canvas_mcp_session', value: (await session(url, links[1]!)).split('=')[1]!, url },
      ]);
      await page.goto(`${url}/p/p/c/live`);
      await page.locator('.feed-live').waitFor({ timeout: 30_000 });
      await page.evaluate(`(() => {
        const seen = {};
        new MutationObserver(() => {
          for (const element of document.querySelectorAll('.react-flow__node')) {
            const id = element.dataset.id;
            if (id && !(id in seen)) seen[id] = performance.timeOrigin + performance.now();
          }
        }).observe(document.body, { childList: true, subtree: true });
        window.seen = seen;
      })()`);
      const live = Array.from({ length: 30 }, (_, index) => ({ create: note(`live-${index}`, index) }));
      const first = model.requests.length;
      await turn('live', plannedAgent(live, 'Done.', on('live')), 'add notes while someone watches');
      // The turn's requests: one read, then one create per step (then the answer).
      const sentAt = model.firstChunkAt
        .slice(first + 1, first + 1 + live.length)
        .map((at) => performance.timeOrigin + at);
      const historyPage = (await (
        await fetch(`${url}/api/v2/projects/p/canvases/live/history?limit=100`, { headers: { cookie } })
      ).json()) as { revisions: Array<{ at: string; changes: Array<{ id: string }> }> };
      const committedAt = new Map(historyPage.revisions.map((entry) => [entry.changes[0]?.id, Date.parse(entry.at)]));
      for (const [index, sent] of sentAt.entries()) {
        const shown = (await page.evaluate(`window.seen[${JSON.stringify(`live-${index}`)}]`)) as number | undefined;
        if (process.env.BENCH_DEBUG)
          process.stderr.write(
            `live-${index}: committed +${((committedAt.get(`live-${index}`) ?? NaN) - sent).toFixed(0)} ms, shown +${((shown ?? NaN) - sent).toFixed(0)} ms\n`,
          );
        if (shown !== undefined) delays.push(shown - sent);
      }
      await context.close();
    } finally {
      await browser.close();
    }

    // 3. The first token the model sends → relayed in the person's stream.
    const relays: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      let arrived: number | null = null;
      await turn(
        'tokens',
        scripted({ text: 'A considered answer, streamed word by word.', chunkDelayMs: 5 }),
        `question ${index}`,
        (text) => {
          if (arrived === null && text.includes('"text-delta"')) arrived = performance.now();
        },
      );
      relays.push(arrived! - model.firstChunkAt.at(-1)!);
    }
    return { calls, inProductMs, externalMs, delays, relays };
  } finally {
    child.kill('SIGTERM');
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureChat();
  const perCall = (ms: number) => ms / figures.calls;
  const ratio = perCall(figures.inProductMs) / perCall(figures.externalMs);
  const lines = [
    '| measure | figure | target |',
    '|---|---:|---:|',
    `| server CPU per tool call, in-product agent (1 read + ${figures.calls - 1} creates, one per model step; loop, MCP client and tool server) | ${perCall(figures.inProductMs).toFixed(2)} ms | |`,
    `| server CPU per tool call, external client (the same calls over HTTP) | ${perCall(figures.externalMs).toFixed(2)} ms | |`,
    `| in-product ÷ external | ${ratio.toFixed(2)}× | ≤ 1.2× |`,
    `| model tool call → card visible in a second page (p50 / p99 / max, ${figures.delays.length} calls) | ${percentile(figures.delays, 50).toFixed(0)} / ${percentile(figures.delays, 99).toFixed(0)} / ${Math.max(...figures.delays).toFixed(0)} ms | p99 < 300 ms |`,
    `| first token sent by the model → relayed to the person's stream (p50 / p99, ${figures.relays.length} turns) | ${percentile(figures.relays, 50).toFixed(1)} / ${percentile(figures.relays, 99).toFixed(1)} ms | < 50 ms |`,
  ];
  process.stdout.write(`\ncanvas chat (model stand-in in the bench process):\n${lines.join('\n')}\n`);
}
