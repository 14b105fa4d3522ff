import { z } from 'zod';
import { ElementKind } from '../contract/index.js';
import type { Actor } from './records.js';
import type { ReadCache } from './read-cache.js';
import type { SqlDriver } from './sql-driver.js';

/** A project's elements (migrations/025_elements.sql). */

const ElementRow = z.object({
  id: z.string(),
  kind: ElementKind,
  name: z.string(),
  notes: z.string(),
  reference_assets: z.string(),
  created_at: z.coerce.number(),
  updated_at: z.coerce.number(),
});

export interface StoredElement {
  id: string;
  kind: ElementKind;
  name: string;
  notes: string;
  referenceAssets: string[];
  createdAt: number;
  updatedAt: number;
}

export type ElementFields = Pick<StoredElement, 'kind' | 'name' | 'notes' | 'referenceAssets'>;

/** The name another element of the project already has (names are unique whatever their case). */
export class ElementNameTaken extends Error {}

const COLUMNS = 'id, kind, name, notes, reference_assets, created_at, updated_at';

function parse(row: unknown): StoredElement {
  const parsed = ElementRow.parse(row);
  return {
    id: parsed.id,
    kind: parsed.kind,
    name: parsed.name,
    notes: parsed.notes,
    referenceAssets: z.array(z.string()).parse(JSON.parse(parsed.reference_assets)),
    createdAt: parsed.created_at,
    updatedAt: parsed.updated_at,
  };
}

const nameKey = (name: string) => name.toLowerCase();

/** SQLite's and PostgreSQL's words for a unique index refusing a row. */
const isUniqueViolation = (error: unknown) =>
  /UNIQUE constraint failed|duplicate key value/i.test(String((error as Error)?.message ?? ''));

export function createElementStore(driver: SqlDriver, clock: () => number, cachedRead: ReadCache) {
  async function nameTakenBy(projectId: string, name: string, except: string | null): Promise<boolean> {
    const row = await driver.get('SELECT id FROM elements WHERE project_id = ? AND name_key = ?', [
      projectId,
      nameKey(name),
    ]);
    return !!row && (row as { id: string }).id !== except;
  }
  async function guarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ElementNameTaken();
      throw error;
    }
  }
  return {
    /**
     * Every get_canvas reads its project's elements: the list is the same object while the database has not changed
     * (the read cache), so a caller can keep what it derives from it by identity. Callers must not change it.
     */
    list(projectId: string): Promise<readonly StoredElement[]> {
      return cachedRead(`elements\u0000${projectId}`, async () => {
        const rows = await driver.all(`SELECT ${COLUMNS} FROM elements WHERE project_id = ? ORDER BY kind, name_key`, [
          projectId,
        ]);
        return rows.map(parse);
      });
    },
    async get(projectId: string, id: string): Promise<StoredElement | undefined> {
      const row = await driver.get(`SELECT ${COLUMNS} FROM elements WHERE project_id = ? AND id = ?`, [projectId, id]);
      return row ? parse(row) : undefined;
    },
    async create(projectId: string, id: string, fields: ElementFields, by: Actor): Promise<StoredElement> {
      if (await nameTakenBy(projectId, fields.name, null)) throw new ElementNameTaken();
      const now = clock();
      await guarded(() =>
        driver.run(
          'INSERT INTO elements (project_id, id, kind, name, name_key, notes, reference_assets, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            projectId,
            id,
            fields.kind,
            fields.name,
            nameKey(fields.name),
            fields.notes,
            JSON.stringify(fields.referenceAssets),
            JSON.stringify(by),
            now,
            now,
          ],
        ),
      );
      return { id, ...fields, createdAt: now, updatedAt: now };
    },
    async update(projectId: string, id: string, fields: ElementFields): Promise<StoredElement | undefined> {
      if (await nameTakenBy(projectId, fields.name, id)) throw new ElementNameTaken();
      const now = clock();
      const changed = await guarded(() =>
        driver.run(
          'UPDATE elements SET kind = ?, name = ?, name_key = ?, notes = ?, reference_assets = ?, updated_at = ? WHERE project_id = ? AND id = ?',
          [
            fields.kind,
            fields.name,
            nameKey(fields.name),
            fields.notes,
            JSON.stringify(fields.referenceAssets),
            now,
            projectId,
            id,
          ],
        ),
      );
      return changed.changes > 0 ? this.get(projectId, id) : undefined;
    },
    async remove(projectId: string, id: string): Promise<boolean> {
      const removed = await driver.run('DELETE FROM elements WHERE project_id = ? AND id = ?', [projectId, id]);
      return removed.changes > 0;
    },
  };
}

export type ElementStore = ReturnType<typeof createElementStore>;
