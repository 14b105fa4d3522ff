import type { Command } from 'commander';
import { ConfigError, loadStoreLocation } from '../config/index.js';
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
  if (!Number.isInteger(seconds) || seconds <= 0)
    throw new CanvasError(
      'invalid_arguments',
      `--expires-in must be a positive whole number of seconds, got ${JSON.stringify(value)}.`,
    );
  return seconds;
}

/** A command line commander could not parse (unknown option, missing argument): exit code 2, like a usage error. */
export class CommandLineError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CommandLineError';
  }
}

/**
 * Exit codes: 1 for a refused or failed operation, 2 for bad configuration or usage. With --json every failure is one
 * JSON object on stdout, `{ error: { code, message, details? } }`: a script reads it the same way whatever
 * went wrong. The codes beyond the API's: `usage`, `configuration`, `io` (a file the command reads or writes) and
 * `failed`.
 */
export function reportFailure(error: unknown, json: boolean): number {
  const { code, message, details, exitCode } = describeFailure(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } })}\n`);
  else
    process.stderr.write(
      exitCode === 2 ? `${message}\n` : `error${code === 'failed' ? '' : ` (${code})`}: ${message}\n`,
    );
  return exitCode;
}

function describeFailure(error: unknown): {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  exitCode: number;
} {
  if (error instanceof ConfigError)
    return { code: 'configuration', message: error.message, details: { problems: error.problems }, exitCode: 2 };
  if (error instanceof UsageError) return { code: 'usage', message: error.message, exitCode: 2 };
  if (error instanceof CommandLineError) return { code: 'usage', message: error.message, exitCode: error.exitCode };
  if (error instanceof CanvasError) {
    return {
      code: error.code,
      message: error.message,
      ...(Object.keys(error.details).length ? { details: error.details } : {}),
      exitCode: 1,
    };
  }
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof errno === 'string' && /^E[A-Z]+$/.test(errno))
    return { code: 'io', message, details: { errno }, exitCode: 1 };
  return { code: 'failed', message, exitCode: 1 };
}
