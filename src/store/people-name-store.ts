import { z } from 'zod';
import type { Actor } from './records.js';
import type { SqlDriver, SqlRow } from './sql-driver.js';

/** The names people chose to be shown by (migrations/035_people_names.sql): each person sets their own. */

const Row = z.object({ issuer: z.string(), subject: z.string(), display_name: z.string() });

export interface PeopleNameStore {
  nameOf(person: Actor): Promise<string | null>;
  /** The names of these people that have one, keyed `issuer|subject`. */
  namesOf(people: readonly Actor[]): Promise<Map<string, string>>;
  setName(person: Actor, name: string): Promise<void>;
}

export const personKeyOf = (person: Actor) => `${person.issuer}|${person.subject}`;

/**
 * The rows of `select` (a SELECT of a table keyed by issuer and subject, with no WHERE) that belong to these people: read
 * by subject in one statement, then kept only for the exact issuer and subject pairs asked for.
 */
export async function rowsOfPeople(driver: SqlDriver, select: string, people: readonly Actor[]): Promise<SqlRow[]> {
  const subjects = [...new Set(people.map((person) => person.subject))];
  if (subjects.length === 0) return [];
  const rows = await driver.all(`${select} WHERE subject IN (${subjects.map(() => '?').join(', ')})`, subjects);
  const wanted = new Set(people.map(personKeyOf));
  return rows.filter((row) => wanted.has(`${String(row.issuer)}|${String(row.subject)}`));
}

export function createPeopleNameStore(driver: SqlDriver, clock: () => number): PeopleNameStore {
  return {
    async nameOf(person) {
      const row = await driver.get(
        'SELECT issuer, subject, display_name FROM people_names WHERE issuer = ? AND subject = ?',
        [person.issuer, person.subject],
      );
      return row ? Row.parse(row).display_name : null;
    },

    async namesOf(people) {
      const rows = await rowsOfPeople(driver, 'SELECT issuer, subject, display_name FROM people_names', people);
      return new Map(rows.map((row) => Row.parse(row)).map((row) => [personKeyOf(row), row.display_name]));
    },

    async setName(person, name) {
      await driver.transaction(async (tx) => {
        await tx.run('DELETE FROM people_names WHERE issuer = ? AND subject = ?', [person.issuer, person.subject]);
        await tx.run('INSERT INTO people_names (issuer, subject, display_name, updated_at) VALUES (?, ?, ?, ?)', [
          person.issuer,
          person.subject,
          name,
          clock(),
        ]);
      });
    },
  };
}
