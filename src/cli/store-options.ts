import type { Command } from 'commander';

/** The flags that choose the store a command opens, the same on every command that opens one. */

export interface StoreFlags {
  data?: string;
  databaseUrl?: string;
  create?: boolean;
}

export function withStoreOptions(command: Command): Command {
  return command
    .option('--data <dir>', 'data directory of the embedded SQLite store (env CANVAS_MCP_DATA_DIR; default ./data)')
    .option('--database-url <url>', 'PostgreSQL connection URL instead of SQLite (env CANVAS_MCP_DATABASE_URL)')
    .option('--create', 'create the store if there is none (otherwise a missing store is an error)');
}
