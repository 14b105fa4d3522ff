import { CanvasError } from '../shared/errors.js';
import { deferWrite } from './pipeline.js';
import type { SqlExecutor, SqlParam } from './sql-driver.js';

/** Statements about one row that several store modules write alike. */

const COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Inserts one row from an object of column → value: `INSERT INTO table (a, b, …) VALUES (?, ?, …)`, the columns in
 * the object's key order, so a long INSERT cannot pair a value with the wrong column. Table and column names are the
 * caller's own identifiers, never input; `tail` follows the VALUES list (an ON CONFLICT clause).
 */
export function insertRow(
  tx: SqlExecutor,
  table: string,
  row: Record<string, SqlParam>,
  tail = '',
): Promise<{ changes: number }> {
  const columns = Object.keys(row);
  for (const name of [table, ...columns]) {
    if (!COLUMN_NAME.test(name)) throw new Error(`insertRow: ${JSON.stringify(name)} is not an identifier.`);
  }
  const values = columns.map(() => '?').join(', ');
  return tx.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values})${tail ? ` ${tail}` : ''}`, [
    ...Object.values(row),
  ]);
}

/** insertRow whose answer the write does not need: on PostgreSQL it goes with the transaction's next round trip. */
export function deferRow(tx: SqlExecutor, table: string, row: Record<string, SqlParam>): Promise<void> {
  const columns = Object.keys(row);
  for (const name of [table, ...columns]) {
    if (!COLUMN_NAME.test(name)) throw new Error(`deferRow: ${JSON.stringify(name)} is not an identifier.`);
  }
  const values = columns.map(() => '?').join(', ');
  return deferWrite(tx, `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values})`, Object.values(row));
}

/** Throws not_found with `message` when `sql` finds no row. */
export async function requireRow(tx: SqlExecutor, sql: string, params: string[], message: string): Promise<void> {
  if (!(await tx.get(sql, params))) throw new CanvasError('not_found', message);
}
