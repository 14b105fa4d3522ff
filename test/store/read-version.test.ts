import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDriver } from '../../src/store/sqlite-driver.js';
import type { SqlDriver } from '../../src/store/sql-driver.js';
import { createReadCache } from '../../src/store/read-cache.js';

/**
 * The SQLite read version: asked several times per request, it is read once per turn of the event loop. Our own commits
 * are seen by the very next read; another process's commit from the next turn.
 */

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SQLite read version', () => {
  let dir: string;
  let driver: SqlDriver;
  let otherProcess: Database.Database;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-read-version-'));
    driver = openSqliteDriver(join(dir, 'canvas.db'));
    await driver.exec('CREATE TABLE items (id TEXT PRIMARY KEY, note TEXT NOT NULL)');
    otherProcess = new Database(join(dir, 'canvas.db'));
  });
  afterEach(async () => {
    otherProcess.close();
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const writeElsewhere = (id: string, note: string) =>
    otherProcess.prepare('INSERT OR REPLACE INTO items (id, note) VALUES (?, ?)').run(id, note);

  it('answers as of the start of the turn: a commit elsewhere during the turn is seen from the next one', async () => {
    const before = await driver.readVersion();
    writeElsewhere('a', 'x');
    expect(await driver.readVersion()).toBe(before);
    await nextTurn();
    expect(await driver.readVersion()).not.toBe(before);
  });

  it('sees this process’s own commits at once, within the same turn', async () => {
    const first = await driver.readVersion();
    await driver.run('INSERT INTO items (id, note) VALUES (?, ?)', ['a', 'x']);
    const afterRun = await driver.readVersion();
    expect(afterRun).not.toBe(first);
    await driver.exec("INSERT INTO items (id, note) VALUES ('b', 'y')");
    const afterExec = await driver.readVersion();
    expect(afterExec).not.toBe(afterRun);
    await driver.transaction((tx) => tx.run('INSERT INTO items (id, note) VALUES (?, ?)', ['c', 'z']));
    expect(await driver.readVersion()).not.toBe(afterExec);
  });

  it('tells another process’s commits from this one’s: its version moves only for the other’s (the token cache)', async () => {
    const start = driver.otherProcessVersion();
    expect(start).not.toBeNull();
    await driver.run('INSERT INTO items (id, note) VALUES (?, ?)', ['mine', 'x']);
    await driver.transaction((tx) => tx.run('INSERT INTO items (id, note) VALUES (?, ?)', ['mine-too', 'y']));
    await nextTurn();
    expect(driver.otherProcessVersion()).toBe(start);
    writeElsewhere('theirs', 'z');
    await nextTurn();
    expect(driver.otherProcessVersion()).not.toBe(start);
  });

  it('lets the read cache answer a change made by another process from the next turn on', async () => {
    writeElsewhere('a', 'before');
    await nextTurn();
    const cachedRead = createReadCache(driver);
    const noteOfA = () =>
      cachedRead('a', async () => (await driver.get('SELECT note FROM items WHERE id = ?', ['a']))?.note);
    expect(await noteOfA()).toBe('before');
    writeElsewhere('a', 'after');
    await nextTurn();
    expect(await noteOfA()).toBe('after');
  });

  it('lets the read cache answer this process’s own write at once', async () => {
    await driver.run('INSERT INTO items (id, note) VALUES (?, ?)', ['a', 'before']);
    const cachedRead = createReadCache(driver);
    const noteOfA = () =>
      cachedRead('a', async () => (await driver.get('SELECT note FROM items WHERE id = ?', ['a']))?.note);
    expect(await noteOfA()).toBe('before');
    await driver.run('UPDATE items SET note = ? WHERE id = ?', ['after', 'a']);
    expect(await noteOfA()).toBe('after');
  });
});
