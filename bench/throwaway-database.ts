import pg from 'pg';

/** The PostgreSQL server the benches measure on, as its administrator (BENCH_POSTGRES_URL). */
export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Runs `measure` on a database of its own, created for it on the benches' PostgreSQL and dropped afterwards (with
 * whatever is still connected to it). Answers null, running nothing, when PostgreSQL is not reachable.
 */
export async function withThrowawayDatabase<T>(
  name: string,
  measure: (databaseUrl: string) => Promise<T>,
): Promise<T | null> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const database = `${name}_${process.pid}`;
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${database}`;
    return await measure(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}
