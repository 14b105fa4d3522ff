import { z } from 'zod';
import type { Actor } from './records.js';
import type { SqlDriver } from './sql-driver.js';

/** A project's own canvas templates (migrations/024_canvas_templates.sql). */

const TemplateRow = z.object({
  id: z.string(),
  title: z.string(),
  source_canvas_id: z.string(),
  layout: z.string(),
});

export interface StoredTemplate {
  id: string;
  title: string;
  sourceCanvasId: string;
  /** The layout as saved: `{nodes, edges}` as JSON text. */
  layout: string;
}

export function createTemplateStore(driver: SqlDriver, clock: () => number) {
  const parse = (row: unknown): StoredTemplate => {
    const parsed = TemplateRow.parse(row);
    return { id: parsed.id, title: parsed.title, sourceCanvasId: parsed.source_canvas_id, layout: parsed.layout };
  };
  return {
    async save(projectId: string, template: StoredTemplate, by: Actor): Promise<void> {
      await driver.run(
        'INSERT INTO canvas_templates (project_id, id, title, source_canvas_id, layout, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [projectId, template.id, template.title, template.sourceCanvasId, template.layout, JSON.stringify(by), clock()],
      );
    },
    async list(projectId: string): Promise<StoredTemplate[]> {
      const rows = await driver.all(
        'SELECT id, title, source_canvas_id, layout FROM canvas_templates WHERE project_id = ? ORDER BY created_at, id',
        [projectId],
      );
      return rows.map(parse);
    },
    async get(projectId: string, id: string): Promise<StoredTemplate | undefined> {
      const row = await driver.get(
        'SELECT id, title, source_canvas_id, layout FROM canvas_templates WHERE project_id = ? AND id = ?',
        [projectId, id],
      );
      return row ? parse(row) : undefined;
    },
  };
}

export type TemplateStore = ReturnType<typeof createTemplateStore>;
