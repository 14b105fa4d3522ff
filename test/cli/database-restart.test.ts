import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliProcess, serveProcess, type ServeProcess } from '../support/cli.js';
import { rawRequest } from '../support/raw-http.js';
import { openEvents } from '../support/sse.js';
import { POSTGRES_BINARIES, startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.js';
import { waitFor } from '../support/wait.js';

/**
 * A PostgreSQL restart while writes wait inside open transactions must not end `serve` or `worker`. They answer
 * `unavailable` (retryable) while the database is away and serve again by themselves within 5 s of its return: pool,
 * LISTEN connection and run engine loops.
 */

const required = process.env.CANVAS_MCP_REQUIRE_POSTGRES === '1';

interface ToolReply {
  result?: {
    isError?: boolean;
    structuredContent?: {
      layout?: { revision: number };
      error?: { code: string; retryable: boolean };
      status?: string;
    };
  };
}

describe.skipIf(!POSTGRES_BINARIES && !required)('serve and worker across a PostgreSQL restart', () => {
  let database: ThrowawayPostgres;
  let serve: ServeProcess;
  let worker: ServeProcess;
  let secondServe: ServeProcess | undefined;
  let url: string;
  let headers: Record<string, string>;
  // Asset files of every process here, never the working directory's ./data.
  let dataDir: string;

  beforeAll(async () => {
    database = await startThrowawayPostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-restart-'));
    serve = serveProcess([
      '--database-url',
      database.url,
      '--data',
      dataDir,
      '--port',
      '0',
      '--log-level',
      'warn',
      '--rate-limit',
      '0',
      '--workers',
      '1',
      '--run-duration-ms',
      '400',
      '--run-lease-ms',
      '2000',
    ]);
    [, url] = (await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)) as [string, string];
    const [, token] = (await serve.waitFor(/token \(shown once, keep it\):\s+(cmcp_\S+)/)) as [string, string];
    const [, chatRun] = (await serve.waitFor(/agent run id \(X-Agent-Run-Id\): (chat_\S+)/)) as [string, string];
    headers = {
      authorization: `Bearer ${token}`,
      'x-agent-run-id': chatRun,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    worker = cliProcess([
      'worker',
      '--database-url',
      database.url,
      '--data',
      dataDir,
      '--log-level',
      'warn',
      '--workers',
      '1',
      '--run-duration-ms',
      '400',
      '--run-lease-ms',
      '2000',
    ]);
    await worker.waitFor(/worker running/);
  }, 90_000);

  afterAll(async () => {
    for (const child of [serve, worker, secondServe]) {
      if (child && child.child.exitCode === null) {
        child.child.kill('SIGTERM');
        await child.exit;
      }
    }
    database?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown>) =>
    rawRequest(`${url}/mcp`, {
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: { project_id: 'demo', canvas_id: 'main', ...args } },
      }),
    });

  async function revision(): Promise<number> {
    const reply = (await call('get_canvas', {})).json as ToolReply;
    return reply.result!.structuredContent!.layout!.revision;
  }

  it('stays up through a fast restart with writes waiting on a locked canvas row, answering them cleanly', async () => {
    const base = await revision();
    // Another session holds the canvas row: the writes below wait inside their transactions.
    const blocker = new pg.Client({ connectionString: database.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query("SELECT revision FROM canvases WHERE project_id = 'demo' AND id = 'main' FOR UPDATE");
    const writes = Array.from({ length: 5 }, (_, index) =>
      call('create_canvas_node', {
        base_revision: base,
        node: {
          id: `during-restart-${index}`,
          type: 'textAnnotationNode',
          position: { x: 0, y: 0 },
          data: { content: 'x' },
        },
      }),
    );
    // Restart only once every write is waiting for the canvas row inside its transaction.
    const watcher = new pg.Client({ connectionString: database.url });
    await watcher.connect();
    try {
      await waitFor(
        async () =>
          Number(
            (
              await watcher.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
              )
            ).rows[0].n,
          ),
        (waiting) => waiting >= writes.length,
        10_000,
      );
    } finally {
      await watcher.end();
    }
    database.restart('fast');
    const answers = await Promise.all(writes);
    await blocker.end().catch(() => undefined);

    // Every waiting request got an HTTP answer (no connection reset): a tool error the caller may retry.
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const error = (answer.json as ToolReply).result?.structuredContent?.error;
      expect(error).toMatchObject({ code: 'unavailable', retryable: true });
    }
    expect(serve.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
    const started = Date.now();
    await waitFor(
      () => revision().catch(() => -1),
      (value) => value === base,
      5_000,
      100,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);

  it('answers unavailable while the database is down and serves again within 5 s of its return, runs included', async () => {
    database.stop('immediate');
    // Without the database the answer is `unavailable`, retryable. A token this process remembers (it was used a moment
    // ago; src/store/token-cache.ts) gets as far as the tool, which answers a tool error; a token it must look up
    // cannot be checked: an HTTP-level 503 whose JSON-RPC error says unavailable.
    const down = await call('get_canvas', {});
    expect([200, 503]).toContain(down.status);
    const unavailable =
      down.status === 503
        ? (down.json as { error: { data: unknown } }).error.data
        : (down.json as ToolReply).result?.structuredContent?.error;
    expect(unavailable).toMatchObject({ code: 'unavailable', retryable: true });
    const ready = await rawRequest(`${url}/readyz`, { method: 'GET' });
    expect(ready.status).toBe(503);
    expect(serve.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();

    database.start();
    const back = Date.now();
    const base = await waitFor(
      () => revision().catch(() => -1),
      (value) => value >= 0,
      5_000,
      100,
    );
    expect(Date.now() - back).toBeLessThan(5_000);
    expect((await rawRequest(`${url}/readyz`, { method: 'GET' })).status).toBe(200);
    const created = (
      await call('create_canvas_node', {
        base_revision: base,
        node: { id: 'after-restart', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'back' } },
      })
    ).json as ToolReply;
    expect(created.result?.isError).toBeFalsy();

    // The run engines (serve's and the worker's) claim and finish runs again.
    const submitted = await cli([
      'admin',
      'node-run',
      'submit',
      'demo',
      'main',
      'frame-1',
      '--database-url',
      database.url,
      '--json',
    ]);
    const runId = submitted.json!.run_id as string;
    const finished = await waitFor(
      async () =>
        ((await call('get_canvas_node_run', { run_id: runId })).json as ToolReply).result?.structuredContent?.status,
      (status) => status === 'succeeded',
      10_000,
      200,
    );
    expect(finished).toBe('succeeded');
    expect(serve.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();

    // Each outage (the restart above, this stop) is logged once when it starts and once when it ends, at warn, not once
    // per 503.
    const outageLines = serve
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"database'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; outage_ms?: number });
    const started = outageLines.filter((line) => line.msg.startsWith('database unavailable'));
    const ended = outageLines.filter((line) => line.msg === 'database available again');
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(started.length).toBeLessThanOrEqual(2);
    expect(ended).toHaveLength(started.length);
    expect([...started, ...ended].every((line) => line.level === 40)).toBe(true);
    expect(ended.at(-1)!.outage_ms).toBeGreaterThan(0);
  }, 60_000);

  it('delivers a write of another process to a feed of the restarted serve within 1 s, through its reconnected LISTEN', async () => {
    // This serve process lived through both restarts above: its LISTEN connection is the one that had to reconnect.
    // On PostgreSQL the feed has no polling fallback (feed-signals polls only SQLite's commit counter; readVersion is
    // null here): a write of another process reaches this feed only through that connection (its NOTIFY, or the one
    // re-read its reconnect triggers), so without the reconnect no event would come at all.
    secondServe = serveProcess([
      '--database-url',
      database.url,
      '--data',
      dataDir,
      '--port',
      '0',
      '--no-seed-demo',
      '--workers',
      '0',
      '--log-level',
      'warn',
      '--rate-limit',
      '0',
    ]);
    const [, secondUrl] = (await secondServe.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)) as [string, string];
    const feedToken = await cli([
      'admin',
      'token',
      'create',
      '--name',
      'feed',
      '--project',
      'demo',
      '--role',
      'viewer',
      '--kind',
      'backend',
      '--database-url',
      database.url,
      '--json',
    ]);
    const base = await revision();
    const reader = await openEvents(`${url}/api/v2/projects/demo/canvases/main/events?after=${base}`, {
      authorization: `Bearer ${feedToken.json!.token as string}`,
    });
    const writeElsewhere = (baseRevision: number, id: string) =>
      rawRequest(`${secondUrl}/mcp`, {
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'create_canvas_node',
            arguments: {
              project_id: 'demo',
              canvas_id: 'main',
              base_revision: baseRevision,
              node: { id, type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: id } },
            },
          },
        }),
      });
    const layoutEvent = (revision: number) =>
      reader.waitFor((event) => event.event === 'layout' && event.id === String(revision), 5_000);
    try {
      expect(reader.status).toBe(200);
      // The first write may race the subscription (?after replays it then); once its event is here, the subscriber
      // is registered and the second write's event can only come live.
      expect(((await writeElsewhere(base, 'notified-1')).json as ToolReply).result?.isError).toBeFalsy();
      await layoutEvent(base + 1);
      const since = Date.now();
      expect(((await writeElsewhere(base + 1, 'notified-2')).json as ToolReply).result?.isError).toBeFalsy();
      const event = await layoutEvent(base + 2);
      expect(event.at - since, `the event took ${event.at - since} ms`).toBeLessThan(1_000);
      expect(event.data).toMatchObject({
        revision: base + 2,
        changes: [{ kind: 'node', id: 'notified-2', change: 'create' }],
      });
    } finally {
      reader.close();
    }
  }, 60_000);
});
