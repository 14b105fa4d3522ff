import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CanvasNode,
  SNAPSHOT_CONTRACT_VERSION,
  type Drawing,
  type DrawingReceipt,
  type Stroke,
} from '../../src/contract/index.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { uploadedPicture } from '../support/upload-fixtures.js';
import { IDP } from './world.js';

/**
 * Drawings on shots, over real HTTP on both stores: a save keeps the strokes (input points with pressure) in an asset
 * the shot names, renders them over the shot's picture into its new picture (read back here by sharp, pixel by pixel),
 * keeps the covered picture as an earlier one, merges saves made at once, and refuses a malformed drawing or one past a
 * limit naming the field or the limit, writing nothing.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const DRAWING = `${CANVAS}/nodes/board/shots/s3/drawing`;

/** A pen stroke across the middle of the frame, pressure rising: thick enough to cover the centre pixel. */
function penStroke(id: string, y = 0.5, colour = '#111111'): Stroke {
  const points: Stroke['points'] = [];
  for (let step = 0; step <= 40; step++) points.push([0.2 + step * 0.015, y, 0.3 + step * 0.015]);
  return { id, tool: 'pen', colour, size: 24, points };
}

describe.each(STORE_TARGETS)('drawings on shots: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let cookie: string;
    let viewer: string;
    let photoUrl: string;

    const snapshot = async () =>
      (
        await api(server.url, `${CANVAS}/snapshot`, {
          token: viewer,
          headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
        })
      ).body as {
        layout: {
          revision: number;
          nodes: Array<{ id: string; data: { frames: Array<Record<string, unknown>> } }>;
        };
      };
    const versionNow = async () => ((await api(server.url, DRAWING, { token: viewer })).body as Drawing).version;
    const revisionNow = async () => (await snapshot()).layout.revision;
    const shot = async () =>
      (await snapshot()).layout.nodes
        .find((node) => node.id === 'board')!
        .data.frames.find((frame) => frame.id === 's3')!;
    // The artist: a signed-in person (a token writes only for an agent's chat run).
    const save = (body: unknown, token?: string) =>
      api(server.url, DRAWING, {
        method: 'POST',
        body,
        ...(token
          ? { token }
          : {
              headers: {
                cookie,
                origin: server.url,
                'x-requested-by': 'canvas-mcp',
                'content-type': 'application/json',
              },
            }),
      });
    const pictureBytes = async (url: string) => {
      const response = await fetch(`${server.url}${url.split('?')[0]}`, {
        headers: { authorization: `Bearer ${viewer}` },
      });
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const pixel = async (bytes: Buffer, x: number, y: number) => {
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const at = (Math.round(y * (info.height - 1)) * info.width + Math.round(x * (info.width - 1))) * 3;
      return [data[at]!, data[at + 1]!, data[at + 2]!];
    };

    beforeAll(async () => {
      server = await startTestServer(target, { drawingMaxStrokes: 3 });
      await server.store.projects.createWorkspace('w');
      await server.store.projects.createProject('p', 'w');
      await server.store.projects.createCanvas('p', 'c', false);
      await server.store.projects.addMember('p', { issuer: IDP, subject: 'ana' }, 'editor');
      const link = await server.store.sessions.createLoginLink(
        { issuer: IDP, subject: 'ana' },
        { expiresInMs: 60_000 },
      );
      cookie = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
      const editor = await projectToken(server.store, 'p', 'editor');
      viewer = await projectToken(server.store, 'p', 'viewer');
      // A blue photo, uploaded the way a person uploads one: the shot's picture before it is drawn on.
      photoUrl = await uploadedPicture(server, { projectId: 'p', canvasId: 'c', token: editor, name: 'plate.png' });
      const board = CanvasNode.parse({
        id: 'board',
        type: 'storyboardNode',
        position: { x: 0, y: 0 },
        data: {
          aspectRatio: '16:9',
          frames: [
            { id: 's1', imageUrl: null },
            { id: 's2', imageUrl: null },
            { id: 's3', imageUrl: photoUrl, caption: 'Mara at the rail' },
          ],
        },
      });
      await server.store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE },
        board,
      );
    }, 60_000);
    afterAll(async () => server?.close());

    it('keeps a stroke with its pressure and renders it over the shot picture, the photo kept as an earlier picture', async () => {
      const before = await revisionNow();
      const response = await save({
        base_version: null,
        changes: [{ op: 'add_stroke', layer: 'ink', stroke: penStroke('ink-1') }],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const receipt = response.body as DrawingReceipt;
      expect(receipt.revision).toBe(before + 1);
      expect(receipt.drawing).toMatchObject({ version: 1, pictureUnderUrl: photoUrl });
      const frame = await shot();
      expect(String(frame.drawingUrl).split('?')[0]).toBe(receipt.drawing_url);
      expect(frame.imageUrl).not.toBe(photoUrl);
      expect((frame.earlierPictures as string[]).map((url) => url.split('?')[0])).toEqual([photoUrl]);
      expect(frame.caption).toBe('Mara at the rail');

      const picture = await pictureBytes(frame.imageUrl as string);
      const meta = await sharp(picture).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1280, 720]);
      // Ink where the stroke runs, the photo's blue (20, 90, 200) away from it.
      const ink = await pixel(picture, 0.5, 0.5);
      expect(Math.max(...ink)).toBeLessThan(60);
      const photo = await pixel(picture, 0.5, 0.1);
      expect(photo[2]).toBeGreaterThan(150);
      expect(photo[0]).toBeLessThan(60);

      const read = await api(server.url, DRAWING, { token: viewer });
      expect(read.status).toBe(200);
      const drawing = read.body as Drawing;
      const ink1 = drawing.layers.find((layer) => layer.name === 'ink')!.strokes[0]!;
      expect(ink1.points).toEqual(penStroke('ink-1').points);
      expect(drawing.pictureUnderUrl).toBe(photoUrl);
    });

    it('draws an added ink stroke over the previous picture: the same picture as drawing the frame whole', async () => {
      const version = await versionNow();
      const added = await save({
        base_version: version,
        changes: [{ op: 'add_stroke', layer: 'ink', stroke: penStroke('ink-2', 0.5, '#dc2626') }],
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const onTop = await pictureBytes((added.body as DrawingReceipt).image_url);
      // A change that is not an added stroke draws the frame whole; this one changes no pixel.
      const whole = await save({
        base_version: version + 1,
        changes: [{ op: 'set_layer', layer: 'ink', opacity: 1 }],
      });
      expect(whole.status).toBe(200);
      const redrawn = await pictureBytes((whole.body as DrawingReceipt).image_url);
      const raw = async (bytes: Buffer) => (await sharp(bytes).removeAlpha().raw().toBuffer()) as Buffer;
      const [a, b] = [await raw(onTop), await raw(redrawn)];
      expect(a.length).toBe(b.length);
      let total = 0;
      let largest = 0;
      for (let at = 0; at < a.length; at++) {
        const difference = Math.abs(a[at]! - b[at]!);
        total += difference;
        largest = Math.max(largest, difference);
      }
      expect(total / a.length).toBeLessThan(0.5);
      expect(largest).toBeLessThan(48);
      // The red stroke is there (drawn last, over the first one's ink).
      const [red, green] = await pixel(onTop, 0.5, 0.5);
      expect(red).toBeGreaterThan(150);
      expect(green).toBeLessThan(80);
      const removed = await save({ base_version: version + 2, changes: [{ op: 'remove_stroke', stroke_id: 'ink-2' }] });
      expect(removed.status).toBe(200);
    });

    it('merges two saves made on the same version: both strokes are kept, never one over the other', async () => {
      const base = await versionNow();
      const [first, second] = await Promise.all([
        save({
          base_version: base,
          changes: [{ op: 'add_stroke', layer: 'rough', stroke: penStroke('rough-a', 0.3) }],
        }),
        save({
          base_version: base,
          changes: [{ op: 'add_stroke', layer: 'rough', stroke: penStroke('rough-b', 0.7) }],
        }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const merged = [first.body, second.body].map((body) => (body as DrawingReceipt).merged);
      expect(merged.filter(Boolean)).toHaveLength(1);
      const drawing = (await api(server.url, DRAWING, { token: viewer })).body as Drawing;
      const rough = drawing.layers.find((layer) => layer.name === 'rough')!.strokes.map((stroke) => stroke.id);
      expect(rough.sort()).toEqual(['rough-a', 'rough-b']);
      expect(drawing.layers.reduce((sum, layer) => sum + layer.strokes.length, 0)).toBe(3);
    });

    it('refuses a drawing past --drawing-max-strokes naming the limit, and writes nothing', async () => {
      const before = await revisionNow();
      const response = await save({
        base_version: null,
        changes: [{ op: 'add_stroke', layer: 'tone', stroke: penStroke('tone-1') }],
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({
        error: { code: 'limit_exceeded', details: { limit: 'drawing_strokes', max: 3 } },
      });
      expect(JSON.stringify(response.body)).toContain('--drawing-max-strokes');
      expect(await revisionNow()).toBe(before);
    });

    it('an undo removes the stroke by its id, one version on', async () => {
      const version = await versionNow();
      const response = await save({ base_version: version, changes: [{ op: 'remove_stroke', stroke_id: 'rough-b' }] });
      expect(response.status).toBe(200);
      const receipt = response.body as DrawingReceipt;
      expect(receipt.drawing.version).toBe(version + 1);
      expect(receipt.drawing.layers.reduce((sum, layer) => sum + layer.strokes.length, 0)).toBe(2);
    });

    it('refuses a malformed stroke with an error naming the field, and writes nothing', async () => {
      const before = await revisionNow();
      const cases: Array<[unknown, string]> = [
        [{ ...penStroke('bad-1'), points: [[0.5, 'x', 0.5]] }, 'changes.0.stroke.points.0.1'],
        [{ ...penStroke('bad-2'), points: [[0.5, 99, 0.5]] }, 'changes.0.stroke.points.0.1'],
        [{ ...penStroke('bad-3'), colour: 'url(javascript:alert(1))' }, 'changes.0.stroke.colour'],
        [{ ...penStroke('bad-4'), size: 1e9 }, 'changes.0.stroke.size'],
        [{ ...penStroke('bad 5') }, 'changes.0.stroke.id'],
        [{ ...penStroke('bad-6'), onload: 'x' }, 'changes.0.stroke'],
      ];
      for (const [stroke, field] of cases) {
        const response = await save({ base_version: null, changes: [{ op: 'add_stroke', layer: 'ink', stroke }] });
        expect(response.status, field).toBe(400);
        expect(JSON.stringify(response.body), field).toContain(field);
      }
      expect(await revisionNow()).toBe(before);
    });

    it('a locked layer takes no stroke; a viewer saves nothing', async () => {
      const version = await versionNow();
      const locked = await save({
        base_version: version,
        changes: [
          { op: 'set_layer', layer: 'ink', locked: true },
          { op: 'remove_stroke', stroke_id: 'ink-1' },
        ],
      });
      expect(locked.status).toBe(400);
      expect(JSON.stringify(locked.body)).toContain('locked');
      expect(await versionNow()).toBe(version);
      const refused = await save(
        { base_version: version, changes: [{ op: 'set_layer', layer: 'ink', visible: false }] },
        viewer,
      );
      expect(refused.status).toBe(403);
      expect(await versionNow()).toBe(version);
    });

    it('takes a picture under it only from this project', async () => {
      const version = await versionNow();
      const response = await save({
        base_version: version,
        changes: [{ op: 'set_picture_under', url: 'https://example.com/cat.png' }],
      });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body)).toContain('url');
    });

    it('answers 404 naming a shot the board does not have', async () => {
      const response = await api(server.url, `${CANVAS}/nodes/board/shots/s9/drawing`, { token: viewer });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: { details: { shot_id: 's9' } } });
    });
  });
});
