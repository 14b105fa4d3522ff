import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDriver } from '../../src/store/sqlite-driver.js';
import type { SqlDriver } from '../../src/store/sql-driver.js';

/**
 * Group commit on SQLite: write transactions that arrive together share one durable commit, each still all or nothing,
 * a refused one never failing its neighbours, and none acknowledged before the commit.
 */

describe('SQLite group commit', () => {
  let dir: string;
  let driver: SqlDriver;
  let outside: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-group-'));
    driver = openSqliteDriver(join(dir, 'canvas.db'));
    await driver.exec('CREATE TABLE items (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    outside = new Database(join(dir, 'canvas.db'), { readonly: true });
  });
  afterEach(async () => {
    outside.close();
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const committedIds = () => outside.prepare('SELECT id FROM items ORDER BY id').pluck().all() as string[];

  it('writes that arrive together share one transaction: a later one sees an earlier one before anyone else does', async () => {
    const seenByLast: { inside: number; outside: number }[] = [];
    const writes = Array.from({ length: 8 }, (_, index) =>
      driver.transaction(async (tx) => {
        await tx.run('INSERT INTO items (id, note) VALUES (?, ?)', [`item-${index}`, 'x']);
        if (index === 7) {
          const inside = Number((await tx.get('SELECT COUNT(*) AS n FROM items'))!.n);
          seenByLast.push({ inside, outside: committedIds().length });
        }
        return index;
      }),
    );
    expect(await Promise.all(writes)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Inside the shared transaction all eight rows exist; to another connection none did until the one commit.
    expect(seenByLast).toEqual([{ inside: 8, outside: 0 }]);
    expect(committedIds()).toHaveLength(8);
  });

  it('a refused write rolls back only itself, and its neighbours commit', async () => {
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'refused', 'c'].map((id) =>
        driver.transaction(async (tx) => {
          await tx.run('INSERT INTO items (id, note) VALUES (?, ?)', [`${id}-1`, 'first']);
          if (id === 'refused') throw new Error('revision conflict');
          await tx.run('INSERT INTO items (id, note) VALUES (?, ?)', [`${id}-2`, 'second']);
          return id;
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(committedIds()).toEqual(['a-1', 'a-2', 'b-1', 'b-2', 'c-1', 'c-2']);
  });

  it('a write whose statement fails (a duplicate key) leaves the others of its group applied', async () => {
    await driver.transaction((tx) => tx.run('INSERT INTO items (id, note) VALUES (?, ?)', ['taken', 'x']));
    const outcomes = await Promise.allSettled(
      ['free-1', 'taken', 'free-2'].map((id) =>
        driver.transaction((tx) => tx.run('INSERT INTO items (id, note) VALUES (?, ?)', [id, 'y'])),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committedIds()).toEqual(['free-1', 'free-2', 'taken']);
  });

  it('nothing is acknowledged before its commit: a write resolves only once another connection can read it', async () => {
    const visibleAtResolution = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        driver
          .transaction((tx) => tx.run('INSERT INTO items (id, note) VALUES (?, ?)', [`seen-${index}`, 'z']))
          .then(() => committedIds().includes(`seen-${index}`)),
      ),
    );
    expect(visibleAtResolution).toEqual([true, true, true, true]);
  });
});
