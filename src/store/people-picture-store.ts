import { z } from 'zod';
import type { Actor } from './records.js';
import type { SqlDriver } from './sql-driver.js';
import { personKeyOf, rowsOfPeople } from './people-name-store.js';

/**
 * The pictures people chose to be shown by (migrations/036_people_pictures.sql): each person sets their own; the row
 * holds the small WebP the server made, under an id that changes with every new picture.
 */

const IdRow = z.object({ issuer: z.string(), subject: z.string(), picture_id: z.string() });
const PictureRow = z.object({
  issuer: z.string(),
  subject: z.string(),
  webp: z.instanceof(Uint8Array),
  updated_at: z.coerce.number(),
});

export interface StoredPicture {
  person: Actor;
  webp: Buffer;
  updatedAt: number;
}

export interface PeoplePictureStore {
  /** The picture id of each of these people that has one, keyed `issuer|subject`. */
  pictureIdsOf(people: readonly Actor[]): Promise<Map<string, string>>;
  /** A picture by its id, with whose it is. */
  picture(pictureId: string): Promise<StoredPicture | undefined>;
  /** Replaces the person's picture (the old id stops answering). */
  setPicture(person: Actor, pictureId: string, webp: Buffer): Promise<void>;
  /** Whether there was one to remove. */
  removePicture(person: Actor): Promise<boolean>;
}

export function createPeoplePictureStore(driver: SqlDriver, clock: () => number): PeoplePictureStore {
  return {
    async pictureIdsOf(people) {
      const rows = await rowsOfPeople(driver, 'SELECT issuer, subject, picture_id FROM people_pictures', people);
      return new Map(rows.map((row) => IdRow.parse(row)).map((row) => [personKeyOf(row), row.picture_id]));
    },

    async picture(pictureId) {
      const row = await driver.get(
        'SELECT issuer, subject, webp, updated_at FROM people_pictures WHERE picture_id = ?',
        [pictureId],
      );
      if (!row) return undefined;
      const parsed = PictureRow.parse(row);
      return {
        person: { issuer: parsed.issuer, subject: parsed.subject },
        webp: Buffer.from(parsed.webp),
        updatedAt: parsed.updated_at,
      };
    },

    async setPicture(person, pictureId, webp) {
      await driver.transaction(async (tx) => {
        await tx.run('DELETE FROM people_pictures WHERE issuer = ? AND subject = ?', [person.issuer, person.subject]);
        await tx.run(
          'INSERT INTO people_pictures (issuer, subject, picture_id, webp, updated_at) VALUES (?, ?, ?, ?, ?)',
          [person.issuer, person.subject, pictureId, webp, clock()],
        );
      });
    },

    async removePicture(person) {
      const removed = await driver.run('DELETE FROM people_pictures WHERE issuer = ? AND subject = ?', [
        person.issuer,
        person.subject,
      ]);
      return removed.changes > 0;
    },
  };
}
