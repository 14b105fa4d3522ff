import type { Command } from 'commander';
import { ConfigError, loadStoreLocation } from '../config.js';
import { CanvasError } from '../shared/errors.js';
import { describeStoreLocation, storeExists } from '../store/store-presence.js';
import { openStore, type Store, type StoreLocation } from '../store/store.js';

/** What every command shares: the store flags, one JSON object with --json, and error reporting. */

export interface StoreFlags {
  data?: string;
  databaseUrl?: string;
  create?: boolean;
}

/** A command that cannot run as asked (exit code 2, like bad configuration). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function withStoreOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'data directory of the embedded SQLite store (env CANVAS_MCP_DATA_DIR; default ./data)')
    .option('--database-url <url>', 'PostgreSQL connection URL instead of SQLite (env CANVAS_MCP_DATABASE_URL)')
    .option('--create', 'create the store if there is none (otherwise a missing store is an error)');
}

function missingStore(location: StoreLocation): UsageError {
  return new UsageError(
    location.kind === 'sqlite'
      ? `No store at ${location.file}: run this from the directory that holds the data dir, or give --data DIR ` +
          '(or --database-url URL). Add --create to make a new, empty store there.'
      : `No store in ${describeStoreLocation(location).replace(/^postgres /, '')} (no schema_migrations table): check --database-url ` +
          '(or --data DIR for SQLite). Add --create to make a new, empty store there.',
  );
}

/** Resolves the store of --data / --database-url and says which it is (on stderr: stdout carries the answer). */
export async function resolveStore(flags: StoreFlags): Promise<StoreLocation> {
  const location = loadStoreLocation({ dataDir: flags.data, databaseUrl: flags.databaseUrl });
  if (!flags.create && !(await storeExists(location))) throw missingStore(location);
  process.stderr.write(`store: ${describeStoreLocation(location)}\n`);
  return location;
}

/** Opens an existing store (a new one only with --create), runs the work, closes the store. */
export async function withStore<T>(flags: StoreFlags, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(await resolveStore(flags));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Prints one JSON object with --json, else a line for people. */
export function report(json: boolean | undefined, value: Record<string, unknown>, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function positiveSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds <= 0) throw new CanvasError('invalid_arguments', `--expires-in must be a positive whole number of seconds, got ${JSON.stringify(value)}.`);
  return seconds;
}

/** Exit codes: 1 for a refused operation, 2 for bad configuration or usage. */
export function reportFailure(error: unknown, json: boolean): number {
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (error instanceof CanvasError) {
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } })}\n`);
    else process.stderr.write(`error (${error.code}): ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}
