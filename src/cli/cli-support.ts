import { loadStoreLocation } from '../config/index.js';
import { describeStoreLocation, storeExists } from '../store/store-presence.js';
import { openStore, type Store, type StoreLocation } from '../store/store.js';
import { UsageError } from './failure.js';
import type { StoreFlags } from './store-options.js';

/** What the commands' actions share: the store of the store flags, and one JSON object with --json. */

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
