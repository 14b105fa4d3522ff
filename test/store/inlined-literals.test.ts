import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferWrite, readMany } from '../../src/store/pipeline.js';
import { escapeLiteral } from '../../src/store/postgres-driver.js';
import { openStore, type Store } from '../../src/store/store.js';
import { STORE_TARGETS, type TestDatabase } from '../support/stores.js';

/**
 * Statements sent together on PostgreSQL carry their parameters written into the text (src/store/postgres-driver.ts,
 * the simple query protocol). Whatever a value holds (quotes, backslashes, an attempt to end the statement, dollar
 * quotes, question marks, any Unicode, bytes), it is stored and matched as exactly itself.
 */

const TEXTS = [
  '',
  "it's",
  "''",
  'back\\slash',
  '\\',
  "\\'",
  "x\\'; DROP TABLE literal_round_trip; --",
  "'; DELETE FROM literal_round_trip; --",
  '$$ dollar $$ $tag$ quoted $tag$',
  'a ? b ?? c',
  "E'not a prefix'",
  'line\nbreak\ttab\r',
  'naïve — 漢字 🎬 \u2028',
  `${"'\\".repeat(2000)}end`,
];

const postgres = STORE_TARGETS[1]!;

describe('escaping a string the way pg does', () => {
  it.each(TEXTS.map((text) => [JSON.stringify(text).slice(0, 40), text]))('%s', (_, text) => {
    expect(escapeLiteral(text)).toBe(pg.Client.prototype.escapeLiteral.call(null, text));
  });
});

describe.skipIf(!postgres.available)('values written into statements sent together on PostgreSQL', () => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await postgres.createDatabase();
    store = await openStore(database.location);
    await store.driver.exec(
      'CREATE TABLE literal_round_trip (id INTEGER PRIMARY KEY, text_value TEXT, number_value DOUBLE PRECISION, bytes BYTEA)',
    );
  });
  afterAll(async () => {
    await store?.close();
    await database?.cleanup();
  });

  it('stores every text as itself, and finds it by itself', async () => {
    const found = await store.driver.transaction(async (tx) => {
      for (const [id, text] of TEXTS.entries())
        await deferWrite(tx, 'INSERT INTO literal_round_trip (id, text_value) VALUES (?, ?)', [id, text]);
      return readMany(
        tx,
        TEXTS.map((text) => ({
          sql: 'SELECT id, text_value FROM literal_round_trip WHERE text_value = ?',
          params: [text],
        })),
      );
    });
    expect(found).toEqual(TEXTS.map((text, id) => ({ id, text_value: text })));
    const rows = await store.driver.all('SELECT id, text_value FROM literal_round_trip ORDER BY id');
    expect(rows.map((row) => row.text_value)).toEqual(TEXTS);
  });

  it('stores numbers (negative ones after a minus sign included) and bytes as themselves', async () => {
    const numbers = [-1, 0, 1.5, -0.25, 2 ** 53 - 1, -(2 ** 40)];
    const bytes = Buffer.from([0x00, 0x27, 0x5c, 0xff, 0x3f]);
    const found = await store.driver.transaction(async (tx) => {
      for (const [index, value] of numbers.entries())
        await deferWrite(tx, 'INSERT INTO literal_round_trip (id, number_value, bytes) VALUES (?, ?, ?)', [
          100 + index,
          value,
          bytes,
        ]);
      return readMany(tx, [
        {
          sql: 'SELECT count(*) AS n FROM literal_round_trip WHERE id >= ? AND number_value - -1 = ? - -1',
          params: [100, -1],
        },
      ]);
    });
    expect(found).toEqual([{ n: 1 }]);
    const rows = await store.driver.all(
      'SELECT number_value, bytes FROM literal_round_trip WHERE id >= 100 ORDER BY id',
    );
    expect(rows.map((row) => row.number_value)).toEqual(numbers);
    expect(rows.every((row) => Buffer.compare(row.bytes as Buffer, bytes) === 0)).toBe(true);
  });
});
