import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_CONTRACT_VERSION, UploadReceipt, type UploadedFile } from '../../src/contract/index.js';
import { probe } from '../support/media.js';
import { startS3Standin, type S3Standin } from '../support/s3-standin.js';
import { api, signInWithLink, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import {
  ffmpegFixture,
  hugePngHeader,
  HTML_PAGE,
  phonePhoto,
  png,
  smallPdf,
  SVG_WITH_SCRIPT,
} from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';
import { IDP } from './world.js';

/**
 * Uploads over real HTTP on both stores: files posted as multipart/form-data by a script with a token, each kept in the
 * asset store after its type is found in its bytes, cleaned (EXIF gone, picture upright), measured (size, length) and
 * given a thumbnail or poster; answered with the node that shows it. Hostile files are refused naming what they are,
 * and a refused, oversized or cut-off upload leaves no bytes and no record behind.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const UPLOADS = `${CANVAS}/uploads`;
const MAX_BYTES = 400_000;

interface Sent {
  name: string;
  bytes: Buffer;
  type?: string;
}

describe.each(STORE_TARGETS)('uploads: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    let server: TestServer;
    let editor: string;
    let viewer: string;
    /** A signed-in editor's session cookie: people write nodes (a script's token writes with an agent run). */
    let person: string;

    beforeAll(async () => {
      server = await startTestServer(target, {
        rateLimitPerMinute: 1_000_000,
        uploadMaxBytes: MAX_BYTES,
        uploadFilesPerRequest: 5,
      });
      const { projects } = server.store;
      await projects.createWorkspace('w');
      await projects.createProject('p', 'w');
      await projects.createCanvas('p', 'c', false);
      editor = await projectToken(server.store, 'p', 'editor');
      viewer = await projectToken(server.store, 'p', 'viewer');
      await projects.addMember('p', { issuer: IDP, subject: 'ed' }, 'editor');
      const link = await server.store.sessions.createLoginLink({ issuer: IDP, subject: 'ed' }, { expiresInMs: 60_000 });
      person = (await signInWithLink(`${server.url}/auth/login?token=${link}`)).cookie;
    }, 60_000);
    afterAll(async () => server?.close());

    function upload(files: readonly Sent[], token = editor, path = UPLOADS): Promise<Response> {
      const form = new FormData();
      for (const file of files)
        form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name);
      return fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    }

    async function kept(files: readonly Sent[]): Promise<UploadedFile[]> {
      const response = await upload(files);
      const body: unknown = await response.json();
      expect(response.status, JSON.stringify(body)).toBe(201);
      return UploadReceipt.parse(body).uploads;
    }

    async function bytesOf(url: string): Promise<{ type: string | null; bytes: Buffer; disposition: string | null }> {
      const response = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${editor}` } });
      expect(response.status).toBe(200);
      return {
        type: response.headers.get('content-type'),
        disposition: response.headers.get('content-disposition'),
        bytes: Buffer.from(await response.arrayBuffer()),
      };
    }

    /** What the store and the disk hold: asset rows, asset files, and work folders of uploads in progress. */
    async function leftovers() {
      const assetsDir = join(server.dataDir, 'assets');
      const files = readdirSync(assetsDir).filter((name) => !name.startsWith('.'));
      const uploading = join(assetsDir, '.uploads');
      const working = existsSync(uploading) ? readdirSync(uploading).length : 0;
      return { rows: (await server.store.assets.listAssets()).length, files: files.length, working };
    }

    async function expectNothingLeftSince(before: { rows: number; files: number }) {
      await waitFor(leftovers, (now) => now.working === 0);
      const now = await leftovers();
      expect(now.rows).toBe(before.rows);
      // PostgreSQL's test server keeps bytes in local files too (the default asset store).
      expect(now.files).toBe(before.files);
    }

    it('keeps a phone photo upright and without its EXIF (GPS, camera), with a thumbnail, as an upload node', async () => {
      const [photo] = await kept([{ name: 'IMG_0042.jpg', bytes: await phonePhoto(), type: 'image/jpeg' }]);
      expect(photo).toMatchObject({
        file_name: 'IMG_0042.jpg',
        media_kind: 'image',
        mime_type: 'image/jpeg',
        // Stored 64 × 32 with orientation 6 (turned 90°): kept turned, 32 × 64.
        width: 32,
        height: 64,
        aspect_ratio: '1:2',
        node_type: 'uploadNode',
      });
      const file = await bytesOf(photo!.url);
      expect(file.type).toBe('image/jpeg');
      const picture = await sharp(file.bytes).metadata();
      expect({ width: picture.width, height: picture.height }).toEqual({ width: 32, height: 64 });
      expect(picture.exif).toBeUndefined();
      expect(picture.orientation).toBeUndefined();
      expect(file.bytes.includes('PhoneMaker')).toBe(false);
      expect(photo!.byte_size).toBe(file.bytes.length);
      const thumbnail = await bytesOf(photo!.thumbnail_url!);
      expect(thumbnail.type).toBe('image/webp');
      expect((await sharp(thumbnail.bytes).metadata()).height).toBe(64);
      expect(photo!.node_data).toMatchObject({
        displayName: 'IMG_0042',
        fileUrl: photo!.url,
        fileName: 'IMG_0042.jpg',
        mimeType: 'image/jpeg',
        mediaKind: 'image',
        previewImageUrl: photo!.thumbnail_url,
        width: 32,
        height: 64,
      });
    });

    it('keeps a film with its length and a poster, its metadata dropped, as a video node', async () => {
      const [film] = await kept([{ name: 'take 3.mp4', bytes: ffmpegFixture('mp4', 2), type: 'video/mp4' }]);
      expect(film).toMatchObject({ media_kind: 'video', mime_type: 'video/mp4', width: 160, height: 90 });
      expect(film!.duration_ms).toBeGreaterThan(1900);
      expect(film!.duration_ms).toBeLessThan(2200);
      expect(film!.aspect_ratio).toBe('16:9');
      expect(film!.node_type).toBe('videoNode');
      expect(film!.node_data).toMatchObject({ videoUrl: film!.url, sourceFileName: 'take 3.mp4', aspectRatio: '16:9' });
      const file = await bytesOf(film!.url);
      const played = probe(file.bytes);
      expect(played.streams.map((stream) => stream.codec_type).sort()).toEqual(['audio', 'video']);
      expect(file.bytes.includes('+51.5-000.1')).toBe(false);
      const poster = await bytesOf(film!.thumbnail_url!);
      expect((await sharp(poster.bytes).metadata()).width).toBe(160);
    });

    it('keeps sound as an audio node with its length, and a PDF as an upload node served as a download', async () => {
      const [mp3, wav, pdf] = await kept([
        { name: 'voice over.mp3', bytes: ffmpegFixture('mp3'), type: 'audio/mpeg' },
        { name: 'room tone.wav', bytes: ffmpegFixture('wav'), type: 'audio/wav' },
        { name: 'treatment.pdf', bytes: smallPdf(), type: 'application/pdf' },
      ]);
      expect(mp3).toMatchObject({ media_kind: 'audio', mime_type: 'audio/mpeg', node_type: 'audioNode' });
      expect(wav).toMatchObject({ media_kind: 'audio', mime_type: 'audio/wav', node_type: 'audioNode' });
      for (const sound of [mp3!, wav!]) {
        expect(sound.duration_ms).toBeGreaterThan(900);
        expect(sound.duration_ms).toBeLessThan(1200);
        expect(probe((await bytesOf(sound.url)).bytes).streams[0]!.codec_type).toBe('audio');
      }
      expect(pdf).toMatchObject({ media_kind: 'document', mime_type: 'application/pdf', node_type: 'uploadNode' });
      const document = await bytesOf(pdf!.url);
      expect(document.bytes.equals(smallPdf())).toBe(true);
      expect(document.disposition).toMatch(/^attachment/);
    });

    it('answers a node that the canvas accepts, whose URLs a canvas read hands out signed', async () => {
      const [picture] = await kept([{ name: 'sketch.png', bytes: await png() }]);
      const created = await api(server.url, `${CANVAS}/nodes`, {
        method: 'POST',
        headers: { cookie: person, origin: server.url, 'x-requested-by': 'canvas-mcp' },
        body: {
          base_revision: 0,
          node: { id: 'sketch', type: picture!.node_type, position: { x: 0, y: 0 }, data: picture!.node_data },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const snapshot = await api(server.url, `${CANVAS}/snapshot`, {
        token: viewer,
        headers: { 'x-canvas-snapshot-version': SNAPSHOT_CONTRACT_VERSION },
      });
      const node = (
        snapshot.body as { layout: { nodes: Array<{ id: string; data: Record<string, string> }> } }
      ).layout.nodes.find((each) => each.id === 'sketch')!;
      expect(node.data.fileUrl).toMatch(new RegExp(`^${picture!.url}\\?exp=\\d+&sig=`));
      expect(node.data.previewImageUrl).toMatch(new RegExp(`^${picture!.thumbnail_url}\\?exp=\\d+&sig=`));
      // The signed URL opens the file with no other credential (an <img> in an MCP App).
      const opened = await fetch(`${server.url}${node.data.fileUrl}`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/png');
    });

    it('refuses an HTML page named .png, naming what it is, and keeps nothing', async () => {
      const before = await leftovers();
      const response = await upload([{ name: 'cat.png', bytes: HTML_PAGE, type: 'image/png' }]);
      expect(response.status).toBe(415);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('unsupported_media_type');
      expect(body.error.message).toContain('cat.png');
      expect(body.error.message).toContain('an HTML document');
      expect(body.error.message).toContain('PNG, JPEG');
      await expectNothingLeftSince(before);
    });

    it('refuses an SVG with a script, whatever it is called', async () => {
      const response = await upload([{ name: 'logo.jpg', bytes: SVG_WITH_SCRIPT, type: 'image/jpeg' }]);
      expect(response.status).toBe(415);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('an SVG document');
    });

    it('keeps a polyglot (a PNG with a page riding after its end) as the picture alone', async () => {
      const polyglot = Buffer.concat([await png(), HTML_PAGE]);
      const [picture] = await kept([{ name: 'innocent.png', bytes: polyglot }]);
      const file = await bytesOf(picture!.url);
      expect(file.bytes.includes('<script>')).toBe(false);
      expect((await sharp(file.bytes).metadata()).format).toBe('png');
    });

    it('refuses a 30,000 × 30,000 picture from its header, before decoding it', async () => {
      const before = await leftovers();
      const response = await upload([{ name: 'bomb.png', bytes: hugePngHeader() }]);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('limit_exceeded');
      expect(body.error.message).toContain('30,000 × 30,000 pixels');
      await expectNothingLeftSince(before);
    });

    it('refuses a truncated picture as damaged, and keeps none of the request when one file of it is refused', async () => {
      const before = await leftovers();
      const whole = await png(400, 300);
      const response = await upload([
        { name: 'fine.png', bytes: await png() },
        { name: 'cut.png', bytes: whole.subarray(0, Math.floor(whole.length / 2)) },
      ]);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string; details?: { file_name?: string } } };
      expect(body.error.message).toMatch(/^cut\.png: The picture could not be read: it is damaged or cut short/);
      await expectNothingLeftSince(before);
    });

    it('refuses a file over the size limit while it arrives, with 413, keeping nothing', async () => {
      const before = await leftovers();
      const response = await upload([{ name: 'huge.png', bytes: Buffer.alloc(MAX_BYTES + 50_000, 7) }]);
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        `huge.png is larger than uploads take (${MAX_BYTES.toLocaleString('en')} bytes)`,
      );
      await expectNothingLeftSince(before);
    });

    it('leaves nothing behind when the connection drops halfway through an upload', async () => {
      const before = await leftovers();
      const boundary = 'cut-midway';
      const picture = await png(200, 200);
      const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="half.png"\r\ncontent-type: image/png\r\n\r\n`;
      const url = new URL(server.url);
      const socket = connect(Number(url.port), url.hostname);
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.write(
        [
          `POST ${UPLOADS} HTTP/1.1`,
          `host: ${url.host}`,
          `authorization: Bearer ${editor}`,
          `content-type: multipart/form-data; boundary=${boundary}`,
          `content-length: ${head.length + picture.length * 4}`,
          '',
          '',
        ].join('\r\n'),
      );
      socket.write(head);
      socket.write(picture);
      // The server is receiving into its work folder when the line drops.
      await waitFor(leftovers, (now) => now.working === 1);
      socket.destroy();
      await expectNothingLeftSince(before);
    });

    it('takes files from editors only, and at most --upload-files-per-request at once', async () => {
      const refused = await upload([{ name: 'a.png', bytes: await png() }], viewer);
      expect(refused.status).toBe(403);
      const nobody = await fetch(`${server.url}${UPLOADS}`, { method: 'POST', body: new FormData() });
      expect(nobody.status).toBe(401);
      const elsewhere = await upload(
        [{ name: 'a.png', bytes: await png() }],
        editor,
        '/api/v2/projects/p/canvases/nope/uploads',
      );
      expect(elsewhere.status).toBe(404);
      const many = await upload(
        Array.from({ length: 6 }, (_, index) => ({ name: `${index}.png`, bytes: Buffer.alloc(10) })),
      );
      expect(many.status).toBe(422);
      expect(((await many.json()) as { error: { message: string } }).error.message).toContain('at most 5 files');
      const notForm = await api(server.url, UPLOADS, { method: 'POST', token: editor, body: { file: 'x' } });
      expect(notForm.status).toBe(415);
    });
  });
});

describe('uploads into the asset store the server is configured with', () => {
  let s3: S3Standin;
  beforeAll(async () => {
    s3 = await startS3Standin();
  });
  afterAll(async () => s3?.close());

  const stores = [
    { name: 'PostgreSQL chunks', target: STORE_TARGETS[1]!, settings: () => ({ assetStore: 'postgres' as const }) },
    {
      name: 'S3 objects',
      target: STORE_TARGETS[0]!,
      settings: () => ({
        assetStore: 's3' as const,
        s3Bucket: s3.bucket,
        s3Endpoint: s3.endpoint,
        s3ForcePathStyle: true,
        s3Prefix: 'uploads/',
        s3AccessKeyId: 'S3RVER',
        s3SecretAccessKey: 'S3RVER',
      }),
    },
  ];
  for (const { name, target, settings } of stores)
    it.skipIf(!target.available)(`keeps a picture and its thumbnail as ${name}, read back whole`, async () => {
      const server = await startTestServer(target, settings());
      try {
        const { projects } = server.store;
        await projects.createWorkspace('w');
        await projects.createProject('p', 'w');
        await projects.createCanvas('p', 'c', false);
        const secret = await projectToken(server.store, 'p', 'editor');
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(await png(30, 20))]), 'board.png');
        const response = await fetch(`${server.url}${UPLOADS}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
          body: form,
        });
        expect(response.status).toBe(201);
        const [picture] = UploadReceipt.parse(await response.json()).uploads;
        const storage = settings().assetStore;
        expect((await server.store.assets.getAsset(picture!.asset_id))?.storage).toBe(storage);
        expect((await server.store.assets.getAsset(picture!.thumbnail_url!.split('/').pop()!))?.storage).toBe(storage);
        for (const url of [picture!.url, picture!.thumbnail_url!]) {
          const read = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${secret}` } });
          expect(read.status).toBe(200);
          expect((await sharp(Buffer.from(await read.arrayBuffer())).metadata()).width).toBe(30);
        }
      } finally {
        await server.close();
      }
    });
});
