import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRuntimeState } from '../../src/contract/index.js';
import { canvasWithFinishedImage } from '../support/finished-image.js';
import { api, signInWithLink, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { IDP } from './world.js';

/**
 * An owner duplicates a canvas with or without its run results. With them, each node's latest succeeded result is on
 * the copy, its bytes copied under new asset ids and charged nothing; without, the copy holds the layout only. Real
 * HTTP, a real run on the local provider, both stores.
 */

const PROJECT = '/api/v1/projects/film';

describe.each(STORE_TARGETS)('duplicating a canvas with its run results: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let cookie = '';
    let image: Buffer;
    let originalAssetId = '';

    beforeAll(async () => {
      server = await startTestServer(target, { workers: 1, runDurationMs: 0, rateLimitPerMinute: 1_000_000 });
      const finished = await canvasWithFinishedImage(server);
      image = finished.image;
      originalAssetId = finished.run.outputs[0]!.asset_id;
      await server.store.projects.addMember('film', { issuer: IDP, subject: 'olga' }, 'owner');
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'olga' },
        { expiresInMs: 60_000 },
      );
      cookie = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
    }, 60_000);
    afterAll(async () => server?.close());

    const asOlga = (request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });
    const statesOf = async (canvas: string) => {
      const snapshot = await api(
        server.url,
        `/api/v2/projects/film/canvases/${canvas}/snapshot`,
        asOlga({ headers: { 'x-canvas-snapshot-version': 'canvas-snapshot.v2' } }),
      );
      expect(snapshot.status).toBe(200);
      return (snapshot.body as { node_states: Record<string, NodeRuntimeState> }).node_states;
    };

    it('with results: the copy shows the same image under a new asset, charged nothing, and the audit log says so', async () => {
      const spentBefore = (await server.store.runs.budget('film')).spent;
      const copy = await api(
        server.url,
        `${PROJECT}/canvases/board/duplicate`,
        asOlga({ method: 'POST', body: { canvas_id: 'board-with', with_results: true } }),
      );
      expect(copy.status, JSON.stringify(copy.body)).toBe(201);

      const state = (await statesOf('board-with')).fox!;
      expect(state.lastRunStatus).toBe('succeeded');
      expect(state.outputs).toHaveLength(1);
      const output = state.outputs[0]!;
      expect(output.asset_id).not.toBe(originalAssetId);
      expect(state.resources.map((resource) => [resource.asset_id, resource.status])).toEqual([
        [output.asset_id, 'ready'],
      ]);
      const fetched = await fetch(`${server.url}${output.url}`);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer())).toEqual(image);

      const copiedRun = await api(
        server.url,
        `/api/v2/projects/film/canvases/board-with/runs/${state.externalRunId}`,
        asOlga(),
      );
      expect(copiedRun.body).toMatchObject({
        status: 'succeeded',
        node_id: 'fox',
        canvas_id: 'board-with',
        provider: 'local',
        cost: { charged: 0 },
      });
      expect((await server.store.runs.budget('film')).spent).toBe(spentBefore);
      const asset = await server.store.assets.getAsset(output.asset_id);
      expect(asset).toMatchObject({ canvasId: 'board-with', byteSize: image.length });

      const audit = (await api(server.url, `${PROJECT}/audit`, asOlga())).body as {
        entries: Array<{ action: string; target: string; details: Record<string, unknown> }>;
      };
      expect(
        audit.entries.find((entry) => entry.action === 'canvas.duplicated' && entry.target === 'board-with')?.details,
      ).toMatchObject({ from: 'board', results: 1, results_left_out: [] });
    });

    it('without results: the copy holds the layout and no run state', async () => {
      const copy = await api(
        server.url,
        `${PROJECT}/canvases/board/duplicate`,
        asOlga({ method: 'POST', body: { canvas_id: 'board-plain' } }),
      );
      expect(copy.status, JSON.stringify(copy.body)).toBe(201);
      expect(await statesOf('board-plain')).toEqual({});
      expect(Object.keys(await statesOf('board'))).toEqual(['fox']);
    });

    it('a result whose bytes are gone is left out and named; the rest of the copy stands', async () => {
      const file = join(server.server.config.dataDir, 'assets', originalAssetId);
      renameSync(file, `${file}.away`);
      try {
        const copy = await api(
          server.url,
          `${PROJECT}/canvases/board/duplicate`,
          asOlga({ method: 'POST', body: { canvas_id: 'board-gone', with_results: true } }),
        );
        expect(copy.status, JSON.stringify(copy.body)).toBe(201);
        expect(await statesOf('board-gone')).toEqual({});
        const audit = (await api(server.url, `${PROJECT}/audit`, asOlga())).body as {
          entries: Array<{ action: string; target: string; details: Record<string, unknown> }>;
        };
        expect(audit.entries.find((entry) => entry.target === 'board-gone')?.details).toMatchObject({
          results: 0,
          results_left_out: ['fox'],
        });
      } finally {
        renameSync(`${file}.away`, file);
      }
    });
  });
});
