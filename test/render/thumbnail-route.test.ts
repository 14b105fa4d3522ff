import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thumbnailIdOf } from '../../src/assets/thumbnails.js';
import type { NodeRun } from '../../src/contract/index.js';
import { canvasWithFinishedImage, FILM_CANVAS } from '../support/finished-image.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * A run's image result gets a thumbnail at /assets/{id}/thumbnail, over real HTTP: made on the first request and kept
 * as an asset, read with the picture's own signed URL (nothing else unsigned), and the REST board picture of the same
 * canvas.
 */

describe.each(STORE_TARGETS)('thumbnails of run results on $name', (target) => {
  describe.skipIf(!target.available)('over HTTP', () => {
    let server: TestServer;
    let token: string;
    let run: NodeRun;

    beforeAll(async () => {
      server = await startTestServer(target, { workers: 1 });
      ({ token, run } = await canvasWithFinishedImage(server));
    }, 60_000);
    afterAll(async () => server?.close());

    it('answers a thumbnail of at most 480 px with the signed URL, made once and kept', async () => {
      const output = run.outputs[0]!;
      const url = `${server.url}${output.url.replace('?', '/thumbnail?')}`;
      const first = await fetch(url);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await first.arrayBuffer());
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format).toBe('webp');
      expect(Math.max(metadata.width!, metadata.height!)).toBeLessThanOrEqual(480);
      const kept = await server.store.assets.getAsset(thumbnailIdOf(output.asset_id));
      expect(kept).toMatchObject({ projectId: 'film', canvasId: 'board', kind: 'image', mimeType: 'image/webp' });
      const again = Buffer.from(await (await fetch(url)).arrayBuffer());
      expect(again.equals(bytes)).toBe(true);
    });

    it('refuses an unsigned guess and a signature made for another asset', async () => {
      const output = run.outputs[0]!;
      expect((await fetch(`${server.url}/assets/${output.asset_id}/thumbnail`)).status).toBe(401);
      const signature = output.url.slice(output.url.indexOf('?'));
      expect((await fetch(`${server.url}/assets/asset_aaaaaaaaaaaaaaaa/thumbnail${signature}`)).status).toBe(401);
      // A member of the project reads it with the REST token.
      const member = await fetch(`${server.url}/assets/${output.asset_id}/thumbnail`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(member.status).toBe(200);
    });

    it('draws the canvas over REST: GET …/board.png', async () => {
      const response = await fetch(`${server.url}${FILM_CANVAS}/board.png`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect((await sharp(bytes).metadata()).format).toBe('png');
      const refused = await fetch(`${server.url}${FILM_CANVAS}/board.png?format=gif`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(refused.status).toBe(400);
    });
  });
});
