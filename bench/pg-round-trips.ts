import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadServeConfig } from '../src/config/index.js';
import { startServer } from '../src/server/server.js';
import { createLogger } from '../src/shared/logger.js';
import { openStore } from '../src/store/store.js';
import { benchToken, mcpHeaders, seed, writeCanvas } from './workload.js';
import { POSTGRES_ADMIN_URL, withThrowawayDatabase } from './throwaway-database.js';

/**
 * `npm run bench` (part): what one write costs on PostgreSQL, counted. A real server runs in this process on a database
 * of its own; every message the `pg` client sends is counted (a round trip: one message and its answer) with the
 * statements it holds, while an agent creates, patches and deletes a node and sends a batch through /mcp, the whole
 * request: authentication, rights, the write transaction, the notification.
 */

interface Count {
  roundTrips: number;
  statements: number;
}

export async function countRoundTrips(): Promise<Record<string, Count> | null> {
  return withThrowawayDatabase('canvas_trips', async (databaseUrl) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-trips-'));
    try {
      await seed({ kind: 'postgres', url: databaseUrl }, []);
      // An agent with the edit tool set (batches and PATCH-like updates go through apply_canvas_changes) and a chat run.
      const store = await openStore({ kind: 'postgres', url: databaseUrl });
      const { tokenId, secret: token } = await benchToken(store, {
        name: 'round trips',
        kind: 'agent',
        role: 'editor',
        toolSets: ['edit'],
      });
      const chatRun = await store.chatRuns.createChatRun({
        projectId: 'bench',
        canvasId: writeCanvas(0),
        actor: null,
        tokenId,
        canEdit: true,
        expiresAt: null,
      });
      await store.close();
      const config = loadServeConfig(
        {
          port: 0,
          dataDir,
          databaseUrl: databaseUrl,
          seedDemo: false,
          workers: 0,
          rateLimitPerMinute: 0,
          logLevel: 'silent',
        },
        {},
      );
      const server = await startServer(config, { logger: createLogger('silent') });
      const counted: Count = { roundTrips: 0, statements: 0 };
      const query = pg.Client.prototype.query;
      // Every message a pooled client sends: its text holds one statement, or several joined by `;\n`.
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0] as string | { text?: string };
        const text = typeof first === 'string' ? first : (first?.text ?? '');
        counted.roundTrips += 1;
        counted.statements += text.split(';\n').length;
        if (process.env.BENCH_TRIPS_SHOW) process.stdout.write(`${text.replace(/\s+/g, ' ').slice(0, 140)}\n`);
        return (query as (...all: unknown[]) => unknown).apply(this, args);
      } as typeof pg.Client.prototype.query;
      try {
        const canvas = writeCanvas(0);
        const headers = { ...mcpHeaders(token), 'x-agent-run-id': chatRun };
        let revision = 0;
        const call = async (name: string, args: Record<string, unknown>) => {
          const response = await fetch(`${server.url}/mcp`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
          });
          const body = (await response.json()) as {
            result?: { isError?: boolean; structuredContent?: { revision?: number } };
          };
          if (body.result?.isError || !body.result) throw new Error(`${name}: ${JSON.stringify(body)}`);
          revision = body.result.structuredContent?.revision ?? revision;
        };
        const ids = { project_id: 'bench', canvas_id: canvas };
        const node = (id: string) => ({
          id,
          type: 'textAnnotationNode',
          position: { x: 0, y: 0 },
          data: { content: id },
        });
        const measured: Record<string, Count> = {};
        const measure = async (label: string, work: () => Promise<void>) => {
          // Warm once (prepared caches, the pool's connections), then count the second.
          await work();
          counted.roundTrips = 0;
          counted.statements = 0;
          await work();
          measured[label] = { ...counted };
        };
        let index = 0;
        await measure('create_canvas_node', () =>
          call('create_canvas_node', { ...ids, base_revision: revision, node: node(`n${(index += 1)}`) }),
        );
        await measure('update (PATCH) through apply_canvas_changes', () =>
          call('apply_canvas_changes', {
            ...ids,
            base_revision: revision,
            operations: [{ op: 'update_node', node_id: `n${index}`, set: { position: { x: index, y: 1 } } }],
          }),
        );
        await measure('delete_canvas_node', async () => {
          await call('create_canvas_node', { ...ids, base_revision: revision, node: node(`d${(index += 1)}`) });
          const before = { ...counted };
          await call('delete_canvas_node', { ...ids, base_revision: revision, node_id: `d${index}` });
          counted.roundTrips -= before.roundTrips;
          counted.statements -= before.statements;
        });
        await measure('a batch of 10 creates', () =>
          call('apply_canvas_changes', {
            ...ids,
            base_revision: revision,
            operations: Array.from({ length: 10 }, () => ({ op: 'create_node', node: node(`b${(index += 1)}`) })),
          }),
        );
        return measured;
      } finally {
        pg.Client.prototype.query = query;
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const counts = await countRoundTrips();
  if (!counts)
    process.stdout.write(`\nPostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: round trips not counted.\n`);
  else
    process.stdout.write(
      `\nPostgreSQL round trips per request through /mcp (an agent with a chat run; authentication and rights included):\n| request | round trips | statements |\n|---|---:|---:|\n${Object.entries(
        counts,
      )
        .map(([label, count]) => `| ${label} | ${count.roundTrips} | ${count.statements} |`)
        .join('\n')}\n`,
    );
}
