import { z } from 'zod';
import { newTokenSecret } from '../shared/ids.js';
import type { SqlDriver } from './sql-driver.js';

/** Secrets every server of one store shares (migration 008), made once by whichever server needs one first. */
const SecretRow = z.object({ secret: z.string() });

export async function sharedSecret(
  driver: SqlDriver,
  name: string,
  clock: () => number = Date.now,
  make: () => string | Promise<string> = newTokenSecret,
): Promise<string> {
  const existing = await driver.get('SELECT secret FROM server_secrets WHERE name = ?', [name]);
  if (existing) return SecretRow.parse(existing).secret;
  await driver.run(
    'INSERT INTO server_secrets (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    [name, await make(), clock()],
  );
  return SecretRow.parse(await driver.get('SELECT secret FROM server_secrets WHERE name = ?', [name])).secret;
}

/** Notes a server leaves for the commands run beside it (migration 009): the last word on a name wins. */
const NoteRow = z.object({ value: z.string() });

export async function writeServiceNote(
  driver: SqlDriver,
  name: string,
  value: string,
  clock: () => number = Date.now,
): Promise<void> {
  await driver.run(
    'INSERT INTO service_notes (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    [name, value, clock()],
  );
}

export async function readServiceNote(driver: SqlDriver, name: string): Promise<string | null> {
  const row = await driver.get('SELECT value FROM service_notes WHERE name = ?', [name]);
  return row ? NoteRow.parse(row).value : null;
}
