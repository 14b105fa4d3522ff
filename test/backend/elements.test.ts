import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ElementList, ElementView, UploadReceipt } from '../../src/contract/index.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { png, smallPdf } from '../support/upload-fixtures.js';

/**
 * Elements over real HTTP on both stores: an editor keeps the project's cast, locations, props and styles with
 * reference pictures uploaded to the project; readers see them with signed picture URLs that open; a wrong picture, a
 * taken name or a viewer's write is refused naming why, and nothing is kept.
 */

const ELEMENTS = '/api/v1/projects/p/elements';

describe.each(STORE_TARGETS)('elements: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let editor: string;
    let viewer: string;
    let photos: string[] = [];
    let pdf = '';

    beforeAll(async () => {
      server = await startTestServer(target, { rateLimitPerMinute: 1_000_000 });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createProject('other', 'w');
      await projects.createCanvas('p', 'c', false);
      await projects.createCanvas('other', 'c', false);
      editor = await projectToken(server.store, 'p', 'editor');
      viewer = await projectToken(server.store, 'p', 'viewer');
      photos = await upload('p', editor, [await png(40, 30), await png(30, 40), await png(50, 50)]);
      pdf = (await upload('p', editor, [smallPdf()], 'treatment.pdf'))[0]!;
    }, 60_000);
    afterAll(async () => server?.close());

    async function upload(project: string, token: string, files: Buffer[], name = 'mara.png'): Promise<string[]> {
      const form = new FormData();
      for (const bytes of files) form.append('file', new Blob([new Uint8Array(bytes)]), name);
      const response = await fetch(`${server.url}/api/v2/projects/${project}/canvases/c/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(response.status).toBe(201);
      return UploadReceipt.parse(await response.json()).uploads.map((file) => file.asset_id);
    }

    const list = async (token = viewer) =>
      ElementList.parse((await api(server.url, ELEMENTS, { token })).body).elements;

    it('keeps a character with three reference pictures, which every member reads with URLs that open', async () => {
      const created = await api(server.url, ELEMENTS, {
        method: 'POST',
        token: editor,
        body: { kind: 'character', name: 'Mara', notes: 'Keeper, 40s, grey coat', references: photos },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const mara = ElementView.parse(created.body);
      expect(mara).toMatchObject({ kind: 'character', name: 'Mara', notes: 'Keeper, 40s, grey coat' });
      expect(mara.element_id).toMatch(/^el_/);
      expect(mara.references.map((reference) => reference.asset_id)).toEqual(photos);

      const [read] = await list();
      expect(read).toEqual(mara);
      const picture = await fetch(`${server.url}${read!.references[1]!.url}`);
      expect(picture.status).toBe(200);
      expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(30);
    });

    it('changes the fields given and replaces the pictures in the order sent', async () => {
      const [mara] = await list();
      const changed = await api(server.url, `${ELEMENTS}/${mara!.element_id}`, {
        method: 'PATCH',
        token: editor,
        body: { notes: 'Keeper, 40s', references: [photos[2], photos[0]] },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(ElementView.parse(changed.body)).toMatchObject({
        name: 'Mara',
        notes: 'Keeper, 40s',
        references: [{ asset_id: photos[2] }, { asset_id: photos[0] }],
      });
    });

    it('refuses a name another element has, whatever its case, naming the field', async () => {
      const twin = await api(server.url, ELEMENTS, {
        method: 'POST',
        token: editor,
        body: { kind: 'prop', name: 'MARA' },
      });
      expect(twin.status).toBe(409);
      expect(twin.body).toMatchObject({ error: { code: 'already_exists', details: { field: 'name' } } });
      expect((await list()).map((element) => element.name)).toEqual(['Mara']);
    });

    it('refuses a reference that is not a picture of this project, naming the picture', async () => {
      const [elsewhere] = await upload('other', await projectToken(server.store, 'other', 'editor'), [await png()]);
      for (const [reference, words] of [
        [pdf, 'application/pdf; a reference must be a picture'],
        [elsewhere, 'there is no picture'],
        ['asset_AAAAAAAAAAAAAAAA', 'there is no picture'],
      ] as const) {
        const refused = await api(server.url, ELEMENTS, {
          method: 'POST',
          token: editor,
          body: { kind: 'location', name: 'Lighthouse', references: [photos[0], reference] },
        });
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({
          error: { code: 'invalid_arguments', details: { field: 'references.1' } },
        });
        expect(JSON.stringify(refused.body)).toContain(words);
      }
      expect((await list()).map((element) => element.name)).toEqual(['Mara']);
    });

    it('refuses a malformed element naming the field, and a viewer’s write', async () => {
      const unnamed = await api(server.url, ELEMENTS, {
        method: 'POST',
        token: editor,
        body: { kind: 'prop', name: ' ' },
      });
      expect(unnamed.status).toBe(400);
      expect(JSON.stringify(unnamed.body)).toContain('name');
      const tooMany = await api(server.url, ELEMENTS, {
        method: 'POST',
        token: editor,
        body: { kind: 'prop', name: 'Lamp', references: [...photos, ...photos] },
      });
      expect(tooMany.status).toBe(400);
      expect(JSON.stringify(tooMany.body)).toContain('at most 4 pictures');
      const asViewer = await api(server.url, ELEMENTS, {
        method: 'POST',
        token: viewer,
        body: { kind: 'prop', name: 'Lamp' },
      });
      expect(asViewer.status).toBe(403);
      expect((await list()).map((element) => element.name)).toEqual(['Mara']);
    });

    it('removes an element', async () => {
      const lamp = ElementView.parse(
        (await api(server.url, ELEMENTS, { method: 'POST', token: editor, body: { kind: 'prop', name: 'Lamp' } })).body,
      );
      expect((await list()).map((element) => element.name)).toEqual(['Mara', 'Lamp']);
      const removed = await api(server.url, `${ELEMENTS}/${lamp.element_id}`, { method: 'DELETE', token: editor });
      expect(removed.status).toBe(204);
      expect((await list()).map((element) => element.name)).toEqual(['Mara']);
      const again = await api(server.url, `${ELEMENTS}/${lamp.element_id}`, { method: 'DELETE', token: editor });
      expect(again.status).toBe(404);
    });
  });
});
