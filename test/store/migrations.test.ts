import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/canvas/edit-authorization.js';
import { CanvasNode } from '../../src/contract/index.js';
import { loadMigrations, migrate } from '../../src/store/migrate.js';
import type { SqlDriver } from '../../src/store/sql-driver.js';
import { openDriver, storeOnDriver } from '../../src/store/store.js';
import { STORE_TARGETS, type TestDatabase } from '../support/stores.js';

/** Upgrades of a database that already holds data: each migration must carry the old rows forward. */

const SAME_MILLISECOND = 1_700_000_000_000;

describe.each(STORE_TARGETS)('migrations on existing data: $name', (target) => {
  describe.skipIf(!target.available)('on a real database', () => {
    let database: TestDatabase | undefined;
    let opened: SqlDriver | undefined;

    afterEach(async () => {
      await opened?.close();
      await database?.cleanup();
      opened = undefined;
      database = undefined;
    });

    async function runsAsBeforeMigration3(driver: SqlDriver, runIds: string[]): Promise<void> {
      for (const [index, id] of runIds.entries()) {
        await driver.run(
          `INSERT INTO node_runs (id, project_id, canvas_id, node_id, operation, status, input, input_hash,
             cost_estimated, triggered_kind, created_at, updated_at)
           VALUES (?, 'p', 'c', 'a', 'image_generation', 'succeeded', '{}', ?, 1, 'agent', ?, ?)`,
          [id, `hash-${index}`, SAME_MILLISECOND + (index < 2 ? 0 : index), SAME_MILLISECOND],
        );
      }
    }

    it('003 numbers existing runs in submission order, so new runs come after them', async () => {
      database = await target.createDatabase();
      const driver = openDriver(database.location);
      opened = driver;
      await migrate(
        driver,
        loadMigrations().filter((migration) => migration.version <= 2),
      );
      const store = storeOnDriver(driver, () => SAME_MILLISECOND + 10);
      await store.admin.createWorkspace('w');
      await store.admin.createProject('p', 'w');
      await store.admin.createCanvas('p', 'c', false);
      const node = CanvasNode.parse({ id: 'a', type: 'textAnnotationNode', position: { x: 0, y: 0 }, data: { content: 'a' } });
      await store.writes.createNode({ projectId: 'p', canvasId: 'c', baseRevision: 0, clientSaveId: null, authorization: SYSTEM_WRITE }, node);
      // Two runs tied on created_at (ordered by id as the old query did), then a later one.
      await runsAsBeforeMigration3(driver, ['run_1', 'run_2', 'run_3']);

      expect(await migrate(driver)).toEqual(['003_run_order.sql']);

      const seqs = await driver.all('SELECT id, seq FROM node_runs ORDER BY id');
      expect(seqs.map((row) => [row.id, Number(row.seq)])).toEqual([
        ['run_1', 1],
        ['run_2', 2],
        ['run_3', 3],
      ]);
      expect((await store.runs.latestRunsByNode('p', 'c')).map((row) => row.id)).toEqual(['run_3']);
      const submitted = await store.runs.createRun({
        projectId: 'p',
        canvasId: 'c',
        nodeId: 'a',
        operation: 'image_generation',
        skillId: null,
        input: { prompt: 'after the upgrade' },
        costEstimated: 1,
        triggeredBy: { kind: 'agent', name: 'tester' },
        idempotencyKey: null,
        resources: [],
        maxAttempts: 3,
      });
      expect((await store.runs.latestRunsByNode('p', 'c')).map((row) => row.id)).toEqual([submitted.run.run_id]);
    });
  });
});
