import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, type CanvasLayout } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { api, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { readLayout, signedInPerson } from '../support/canvas-reads.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { IDP } from './world.js';

/**
 * Tidy over real HTTP on both stores: three connected cards piled on each other are laid out left to right along their
 * connections, six loose cards in rows, each as one revision that changes positions only and covers no card left out;
 * nodes of two parents, a node that is not there, a stale revision and a viewer are refused, and nothing is written.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const SIZE = { width: 280, height: 200 };

interface Placed {
  id: string;
  position: { x: number; y: number };
  data: Record<string, unknown>;
}

const card = (id: string, x: number, y: number, parentId?: string) => ({
  id,
  type: 'textAnnotationNode',
  position: { x, y },
  ...(parentId ? { parentId } : {}),
  data: { content: id },
});

const overlap = (a: Placed, b: Placed) =>
  a.position.x < b.position.x + SIZE.width &&
  a.position.x + SIZE.width > b.position.x &&
  a.position.y < b.position.y + SIZE.height &&
  a.position.y + SIZE.height > b.position.y;

describe.each(STORE_TARGETS)('tidy: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let asEd: (request?: ApiRequest) => ApiRequest;
    let viewer: string;

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      const { projects, writes } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      const nodes = [
        card('a', 0, 0),
        card('b', 30, 20),
        card('c', 10, 40),
        card('elsewhere', 700, 0),
        ...['g1', 'g2', 'g3', 'g4', 'g5', 'g6'].map((id, index) => card(id, 2000 + index * 5, 2000 + index * 5)),
        { id: 'group', type: 'groupNode', position: { x: -2000, y: 0 }, width: 800, height: 600, data: { label: 'G' } },
        card('inside', 20, 40, 'group'),
      ];
      await writes.applyBatch(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        [
          ...nodes.map((node) => ({ op: 'create_node' as const, node: CanvasNode.parse(node) })),
          // Connected c → a → b: the flow reads them in that order.
          { op: 'create_edge' as const, edge: { id: 'ca', source: 'c', target: 'a' } },
          { op: 'create_edge' as const, edge: { id: 'ab', source: 'a', target: 'b' } },
        ],
      );
      // A person edits (a token writes only for an agent with a chat run, or for a person it names).
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      asEd = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
      viewer = await projectToken(server.store, 'p', 'viewer');
    }, 60_000);
    afterAll(async () => server?.close());

    const read = async () => (await readLayout(server, 'p', 'c', viewer)) as CanvasLayout & { nodes: Placed[] };
    const tidy = (body: Record<string, unknown>, token?: string) =>
      api(server.url, `${CANVAS}/tidy`, {
        ...(token ? { token } : asEd()),
        method: 'POST',
        body: { client_save_id: null, ...body },
      });
    const at = (layout: { nodes: Placed[] }, id: string) => layout.nodes.find((node) => node.id === id)!;

    it('lays connected cards out left to right along their connections, in one revision of positions only', async () => {
      const before = await read();
      const answer = await tidy({ base_revision: before.revision, node_ids: ['a', 'b', 'c'] });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const after = await read();
      expect(after.revision).toBe(before.revision + 1);
      const [a, b, c] = ['a', 'b', 'c'].map((id) => at(after, id));
      expect(c!.position.x).toBeLessThan(a!.position.x);
      expect(a!.position.x).toBeLessThan(b!.position.x);
      const moved = [a!, b!, c!];
      for (const node of moved) {
        expect(node.data).toEqual(at(before, node.id).data);
        for (const other of after.nodes.filter((each) => !moved.includes(each) && !each.id.startsWith('g')))
          expect(overlap(node, other), `${node.id} covers ${other.id}`).toBe(false);
      }
      expect(overlap(a!, b!) || overlap(b!, c!) || overlap(a!, c!)).toBe(false);
      // Untouched: what was not named.
      expect(at(after, 'elsewhere').position).toEqual(at(before, 'elsewhere').position);
    });

    it('packs loose cards in rows with the grid mode', async () => {
      const before = await read();
      const ids = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'];
      const answer = await tidy({ base_revision: before.revision, node_ids: ids, mode: 'grid' });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const after = await read();
      const placed = ids.map((id) => at(after, id));
      for (const [index, node] of placed.entries())
        for (const other of placed.slice(index + 1)) expect(overlap(node, other)).toBe(false);
      expect(new Set(placed.map((node) => node.position.y)).size).toBeGreaterThan(1);
    });

    it('refuses nodes of two parents, a node that is not there, a stale revision and a viewer, writing nothing', async () => {
      const before = await read();
      const mixed = await tidy({ base_revision: before.revision, node_ids: ['a', 'inside'] });
      expect(mixed.status).toBe(400);
      expect(mixed.body).toMatchObject({ error: { code: 'invalid_arguments', details: { field: 'node_ids' } } });
      const gone = await tidy({ base_revision: before.revision, node_ids: ['a', 'nope'] });
      expect(gone.status).toBe(404);
      expect(JSON.stringify(gone.body)).toContain('"nope"');
      const stale = await tidy({ base_revision: before.revision - 1, node_ids: ['a', 'b'] });
      expect(stale.status).toBe(409);
      const asViewer = await tidy({ base_revision: before.revision, node_ids: ['a', 'b'] }, viewer);
      expect(asViewer.status).toBe(403);
      expect((await read()).revision).toBe(before.revision);
    });
  });
});
