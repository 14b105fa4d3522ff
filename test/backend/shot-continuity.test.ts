import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTINUITY_FIELDS, SNAPSHOT_CONTRACT_VERSION, type UpdateNodeReceipt } from '../../src/contract/index.js';
import { editorStage } from '../support/editor-stage.js';
import { api, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * "Continue from previous" on a shot (docs/storyboards.md, "Continuity"), over real HTTP on both stores: the shot takes
 * exactly the cast, location, lens and look of the shot before it (a field that shot lacks is removed), nothing else
 * of it changes, in one revision whose author is the person who asked; the first shot, a stale revision and a viewer
 * are refused, writing nothing.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const CONTINUE = (shotId: string) => `${CANVAS}/nodes/board/shots/${shotId}/continue-from-previous`;

type Frame = Record<string, unknown> & { id: string };

describe.each(STORE_TARGETS)('continue from previous: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let cookie: string;
    let viewer: string;

    const as = (request: ApiRequest = {}): ApiRequest => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });
    const snapshot = async () =>
      (
        await api(server.url, `${CANVAS}/snapshot`, {
          token: viewer,
          headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
        })
      ).body as { layout: { revision: number; nodes: Array<{ id: string; data: { frames: Frame[] } }> } };
    const frames = async () => (await snapshot()).layout.nodes.find((node) => node.id === 'board')!.data.frames;

    beforeAll(async () => {
      ({ server, cookie, viewer } = await editorStage(target));
      const board = {
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          title: 'Pier',
          frames: [
            { id: 's1', imageUrl: null, cast: ['KEEPER'], location: 'LIGHTHOUSE', lensMm: 24 },
            {
              id: 's2',
              imageUrl: null,
              number: '2',
              cast: ['MARA', 'TOM'],
              location: 'PIER',
              lensMm: 50,
              look: 'Dusk, sodium light',
              shotSize: 'WS',
              caption: 'They meet',
            },
            {
              id: 's3',
              imageUrl: null,
              number: '3',
              cast: ['MARA'],
              location: 'LIGHTHOUSE',
              lensMm: 85,
              look: 'Noon, hard sun',
              shotSize: 'CU',
              angle: 'low',
              caption: 'Her face',
              dialogue: 'MARA: Again.',
              status: 'approved',
            },
            { id: 's4', imageUrl: null, number: '4', lensMm: 35, cast: ['TOM'] },
          ],
        },
      };
      const created = await api(
        server.url,
        `${CANVAS}/nodes`,
        as({ method: 'POST', body: { node: board, base_revision: 0 } }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }, 60_000);
    afterAll(async () => server?.close());

    it('copies exactly the cast, location, lens and look of the shot before, in one revision by the person who asked', async () => {
      const before = await frames();
      const revision = (await snapshot()).layout.revision;
      const response = await api(server.url, CONTINUE('s3'), as({ method: 'POST', body: { base_revision: revision } }));
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect((response.body as UpdateNodeReceipt).revision).toBe(revision + 1);

      const after = await frames();
      const [s2, s3] = [after.find((frame) => frame.id === 's2')!, after.find((frame) => frame.id === 's3')!];
      for (const field of CONTINUITY_FIELDS) expect(s3[field], field).toEqual(s2[field]);
      expect(s3).toEqual({
        ...before.find((frame) => frame.id === 's3'),
        cast: ['MARA', 'TOM'],
        location: 'PIER',
        lensMm: 50,
        look: 'Dusk, sodium light',
      });
      // Every other shot is as it was.
      expect(after.filter((frame) => frame.id !== 's3')).toEqual(before.filter((frame) => frame.id !== 's3'));
      const history = (await api(server.url, `${CANVAS}/history?limit=1`, { token: viewer })).body as {
        revisions: Array<{ revision: number; author: { kind: string; subject?: string } }>;
      };
      expect(history.revisions[0]).toMatchObject({ revision: revision + 1, author: { kind: 'person', subject: 'ed' } });
    });

    it('removes a continuity field the shot before does not have, so the two match', async () => {
      // s3 loses its lens; s4, continuing from it, loses its own.
      const revision = (await snapshot()).layout.revision;
      const cleared = await api(
        server.url,
        `${CANVAS}/nodes/board`,
        as({
          method: 'PATCH',
          body: {
            base_revision: revision,
            set: {
              data: {
                title: 'Pier',
                frames: (await frames()).map((frame) => {
                  if (frame.id !== 's3') return frame;
                  const { lensMm: _lens, ...rest } = frame;
                  return rest;
                }),
              },
            },
          },
        }),
      );
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
      const response = await api(
        server.url,
        CONTINUE('s4'),
        as({ method: 'POST', body: { base_revision: revision + 1 } }),
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const s4 = (await frames()).find((frame) => frame.id === 's4')!;
      expect(s4).toEqual({
        id: 's4',
        imageUrl: null,
        number: '4',
        cast: ['MARA', 'TOM'],
        location: 'PIER',
        look: 'Dusk, sodium light',
      });
    });

    it('refuses the first shot, a stale revision and a viewer, writing nothing', async () => {
      const revision = (await snapshot()).layout.revision;
      const first = await api(server.url, CONTINUE('s1'), as({ method: 'POST', body: { base_revision: revision } }));
      expect(first.status).toBe(400);
      expect(JSON.stringify(first.body)).toContain('first of its board');
      const stale = await api(
        server.url,
        CONTINUE('s2'),
        as({ method: 'POST', body: { base_revision: revision - 1 } }),
      );
      expect(stale.status).toBe(409);
      const byViewer = await api(server.url, CONTINUE('s2'), {
        method: 'POST',
        token: viewer,
        body: { base_revision: revision },
      });
      expect(byViewer.status).toBe(403);
      const missing = await api(
        server.url,
        CONTINUE('nope'),
        as({ method: 'POST', body: { base_revision: revision } }),
      );
      expect(missing.status).toBe(404);
      expect((await snapshot()).layout.revision).toBe(revision);
    });
  });
});
