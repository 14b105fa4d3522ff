import { z } from 'zod';
import { CanvasError } from '../shared/errors.js';
import type { Actor } from './records.js';
import type { SqlDriver } from './sql-driver.js';

/**
 * People's e-mail addresses for sign-in links: set by each person for themselves, stored lower-cased, one person per
 * address (a second person claiming it is refused), so an e-mailed link reaches exactly one person.
 */

const Row = z.object({ issuer: z.string(), subject: z.string(), email: z.string() });

export interface PeopleEmailStore {
  emailOf(person: Actor): Promise<string | null>;
  /** Sets (or, with null, forgets) a person's address; refused when another person has it. */
  setEmail(person: Actor, email: string | null): Promise<void>;
  personWithEmail(email: string): Promise<Actor | null>;
}

export function createPeopleEmailStore(driver: SqlDriver, clock: () => number): PeopleEmailStore {
  return {
    async emailOf(person) {
      const row = await driver.get('SELECT issuer, subject, email FROM people_email WHERE issuer = ? AND subject = ?', [
        person.issuer,
        person.subject,
      ]);
      return row ? Row.parse(row).email : null;
    },

    async setEmail(person, email) {
      await driver.transaction(async (tx) => {
        await tx.run('DELETE FROM people_email WHERE issuer = ? AND subject = ?', [person.issuer, person.subject]);
        if (email === null) return;
        const address = email.toLowerCase();
        if (await tx.get('SELECT 1 AS taken FROM people_email WHERE email = ?', [address])) {
          throw new CanvasError('already_exists', `${address} is already someone else's address here.`, {
            field: 'email',
          });
        }
        await tx.run('INSERT INTO people_email (issuer, subject, email, updated_at) VALUES (?, ?, ?, ?)', [
          person.issuer,
          person.subject,
          address,
          clock(),
        ]);
      });
    },

    async personWithEmail(email) {
      const row = await driver.get('SELECT issuer, subject, email FROM people_email WHERE email = ?', [
        email.toLowerCase(),
      ]);
      if (!row) return null;
      const found = Row.parse(row);
      return { issuer: found.issuer, subject: found.subject };
    },
  };
}
