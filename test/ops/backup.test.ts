import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServeConfig } from '../../src/config/index.js';
import type { NodeRun } from '../../src/contract/index.js';
import { startServer } from '../../src/server/server.js';
import { openStore } from '../../src/store/store.js';
import { createLogger } from '../../src/shared/logger.js';
import { cli } from '../support/cli.js';
import { canvasWithFinishedImage } from '../support/finished-image.js';
import { api, startTestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * `admin backup` writes one archive with a consistent database copy and the asset files it lists, while the server
 * runs; `admin restore` brings it back into an empty data dir, and a server started there serves the canvas and its
 * generated image.
 */

const CANVAS = '/api/v2/projects/film/canvases/board';
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-backup-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('backup and restore on SQLite', () => {
  it('round-trips a canvas with a finished image run, taken while the server runs, served again from the restored dir', async () => {
    const source = await startTestServer(STORE_TARGETS[0]!, { workers: 1, runDurationMs: 0 });
    let archive: string;
    let token: string;
    let run: NodeRun;
    let image: Buffer;
    try {
      ({ token, run, image } = await canvasWithFinishedImage(source));
      // Review is in the database, so in the backup: a thread with its comment.
      await source.store.review.createThread(
        {
          id: 'thread_kept',
          projectId: 'film',
          canvasId: 'board',
          nodeId: null,
          shotId: null,
          anchor: null,
          nodeLabel: '',
          audience: 'team',
        },
        {
          id: 'comment_kept',
          authorKind: 'person',
          author: { issuer: 'https://idp.example', subject: 'olga' },
          authorName: 'olga',
          guestId: null,
          body: 'Kept in the backup',
          mentions: [],
        },
        [],
      );
      archive = join(tempDir(), 'nightly.tar.gz');
      const backup = await cli(['admin', 'backup', '--out', archive, '--data', source.server.config.dataDir, '--json']);
      expect(backup).toMatchObject({
        code: 0,
        json: { archive, database: { included: true }, manifest: { dialect: 'sqlite', assets: 1, missing_assets: [] } },
      });
      expect(modeOf(archive)).toBe('600');
    } finally {
      await source.close();
    }

    const restoredDir = join(tempDir(), 'restored');
    const restored = await cli(['admin', 'restore', archive, '--data', restoredDir, '--json']);
    expect(restored).toMatchObject({ code: 0, json: { data_dir: restoredDir, dialect: 'sqlite', assets: 1 } });
    expect([modeOf(restoredDir), modeOf(join(restoredDir, 'canvas.db')), modeOf(join(restoredDir, 'assets'))]).toEqual([
      '700',
      '600',
      '700',
    ]);
    const restoredStore = await openStore({ kind: 'sqlite', file: join(restoredDir, 'canvas.db') }, { migrate: false });
    try {
      const [kept] = await restoredStore.review.threads('film', 'board');
      expect(kept?.comments.map((comment) => comment.body)).toEqual(['Kept in the backup']);
    } finally {
      await restoredStore.close();
    }
    const assetId = run.outputs[0]!.asset_id;
    expect(modeOf(join(restoredDir, 'assets', assetId))).toBe('600');

    const config = loadServeConfig(
      { port: 0, dataDir: restoredDir, seedDemo: false, workers: 0, rateLimitPerMinute: 0 },
      {},
    );
    const server = await startServer(config, { logger: createLogger('silent') });
    try {
      const fetched = await fetch(`${server.url}${run.outputs[0]!.url}`);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await fetched.arrayBuffer())).toEqual(image);
      const again = await api(server.url, `${CANVAS}/runs/${run.run_id}`, { token });
      // The same outputs; a signed URL's expiry is bucketed by time, so a run across a bucket's edge signs anew.
      const unsigned = (outputs: typeof run.outputs) =>
        outputs.map((output) => ({ ...output, url: output.url.split('?')[0] }));
      expect(again).toMatchObject({ status: 200, body: { status: 'succeeded' } });
      expect(unsigned((again.body as { outputs: typeof run.outputs }).outputs)).toEqual(unsigned(run.outputs));
    } finally {
      await server.close();
    }
  }, 90_000);

  it('refuses to restore into a data dir that is not empty, and touches nothing there', async () => {
    const source = await startTestServer(STORE_TARGETS[0]!);
    const archive = join(tempDir(), 'small.tar.gz');
    try {
      await source.store.projects.createWorkspace('w');
      const dataDir = source.server.config.dataDir;
      expect((await cli(['admin', 'backup', '--out', archive, '--data', dataDir, '--json'])).code).toBe(0);
      const again = await cli(['admin', 'backup', '--out', archive, '--data', dataDir, '--json']);
      expect(again.code).toBe(1);
      // With --json, a failure is one JSON object on stdout too.
      expect((again.json as { error: { message: string } }).error.message).toContain('already exists');
    } finally {
      await source.close();
    }
    const busy = join(tempDir(), 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    const refused = await cli(['admin', 'restore', archive, '--data', busy]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not empty');
    expect(readFileSync(join(busy, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(busy, 'canvas.db'))).toBe(false);
  }, 60_000);

  it('refuses a file that is not a backup', async () => {
    const notBackup = join(tempDir(), 'other.tar.gz');
    writeFileSync(notBackup, 'not a tar');
    const target = join(tempDir(), 'target');
    const refused = await cli(['admin', 'restore', notBackup, '--data', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: /);
    expect(existsSync(join(target, 'canvas.db'))).toBe(false);
  }, 30_000);
});

describe.skipIf(!STORE_TARGETS[1]!.available)('backup on PostgreSQL', () => {
  it('archives the assets, says how to dump the database, and restores the assets', async () => {
    const source = await startTestServer(STORE_TARGETS[1]!, { workers: 1, runDurationMs: 0 });
    let archive: string;
    let run: NodeRun;
    let image: Buffer;
    try {
      ({ run, image } = await canvasWithFinishedImage(source));
      const location = source.database.location;
      const url = location.kind === 'postgres' ? location.url : '';
      archive = join(tempDir(), 'pg.tar.gz');
      const backup = await cli([
        'admin',
        'backup',
        '--out',
        archive,
        '--database-url',
        url,
        '--data',
        source.server.config.dataDir,
        '--json',
      ]);
      expect(backup).toMatchObject({
        code: 0,
        json: {
          manifest: { dialect: 'postgres', assets: 1 },
          database: { included: false, dump_command: expect.stringMatching(/^pg_dump --format=custom /) },
        },
      });
      expect(JSON.stringify(backup.json)).toContain('pg_restore');
    } finally {
      await source.close();
    }
    const restoredDir = join(tempDir(), 'assets-only');
    const restored = await cli(['admin', 'restore', archive, '--data', restoredDir, '--json']);
    expect(restored).toMatchObject({ code: 0, json: { dialect: 'postgres', assets: 1 } });
    expect(readFileSync(join(restoredDir, 'assets', run.outputs[0]!.asset_id))).toEqual(image);
    expect(existsSync(join(restoredDir, 'canvas.db'))).toBe(false);
  }, 90_000);
});
