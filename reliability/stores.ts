import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteFileIn, type StoreLocation } from '../src/store/store.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../test/support/throwaway-postgres.js';

/** A fresh store for one scenario: a SQLite data dir, or a PostgreSQL cluster of its own (never the shared one). */
export interface ScenarioStore {
  kind: 'sqlite' | 'postgres';
  /** The serve/worker/admin flags that open it. */
  flags: string[];
  location: StoreLocation;
  postgres: ThrowawayPostgres | null;
  dataDir: string;
  destroy(): void;
}

export async function scenarioStore(kind: 'sqlite' | 'postgres'): Promise<ScenarioStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'canvas-mcp-reliability-'));
  if (kind === 'sqlite') {
    return {
      kind,
      flags: ['--data', dataDir],
      location: { kind: 'sqlite', file: sqliteFileIn(dataDir) },
      postgres: null,
      dataDir,
      destroy: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const postgres = await startThrowawayPostgres();
  return {
    kind,
    // Assets still live in a data dir; the store is the cluster.
    flags: ['--database-url', postgres.url, '--data', dataDir],
    location: { kind: 'postgres', url: postgres.url },
    postgres,
    dataDir,
    destroy() {
      postgres.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
