import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberView } from '../../src/contract/index.js';
import { MeView, ThreadView } from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { editorStage } from '../support/editor-stage.js';
import { api, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';

/**
 * Names, not ids (docs/ui.md, "Names"), on both stores: a person signed in under an id is asked for a name, sets it
 * themselves, and is shown by it in the members list and on the comments they write from then on; a name with control
 * characters is refused naming the field; a token has no name to set.
 */

describe.each(STORE_TARGETS)('names: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let headers: Record<string, string>;

    beforeAll(async () => {
      const stage = await editorStage(target);
      server = stage.server;
      headers = { cookie: stage.cookie, origin: server.url, 'x-requested-by': 'canvas-mcp' };
      await server.store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        {
          id: 'board',
          type: 'storyboardNode',
          position: { x: 0, y: 0 },
          data: { title: 'Pier', frames: [{ id: 's1', number: '1', imageUrl: null }] },
        },
      );
    }, 60_000);
    afterAll(async () => server?.close());

    const me = async () => MeView.parse((await api(server.url, '/api/v1/me', { headers })).body);

    it('asks a person signed in under an id for a name, keeps the one they give, and shows it to the team', async () => {
      expect(await me()).toMatchObject({ display_name: null, needs_name: true });
      const set = await api(server.url, '/api/v1/me/name', {
        method: 'PUT',
        headers,
        body: { display_name: '  Edda Kovacs ' },
      });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ display_name: 'Edda Kovacs' });
      expect(await me()).toMatchObject({ display_name: 'Edda Kovacs', needs_name: false });
      const members = (await api(server.url, '/api/v1/projects/p/members', { headers })).body as {
        members: MemberView[];
      };
      expect(members.members.find((member) => member.subject === 'ed')).toMatchObject({ display_name: 'Edda Kovacs' });
      const thread = await api(server.url, '/api/v2/projects/p/canvases/c/threads', {
        method: 'POST',
        headers,
        body: { node_id: 'board', shot_id: 's1', body: 'Tighter here.' },
      });
      expect(ThreadView.parse(thread.body).comments[0]!.author.name).toBe('Edda Kovacs');
    });

    it('refuses a name with control characters or none, naming the field, and a token’s request', async () => {
      for (const name of ['', '   ', 'Ed\u0000da', 'x'.repeat(101)]) {
        const refused = await api(server.url, '/api/v1/me/name', {
          method: 'PUT',
          headers,
          body: { display_name: name },
        });
        expect(refused.status, JSON.stringify(name)).toBe(400);
        expect(JSON.stringify(refused.body)).toContain('display_name');
      }
      expect((await me()).display_name).toBe('Edda Kovacs');
      const token = await projectToken(server.store, 'p', 'editor');
      const byToken = await api(server.url, '/api/v1/me/name', {
        method: 'PUT',
        token,
        body: { display_name: 'A bot' },
      });
      expect(byToken.status).toBe(403);
    });
  });
});
