import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectUploadTicket, UploadReceipt } from '../../src/contract/index.js';
import { startS3Standin, type S3Standin } from '../support/s3-standin.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { HTML_PAGE, phonePhoto } from '../support/upload-fixtures.js';

/**
 * Direct uploads with the S3 asset store, against the S3 stand-in with the AWS SDK in the path: a file is PUT straight
 * to the bucket by a presigned URL whose size is signed, then completed through the same checks every upload meets (a
 * phone photo comes out upright without its GPS; an HTML page named .png is refused and removed); a token for another
 * canvas, a forged one, or a body of another size is refused; nothing is left in the landing place. A file the caller's
 * hourly upload budget or the project's storage quota has no room for is refused before it is sent.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';

describe('direct uploads to S3', () => {
  let s3: S3Standin;
  let server: TestServer;
  let editor: string;

  beforeAll(async () => {
    s3 = await startS3Standin();
    server = await startTestServer(STORE_TARGETS[0]!, {
      assetStore: 's3',
      s3Bucket: s3.bucket,
      s3Endpoint: s3.endpoint,
      s3ForcePathStyle: true,
      s3Prefix: 'media/',
      s3AccessKeyId: 'S3RVER',
      s3SecretAccessKey: 'S3RVER',
      uploadMaxBytes: 1_000_000,
    });
    const { projects } = server.store;
    await projects.createWorkspace('w');
    await projects.createProject('p', 'w');
    await projects.createCanvas('p', 'c', false);
    await projects.createCanvas('p', 'other', false);
    editor = await projectToken(server.store, 'p', 'editor');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const ticket = async (fileName: string, byteSize: number, canvas = CANVAS) => {
    const answer = await api(server.url, `${canvas}/uploads/direct`, {
      method: 'POST',
      token: editor,
      body: { file_name: fileName, byte_size: byteSize },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return DirectUploadTicket.parse(answer.body);
  };
  const put = (given: DirectUploadTicket, bytes: Buffer) =>
    fetch(given.url, { method: 'PUT', headers: given.headers, body: new Uint8Array(bytes) });
  const complete = (token: string, canvas = CANVAS) =>
    api(server.url, `${canvas}/uploads/direct/complete`, {
      method: 'POST',
      token: editor,
      body: { upload_token: token },
    });
  const landing = async () =>
    (await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'media/incoming/' }))).Contents ?? [];

  it('takes a photo PUT straight to the bucket in, upright and without its GPS, and leaves nothing in the landing place', async () => {
    const photo = await phonePhoto();
    const given = await ticket('mara-front.jpg', photo.length);
    expect(new URL(given.url).pathname).toMatch(/^\/[^/]+\/media\/incoming\/up_/);
    expect((await put(given, photo)).status).toBe(200);
    expect(await landing()).toHaveLength(1);

    const done = await complete(given.upload_token);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const [kept] = UploadReceipt.parse(done.body).uploads;
    expect(kept).toMatchObject({ file_name: 'mara-front.jpg', mime_type: 'image/jpeg', width: 32, height: 64 });
    expect((await server.store.assets.getAsset(kept!.asset_id))?.storage).toBe('s3');
    const read = await fetch(`${server.url}${kept!.url}`, { headers: { authorization: `Bearer ${editor}` } });
    const metadata = await sharp(Buffer.from(await read.arrayBuffer())).metadata();
    expect([metadata.width, metadata.height, metadata.exif]).toEqual([32, 64, undefined]);
    expect(await landing()).toHaveLength(0);
    // A token is spent: the same completion again finds nothing.
    expect((await complete(given.upload_token)).status).toBe(404);
  });

  it('refuses an HTML page named .png when it is completed, keeping nothing anywhere', async () => {
    const assetsBefore = (await server.store.assets.listAssets()).length;
    const given = await ticket('cat.png', HTML_PAGE.length);
    expect((await put(given, HTML_PAGE)).status).toBe(200);
    const refused = await complete(given.upload_token);
    expect(refused.status).toBe(415);
    expect(JSON.stringify(refused.body)).toContain('an HTML document');
    expect((await server.store.assets.listAssets()).length).toBe(assetsBefore);
    expect(await landing()).toHaveLength(0);
  });

  it('refuses a body of another size than signed, a token of another canvas and a forged token', async () => {
    const photo = await phonePhoto();
    const given = await ticket('a.jpg', photo.length);
    // Another size, said honestly in its content-length: the signature covers the size, so the bucket refuses it.
    const bigger = Buffer.concat([photo, Buffer.alloc(10)]);
    const longer = await fetch(given.url, {
      method: 'PUT',
      headers: { 'content-length': String(bigger.length) },
      body: new Uint8Array(bigger),
    });
    expect(longer.status).toBe(403);
    expect((await put(given, photo)).status).toBe(200);

    const elsewhere = await complete(given.upload_token, '/api/v2/projects/p/canvases/other');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toMatchObject({ error: { details: { field: 'upload_token' } } });
    const [body, sig] = given.upload_token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...claims, s: 1 })).toString('base64url')}.${sig}`;
    expect((await complete(forged)).status).toBe(400);
    expect((await complete(given.upload_token)).status).toBe(201);
  });

  it('refuses a file announced over the upload limit before anything is sent', async () => {
    const over = await api(server.url, `${CANVAS}/uploads/direct`, {
      method: 'POST',
      token: editor,
      body: { file_name: 'scout.mp4', byte_size: 2_000_000 },
    });
    expect(over.status).toBe(413);
    expect(JSON.stringify(over.body)).toContain('over the upload limit of 1000000 bytes');
  });

  it("refuses a file announced past the caller's hour or the project's storage quota before anything is sent", async () => {
    const MiB = 1024 * 1024;
    const bounded = await startTestServer(STORE_TARGETS[0]!, {
      assetStore: 's3',
      s3Bucket: s3.bucket,
      s3Endpoint: s3.endpoint,
      s3ForcePathStyle: true,
      s3Prefix: 'bounded/',
      s3AccessKeyId: 'S3RVER',
      s3SecretAccessKey: 'S3RVER',
      uploadMaxBytes: 4 * MiB,
      uploadBytesPerHour: 2 * MiB,
      projectStorageQuotaBytes: MiB,
    });
    try {
      await bounded.store.projects.createWorkspace('w');
      await bounded.store.projects.createProject('p', 'w');
      await bounded.store.projects.createCanvas('p', 'c', false);
      const token = await projectToken(bounded.store, 'p', 'editor');
      const announce = (byteSize: number) =>
        api(bounded.url, `${CANVAS}/uploads/direct`, {
          method: 'POST',
          token,
          body: { file_name: 'scout.mp4', byte_size: byteSize },
        });
      const pastHour = await announce(3 * MiB);
      expect(pastHour.status).toBe(429);
      expect(pastHour.body).toMatchObject({ error: { details: { limit: 'upload_bytes_per_hour' } } });
      const pastQuota = await announce(1.5 * MiB);
      expect(pastQuota.status).toBe(422);
      expect(pastQuota.body).toMatchObject({
        error: { details: { limit: 'project_storage_quota', used_bytes: 0, limit_bytes: MiB } },
      });
      expect((await announce(MiB / 2)).status).toBe(201);
    } finally {
      await bounded.close();
    }
  });
});

describe('direct uploads without S3', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!);
    const { projects } = server.store;
    await projects.createWorkspace('w');
    await projects.createProject('p', 'w');
    await projects.createCanvas('p', 'c', false);
  });
  afterAll(async () => server?.close());

  it('says they need the S3 asset store, and where to send the file instead', async () => {
    const answer = await api(server.url, `${CANVAS}/uploads/direct`, {
      method: 'POST',
      token: await projectToken(server.store, 'p', 'editor'),
      body: { file_name: 'scout.mp4', byte_size: 1000 },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('Direct uploads need the S3 asset store');
  });
});
