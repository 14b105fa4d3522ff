import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServeConfig } from '../../src/config/index.js';
import { startServer } from '../../src/server/server.js';
import { createLogger } from '../../src/shared/logger.js';
import { cli } from '../support/cli.js';
import { canvasWithFinishedImage } from '../support/finished-image.js';
import { startS3Standin, type S3Standin } from '../support/s3-standin.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * `admin assets migrate --to` moves every asset between the three stores, each copy verified before its record points
 * at it, with a count and a checksum; servers serve throughout. Backup and restore carry assets from any store. S3 is
 * s3rver, a local stand-in of its wire protocol.
 */

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-asset-ops-'));
  dirs.push(dir);
  return dir;
}

let s3: S3Standin;
beforeAll(async () => {
  s3 = await startS3Standin();
});
afterAll(async () => {
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const s3Flags = () => [
  '--s3-bucket',
  s3.bucket,
  '--s3-endpoint',
  s3.endpoint,
  '--s3-force-path-style',
  '--s3-prefix',
  'ops/',
];
const s3Env = { CANVAS_MCP_S3_ACCESS_KEY_ID: 'S3RVER', CANVAS_MCP_S3_SECRET_ACCESS_KEY: 'S3RVER' };
const s3Settings = () => ({
  s3Bucket: s3.bucket,
  s3Endpoint: s3.endpoint,
  s3ForcePathStyle: true,
  s3Prefix: 'ops/',
  s3AccessKeyId: 'S3RVER',
  s3SecretAccessKey: 'S3RVER',
});
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The checksum migrate reports for one asset: SHA-256 over "<asset_id> <sha256>\n". */
const checksumOfOne = (assetId: string, bytes: Buffer) =>
  createHash('sha256')
    .update(`${assetId} ${sha256(bytes)}\n`)
    .digest('hex');

async function fetchAsset(server: TestServer, url: string): Promise<Buffer> {
  const response = await fetch(`${server.url}${url}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe.skipIf(!STORE_TARGETS[1]!.available)('admin assets migrate on PostgreSQL, while the server serves', () => {
  let server: TestServer;
  let databaseUrl: string;
  let assetId: string;
  let image: Buffer;
  let outputUrl: string;

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[1]!, { workers: 1, runDurationMs: 0, ...s3Settings() });
    const location = server.database.location;
    databaseUrl = location.kind === 'postgres' ? location.url : '';
    const { run, image: bytes } = await canvasWithFinishedImage(server);
    assetId = run.outputs[0]!.asset_id;
    outputUrl = run.outputs[0]!.url;
    image = bytes;
  });
  afterAll(async () => server?.close());

  const migrate = (to: string, extra: string[] = []) =>
    cli(
      [
        'admin',
        'assets',
        'migrate',
        '--to',
        to,
        '--database-url',
        databaseUrl,
        '--data',
        server.server.config.dataDir,
        ...s3Flags(),
        '--json',
        ...extra,
      ],
      s3Env,
    );

  it('moves local files into the database: counted, checksummed from both sides, the file removed, still served', async () => {
    const localFile = join(server.server.config.dataDir, 'assets', assetId);
    expect(existsSync(localFile)).toBe(true);
    const moved = await migrate('postgres');
    expect(moved).toMatchObject({
      code: 0,
      json: {
        to: 'postgres',
        total: 1,
        moved: 1,
        already_there: 0,
        bytes: image.length,
        verified: true,
        failures: [],
        source_checksum: checksumOfOne(assetId, image),
      },
    });
    expect(moved.json!.destination_checksum).toBe(moved.json!.source_checksum);
    expect(existsSync(localFile)).toBe(false);
    expect((await server.store.assets.getAsset(assetId))?.storage).toBe('postgres');
    expect(await fetchAsset(server, outputUrl)).toEqual(image);
  });

  it('a second run moves nothing: every asset is already there', async () => {
    expect(await migrate('postgres')).toMatchObject({ code: 0, json: { moved: 0, already_there: 1 } });
  });

  it('moves them on into S3, deleting their chunks, and the server redirects to the object store', async () => {
    const moved = await migrate('s3');
    expect(moved).toMatchObject({ code: 0, json: { to: 's3', moved: 1, verified: true } });
    const record = await server.store.assets.getAsset(assetId);
    expect(record).toMatchObject({
      storage: 's3',
      storageKey: expect.stringMatching(new RegExp(`^ops/assets/${assetId}\\.`)),
    });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      expect((await client.query('SELECT COUNT(*)::int AS n FROM asset_chunks')).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    expect(await fetchAsset(server, outputUrl)).toEqual(image);
  });

  it('backs up an asset kept in S3 into the archive, and restores it from the archive when its object is gone', async () => {
    const archive = join(tempDir(), 'pg-s3.tar.gz');
    const backup = await cli(
      [
        'admin',
        'backup',
        '--out',
        archive,
        '--database-url',
        databaseUrl,
        '--data',
        server.server.config.dataDir,
        ...s3Flags(),
        '--json',
      ],
      s3Env,
    );
    expect(backup).toMatchObject({
      code: 0,
      json: { manifest: { dialect: 'postgres', assets: 1, asset_bytes: image.length, missing_assets: [] } },
    });

    // The bucket loses the object; the database (as pg_restore would bring it back) still names it.
    const record = (await server.store.assets.getAsset(assetId))!;
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: record.storageKey! }));
    expect((await fetch(`${server.url}${outputUrl}`, { redirect: 'follow' })).status).toBe(404);

    const restoredDir = join(tempDir(), 'restored-pg');
    const restored = await cli([
      'admin',
      'restore',
      archive,
      '--data',
      restoredDir,
      '--database-url',
      databaseUrl,
      '--asset-store',
      'postgres',
      '--json',
    ]);
    expect(restored).toMatchObject({
      code: 0,
      json: { settled: true, asset_store: 'postgres', assets_in_place: 0, assets_from_archive: 1, missing_assets: [] },
    });
    expect(await fetchAsset(server, outputUrl)).toEqual(image);
  });

  it('an asset this command cannot reach is reported and left where it was, with a failing exit code', async () => {
    await migrate('s3');
    const unreachable = await cli([
      'admin',
      'assets',
      'migrate',
      '--to',
      'local',
      '--database-url',
      databaseUrl,
      '--data',
      server.server.config.dataDir,
      '--json',
    ]);
    expect(unreachable).toMatchObject({
      code: 1,
      json: { moved: 0, failures: [{ asset_id: assetId, reason: expect.stringContaining('s3 storage') }] },
    });
    expect((await server.store.assets.getAsset(assetId))?.storage).toBe('s3');
  });
});

describe('backup and restore of a SQLite store whose assets are in S3', () => {
  it('streams the objects into the archive; a restore without the bucket brings them back as local files', async () => {
    const source = await startTestServer(STORE_TARGETS[0]!, {
      workers: 1,
      runDurationMs: 0,
      assetStore: 's3',
      ...s3Settings(),
    });
    const archive = join(tempDir(), 'sqlite-s3.tar.gz');
    let run;
    let image: Buffer;
    try {
      ({ run, image } = await canvasWithFinishedImage(source));
      expect((await source.store.assets.getAsset(run.outputs[0]!.asset_id))?.storage).toBe('s3');
      const backup = await cli(
        ['admin', 'backup', '--out', archive, '--data', source.server.config.dataDir, ...s3Flags(), '--json'],
        s3Env,
      );
      expect(backup).toMatchObject({
        code: 0,
        json: { manifest: { dialect: 'sqlite', assets: 1, asset_bytes: image.length } },
      });
      const withoutBucket = await cli([
        'admin',
        'backup',
        '--out',
        join(tempDir(), 'no-bucket.tar.gz'),
        '--data',
        source.server.config.dataDir,
        '--json',
      ]);
      expect(withoutBucket).toMatchObject({
        code: 1,
        json: { error: { message: expect.stringContaining('kept in s3 storage') } },
      });
    } finally {
      await source.close();
    }

    const restoredDir = join(tempDir(), 'restored-sqlite');
    const restored = await cli(['admin', 'restore', archive, '--data', restoredDir, '--json']);
    expect(restored).toMatchObject({
      code: 0,
      json: { dialect: 'sqlite', asset_store: 'local', assets_from_archive: 1, assets_in_place: 0 },
    });
    const assetId = run.outputs[0]!.asset_id;
    expect(readFileSync(join(restoredDir, 'assets', assetId))).toEqual(image);
    const server = await startServer(
      loadServeConfig({ port: 0, dataDir: restoredDir, seedDemo: false, workers: 0 }, {}),
      { logger: createLogger('silent') },
    );
    try {
      const fetched = await fetch(`${server.url}${run.outputs[0]!.url}`);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer())).toEqual(image);
    } finally {
      await server.close();
    }
  }, 90_000);

  it('migrate --to s3 and back --to local on SQLite', async () => {
    const server = await startTestServer(STORE_TARGETS[0]!, { workers: 1, runDurationMs: 0, ...s3Settings() });
    try {
      const { run, image } = await canvasWithFinishedImage(server);
      const assetId = run.outputs[0]!.asset_id;
      const dataDir = server.server.config.dataDir;
      const there = await cli(
        ['admin', 'assets', 'migrate', '--to', 's3', '--data', dataDir, ...s3Flags(), '--json'],
        s3Env,
      );
      expect(there).toMatchObject({
        code: 0,
        json: { moved: 1, verified: true, source_checksum: checksumOfOne(assetId, image) },
      });
      expect(existsSync(join(dataDir, 'assets', assetId))).toBe(false);
      expect(await fetchAsset(server, run.outputs[0]!.url)).toEqual(image);
      const back = await cli(
        ['admin', 'assets', 'migrate', '--to', 'local', '--data', dataDir, ...s3Flags(), '--json', '--keep-source'],
        s3Env,
      );
      expect(back).toMatchObject({
        code: 0,
        json: { moved: 1, verified: true, destination_checksum: checksumOfOne(assetId, image) },
      });
      expect(readFileSync(join(dataDir, 'assets', assetId))).toEqual(image);
      expect(await server.store.assets.getAsset(assetId)).toMatchObject({ storage: 'local', storageKey: null });
      const refused = await cli(['admin', 'assets', 'migrate', '--to', 'postgres', '--data', dataDir, '--json']);
      expect(refused).toMatchObject({
        code: 2,
        json: { error: { message: expect.stringContaining('--database-url') } },
      });
    } finally {
      await server.close();
    }
  }, 90_000);
});
