import type { DuplicateKey, PipelinedExecutor, SqlExecutor, SqlParam, SqlRow } from './sql-driver.js';

/**
 * Statements written once for both databases that PostgreSQL sends in fewer round trips
 * (docs/scaling.md, "Measured at scale"): a write whose answer is not needed goes with the next round trip,
 * independent reads go together. On SQLite (no round trips) they are the plain statements.
 */

function pipelined(tx: SqlExecutor): PipelinedExecutor | null {
  return 'defer' in tx && 'getMany' in tx && 'allMany' in tx ? (tx as PipelinedExecutor) : null;
}

/** A write whose answer is not needed. */
export async function deferWrite(tx: SqlExecutor, sql: string, params: readonly SqlParam[]): Promise<void> {
  const pipe = pipelined(tx);
  if (pipe) return pipe.defer(sql, params);
  await tx.run(sql, params);
}

/**
 * Inserts a row whose key must be new, refusing with `duplicate()` when it is not. On PostgreSQL the insert is queued
 * and a duplicate fails the round trip it goes with (and so the transaction); elsewhere ON CONFLICT DO NOTHING and the
 * count of inserted rows tell.
 */
export async function insertNew(
  tx: SqlExecutor,
  table: string,
  row: Record<string, SqlParam>,
  key: readonly string[],
  duplicate: () => Error,
): Promise<void> {
  const columns = Object.keys(row);
  const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  const pipe = pipelined(tx);
  if (pipe) {
    // PostgreSQL's detail of a unique violation: `Key (a, b)=(1, x) already exists.`, the values as text.
    const detail = `Key (${key.join(', ')})=(${key.map((column) => String(row[column])).join(', ')}) already exists.`;
    return pipe.defer(insert, Object.values(row), { detail, error: duplicate });
  }
  const { changes } = await tx.run(`${insert} ON CONFLICT (${key.join(', ')}) DO NOTHING`, Object.values(row));
  if (changes === 0) throw duplicate();
}

/** Independent reads, in one round trip where the database has them. */
export async function readMany(
  tx: SqlExecutor,
  queries: ReadonlyArray<{ sql: string; params: readonly SqlParam[] }>,
): Promise<Array<SqlRow | undefined>> {
  const pipe = pipelined(tx);
  if (pipe) return pipe.getMany(queries);
  const rows: Array<SqlRow | undefined> = [];
  for (const query of queries) rows.push(await tx.get(query.sql, query.params));
  return rows;
}

/** Independent reads of any number of rows each, in one round trip where the database has them. */
export async function readAll(
  tx: SqlExecutor,
  queries: ReadonlyArray<{ sql: string; params: readonly SqlParam[] }>,
): Promise<SqlRow[][]> {
  const pipe = pipelined(tx);
  if (pipe) return pipe.allMany(queries);
  const rows: SqlRow[][] = [];
  for (const query of queries) rows.push(await tx.all(query.sql, query.params));
  return rows;
}

export type { DuplicateKey };
