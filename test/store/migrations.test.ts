import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
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
      const driver = await openDriver(database.location);
      opened = driver;
      await migrate(
        driver,
        loadMigrations().filter((migration) => migration.version <= 2),
      );
      await seedAtVersion2(driver);
      // Two runs tied on created_at (ordered by id as the old query did), then a later one.
      await runsAsBeforeMigration3(driver, ['run_1', 'run_2', 'run_3']);

      expect(
        await migrate(
          driver,
          loadMigrations().filter((migration) => migration.version <= 3),
        ),
      ).toEqual(['003_run_order.sql']);
      const seqs = await driver.all('SELECT id, seq FROM node_runs ORDER BY id');
      expect(seqs.map((row) => [row.id, Number(row.seq)])).toEqual([
        ['run_1', 1],
        ['run_2', 2],
        ['run_3', 3],
      ]);

      expect(
        await migrate(
          driver,
          loadMigrations().filter((migration) => migration.version <= 4),
        ),
      ).toEqual(['004_hardening_and_history.sql']);
      await migrate(driver);
      const store = storeOnDriver(driver, () => SAME_MILLISECOND + 10);
      expect((await store.runs.latestRunsByNode('p', 'c')).map((row) => row.id)).toEqual(['run_3']);
      const node = await store.layout.readNode('p', 'c', 'a');
      const submitted = await store.runs.createRun({
        projectId: 'p',
        canvasId: 'c',
        nodeId: 'a',
        nodeSeq: node!.seq,
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

    it('004 carries the layout, its size and the runs of every node forward, and writes continue after it', async () => {
      database = await target.createDatabase();
      const driver = await openDriver(database.location);
      opened = driver;
      await migrate(
        driver,
        loadMigrations().filter((migration) => migration.version <= 3),
      );
      await seedAtVersion2(driver);
      await driver.run(
        `INSERT INTO save_receipts (project_id, canvas_id, client_save_id, payload_hash, receipt, created_at) VALUES ('p', 'c', 'old-save', 'h', '{}', 1)`,
      );
      expect(
        await migrate(
          driver,
          loadMigrations().filter((migration) => migration.version <= 4),
        ),
      ).toEqual(['004_hardening_and_history.sql']);
      await migrate(driver);
      const canvas = await driver.get(
        'SELECT node_count, edge_count, layout_bytes FROM canvases WHERE project_id = ? AND id = ?',
        ['p', 'c'],
      );
      expect({
        nodes: Number(canvas!.node_count),
        edges: Number(canvas!.edge_count),
        bytes: Number(canvas!.layout_bytes),
      }).toEqual({
        nodes: 1,
        edges: 0,
        bytes: NODE_BODY.length,
      });
      expect(
        await driver.get("SELECT client_save_key FROM save_receipts WHERE client_save_key = 'legacy:old-save'"),
      ).toBeDefined();

      const store = storeOnDriver(driver, () => SAME_MILLISECOND + 10);
      const next = CanvasNode.parse({
        id: 'b',
        type: 'textAnnotationNode',
        position: { x: 0, y: 0 },
        data: { content: 'b' },
      });
      const receipt = await store.writes.createNode(
        { projectId: 'p', canvasId: 'c', baseRevision: 1, clientSaveId: 'old-save', authorization: SYSTEM_WRITE },
        next,
      );
      expect(receipt).toMatchObject({ revision: 2, replayed: false });
      const layout = await store.layout.loadLayout('p', 'c');
      expect(layout?.nodes.map((row) => row.id)).toEqual(['a', 'b']);
    });

    it('006 brings a node stored at 1e20 (and 1e308 wide) within the bounds, so the canvas reads and reverts again', async () => {
      database = await target.createDatabase();
      const driver = await openDriver(database.location);
      opened = driver;
      await migrate(
        driver,
        loadMigrations().filter((migration) => migration.version <= 5),
      );
      await seedAtVersion2(driver);
      const far = JSON.stringify({
        id: 'far',
        type: 'textAnnotationNode',
        position: { x: 1e20, y: -1e20 },
        width: 1e308,
        style: { height: 1e9 },
        data: { content: 'far' },
      });
      await driver.run(
        `INSERT INTO canvas_nodes (project_id, canvas_id, id, seq, type, parent_id, body, created_revision, updated_revision)
         VALUES ('p', 'c', 'far', 2, 'textAnnotationNode', NULL, ?, 2, 2)`,
        [far],
      );
      await driver.run(
        `INSERT INTO canvas_changes (project_id, canvas_id, revision, object_kind, object_id, change, body, has_body) VALUES ('p', 'c', 2, 'node', 'far', 'create', ?, 1)`,
        [far],
      );
      await driver.run(
        "UPDATE canvases SET revision = 2, next_seq = 3, node_count = 2, layout_bytes = ? WHERE project_id = 'p' AND id = 'c'",
        [NODE_BODY.length + far.length],
      );
      const store = storeOnDriver(driver, () => SAME_MILLISECOND + 10);
      await expect(store.layout.readNode('p', 'c', 'far')).rejects.toThrow();

      expect(
        await migrate(
          driver,
          loadMigrations().filter((migration) => migration.version <= 6),
        ),
      ).toEqual(['006_node_bounds.sql']);
      // The store's code reads the columns of every migration: the later ones (none touches node bodies) go on too.
      await migrate(driver);
      const bounded = (await store.layout.readNode('p', 'c', 'far'))!.node;
      expect(bounded).toMatchObject({ position: { x: 1e7, y: -1e7 }, width: 1e5, style: { height: 1e5 } });
      const canvas = await driver.get("SELECT layout_bytes FROM canvases WHERE project_id = 'p' AND id = 'c'");
      expect(Number(canvas!.layout_bytes)).toBe(NODE_BODY.length + JSON.stringify(bounded).length);

      // The change log still holds the old body: a revert to that revision restores the node within the bounds.
      const at = (baseRevision: number) => ({
        projectId: 'p',
        canvasId: 'c',
        baseRevision,
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      });
      await store.writes.deleteNode(at(2), 'far');
      await store.writes.revert(at(3), 2);
      expect((await store.layout.readNode('p', 'c', 'far'))!.node.position).toEqual({ x: 1e7, y: -1e7 });
    });
  });
});

const NODE_BODY = JSON.stringify({
  id: 'a',
  type: 'textAnnotationNode',
  position: { x: 0, y: 0 },
  data: { content: 'a' },
});

/** A workspace, project and canvas holding one node at revision 1, written as the schema of 001-003 stored them. */
async function seedAtVersion2(driver: SqlDriver): Promise<void> {
  await driver.run("INSERT INTO workspaces (id, created_at) VALUES ('w', 1)");
  await driver.run("INSERT INTO projects (id, workspace_id, created_at) VALUES ('p', 'w', 1)");
  await driver.run("INSERT INTO canvases (project_id, id, revision, next_seq, created_at) VALUES ('p', 'c', 1, 2, 1)");
  await driver.run(
    `INSERT INTO canvas_nodes (project_id, canvas_id, id, seq, type, parent_id, body, created_revision, updated_revision)
     VALUES ('p', 'c', 'a', 1, 'textAnnotationNode', NULL, ?, 1, 1)`,
    [NODE_BODY],
  );
  await driver.run(
    "INSERT INTO canvas_changes (project_id, canvas_id, revision, object_kind, object_id, change) VALUES ('p', 'c', 1, 'node', 'a', 'create')",
  );
}
