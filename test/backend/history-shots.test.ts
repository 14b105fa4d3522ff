import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryPage } from '../../src/contract/index.js';
import { editorStage } from '../support/editor-stage.js';
import { api, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * History says which shots a write changed (docs/ui.md, "History"), on both stores: with `shots=true` each storyboard
 * update names its shots and their fields, read from the change log; without it the page is as before.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

describe.each(STORE_TARGETS)('history of shots: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let headers: Record<string, string>;

    beforeAll(async () => {
      const stage = await editorStage(target);
      server = stage.server;
      headers = { cookie: stage.cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
    }, 60_000);
    afterAll(async () => server?.close());

    const frames = (lens: number, dialogue: string) => [
      { id: 's1', number: '1', imageUrl: null },
      { id: 's2', number: '2', imageUrl: null, lensMm: lens, dialogue },
    ];
    const write = async (revision: number, body: unknown) => {
      const response = await api(server.url, `${CANVAS}/nodes${revision === 0 ? '' : '/board'}`, {
        method: revision === 0 ? 'POST' : 'PATCH',
        headers,
        body,
      });
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      return (response.body as { revision: number }).revision;
    };

    it('names the shot and the fields of each edit, and leaves the plain page as it was', async () => {
      let revision = await write(0, {
        base_revision: 0,
        node: {
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: { title: 'Pier', frames: frames(35, 'Hello') },
        },
      });
      revision = await write(revision, {
        base_revision: revision,
        set: { data: { title: 'Pier', frames: frames(50, 'Hello') } },
      });
      await write(revision, {
        base_revision: revision,
        set: { data: { title: 'Pier', frames: frames(50, 'Hello again') } },
      });
      const detailed = HistoryPage.parse(
        (await api(server.url, `${CANVAS}/history?shots=true`, { headers })).body,
      ).revisions;
      expect(detailed.slice(0, 3).map((entry) => entry.shots)).toEqual([
        [{ node_id: 'board', shot_id: 's2', number: '2', change: 'update', fields: ['dialogue'] }],
        [{ node_id: 'board', shot_id: 's2', number: '2', change: 'update', fields: ['lensMm'] }],
        [
          { node_id: 'board', shot_id: 's1', number: '1', change: 'create', fields: [] },
          { node_id: 'board', shot_id: 's2', number: '2', change: 'create', fields: [] },
        ],
      ]);
      const plain = HistoryPage.parse((await api(server.url, `${CANVAS}/history`, { headers })).body).revisions;
      expect(plain.every((entry) => entry.shots === undefined)).toBe(true);
      const refused = await api(server.url, `${CANVAS}/history?shots=yes`, { headers });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('shots');
    });
  });
});
