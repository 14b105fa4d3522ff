import { z } from 'zod';
import { newTokenSecret } from '../shared/ids.js';
import type { SqlDriver } from './sql-driver.js';

/** Secrets every server of one store shares (migration 008), made once by whichever server needs one first. */
const SecretRow = z.object({ secret: z.string() });

export async function sharedSecret(driver: SqlDriver, name: string, clock: () => number = Date.now): Promise<string> {
  await driver.run('INSERT INTO server_secrets (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [name, newTokenSecret(), clock()]);
  return SecretRow.parse(await driver.get('SELECT secret FROM server_secrets WHERE name = ?', [name])).secret;
}
