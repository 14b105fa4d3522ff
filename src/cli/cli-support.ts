import type { Command } from 'commander';
import { ConfigError, loadStoreLocation } from '../config.js';
import { CanvasError } from '../shared/errors.js';
import { openStore, type Store } from '../store/store.js';

/** What every command shares: the store flags, one JSON object with --json, and error reporting. */

export interface StoreFlags {
  data?: string;
  databaseUrl?: string;
}

export function withStoreOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'data directory of the embedded SQLite store (env CANVAS_MCP_DATA_DIR)')
    .option('--database-url <url>', 'PostgreSQL connection URL instead of SQLite (env CANVAS_MCP_DATABASE_URL)');
}

export async function withStore<T>(flags: StoreFlags, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(loadStoreLocation({ dataDir: flags.data, databaseUrl: flags.databaseUrl }));
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
  if (error instanceof ConfigError) {
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
