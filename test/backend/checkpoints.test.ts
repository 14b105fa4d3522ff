import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanvasNode, CheckpointList, CheckpointView } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { api, startTestServer, type ApiRequest, type TestServer } from '../support/servers.js';
import { readLayout, signedInPerson } from '../support/canvas-reads.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { IDP } from './world.js';

/**
 * Checkpoints over real HTTP on both stores: an editor names the current revision, the canvas changes, and restoring
 * the checkpoint (a revert to it) brings its layout back as a new revision, the history kept; a revision after the
 * current one and a viewer's checkpoint are refused.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

describe.each(STORE_TARGETS)('checkpoints: $name', (target) => {
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
      await writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        CanvasNode.parse({ id: 'keep', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'v1' } }),
      );
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      asEd = await signedInPerson(server, { issuer: IDP, subject: 'ed' });
      viewer = await projectToken(server.store, 'p', 'viewer');
    }, 60_000);
    afterAll(async () => server?.close());

    const read = () => readLayout(server, 'p', 'c', viewer);

    it('names the current revision, and restoring it brings that layout back as a new revision', async () => {
      const named = await api(
        server.url,
        `${CANVAS}/checkpoints`,
        asEd({ method: 'POST', body: { name: 'Client v1' } }),
      );
      expect(named.status, JSON.stringify(named.body)).toBe(201);
      const checkpoint = CheckpointView.parse(named.body);
      expect(checkpoint).toMatchObject({ name: 'Client v1', revision: 1, kind: 'named', created_by: 'ed' });

      const edit = await api(
        server.url,
        `${CANVAS}/nodes/keep`,
        asEd({ method: 'PATCH', body: { base_revision: 1, client_save_id: null, set: { data: { content: 'v2' } } } }),
      );
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      expect((await read()).nodes[0]!.data).toEqual({ content: 'v2' });

      const listed = CheckpointList.parse((await api(server.url, `${CANVAS}/checkpoints`, { token: viewer })).body);
      expect(listed.checkpoints.map((each) => [each.name, each.revision])).toEqual([['Client v1', 1]]);
      const restored = await api(
        server.url,
        `${CANVAS}/revert`,
        asEd({ method: 'POST', body: { base_revision: 2, client_save_id: null, to_revision: checkpoint.revision } }),
      );
      expect(restored.status, JSON.stringify(restored.body)).toBe(201);
      const after = await read();
      expect(after.revision).toBe(3);
      expect(after.nodes[0]!.data).toEqual({ content: 'v1' });
    });

    it('refuses a revision after the current one naming the field, and a viewer’s checkpoint', async () => {
      const future = await api(
        server.url,
        `${CANVAS}/checkpoints`,
        asEd({ method: 'POST', body: { name: 'Later', revision: 99 } }),
      );
      expect(future.status).toBe(400);
      expect(future.body).toMatchObject({ error: { details: { field: 'revision' } } });
      const asViewer = await api(server.url, `${CANVAS}/checkpoints`, {
        method: 'POST',
        token: viewer,
        body: { name: 'Mine' },
      });
      expect(asViewer.status).toBe(403);
      const listed = CheckpointList.parse((await api(server.url, `${CANVAS}/checkpoints`, { token: viewer })).body);
      expect(listed.checkpoints.map((each) => each.name)).toEqual(['Client v1']);
    });
  });
});
