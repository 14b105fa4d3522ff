import { z } from 'zod';
import type { HistoryEntry, RevisionAuthor } from '../contract/index.js';
import { shotChanges as shotChangesBetween } from '../storyboard/shot-changes.js';
import type { SqlDriver } from './sql-driver.js';

/** A revision that changed more nodes than this is not read body by body for its shots. */
const SHOT_DETAIL_NODES = 3;

/**
 * The change log read back: who made each revision and what it changed. The history API lists it; the change feed
 * replays it to a client that missed revisions, with the body each change left, so the client applies them without
 * re-reading the canvas.
 */

const Millis = z.coerce.number().int();
const RevisionRow = z.object({
  revision: Millis,
  author_kind: z.enum(['person', 'agent', 'system']),
  token_id: z.string().nullable(),
  token_name: z.string().nullable(),
  agent_run_id: z.string().nullable(),
  issuer: z.string().nullable(),
  subject: z.string().nullable(),
  operation: z.string(),
  created_at: Millis,
});
type RevisionRow = z.output<typeof RevisionRow>;
const ChangeRow = z.object({
  revision: Millis,
  object_kind: z.enum(['node', 'edge']),
  object_id: z.string(),
  change: z.enum(['create', 'update', 'delete']),
  body: z.string().nullable(),
  has_body: z.coerce.number(),
});
const RevisionOnly = z.object({ revision: Millis });
const BytesRow = z.object({ bytes: z.coerce.number() });
const ChangeSummaryRow = ChangeRow.omit({ body: true, has_body: true });
type ChangeSummary = z.output<typeof ChangeSummaryRow>;

/** Rows of one revision range grouped by revision in one pass (they arrive ordered by revision). */
function byRevision<T extends { revision: number }>(rows: T[]): Map<number, T[]> {
  const grouped = new Map<number, T[]>();
  for (const row of rows) {
    const list = grouped.get(row.revision);
    if (list) list.push(row);
    else grouped.set(row.revision, [row]);
  }
  return grouped;
}

function authorOf(row: RevisionRow): RevisionAuthor {
  switch (row.author_kind) {
    case 'person':
      return { kind: 'person', issuer: row.issuer ?? '', subject: row.subject ?? '' };
    case 'agent':
      return {
        kind: 'agent',
        token_id: row.token_id ?? '',
        ...(row.token_name !== null ? { token_name: row.token_name } : {}),
        agent_run_id: row.agent_run_id,
        ...(row.issuer !== null && row.subject !== null
          ? { on_behalf_of: { issuer: row.issuer, subject: row.subject } }
          : {}),
      };
    case 'system':
      return { kind: 'system' };
  }
}

// The token's name is read from the token (a rename shows everywhere); the revision keeps only its id.
const REVISION_COLUMNS = `r.revision, r.author_kind, r.token_id, t.name AS token_name, r.agent_run_id, r.issuer, r.subject, r.operation,
  r.created_at`;
const REVISIONS_WITH_TOKEN = 'canvas_revisions r LEFT JOIN tokens t ON t.id = r.token_id';

export function createHistoryReads(driver: SqlDriver) {
  async function revisionRows(
    projectId: string,
    canvasId: string,
    from: number,
    to: number,
  ): Promise<Map<number, RevisionRow>> {
    const rows = await driver.all(
      `SELECT ${REVISION_COLUMNS} FROM ${REVISIONS_WITH_TOKEN} WHERE r.project_id = ? AND r.canvas_id = ? AND r.revision >= ? AND r.revision <= ?`,
      [projectId, canvasId, from, to],
    );
    return new Map(rows.map((row) => RevisionRow.parse(row)).map((row) => [row.revision, row]));
  }

  /**
   * What each revision of a range changed, without the bodies: a history page of 200 revisions once read every body
   * they left and took ~470 ms of the event loop.
   */
  async function changeSummaries(
    projectId: string,
    canvasId: string,
    from: number,
    to: number,
  ): Promise<ChangeSummary[]> {
    const rows = await driver.all(
      `SELECT revision, object_kind, object_id, change FROM canvas_changes
       WHERE project_id = ? AND canvas_id = ? AND revision >= ? AND revision <= ? ORDER BY revision, object_kind DESC, object_id`,
      [projectId, canvasId, from, to],
    );
    return rows.map((row) => ChangeSummaryRow.parse(row));
  }

  async function changeRows(projectId: string, canvasId: string, from: number, to: number) {
    const rows = await driver.all(
      `SELECT revision, object_kind, object_id, change, body, has_body FROM canvas_changes
       WHERE project_id = ? AND canvas_id = ? AND revision >= ? AND revision <= ? ORDER BY revision, object_kind DESC, object_id`,
      [projectId, canvasId, from, to],
    );
    return rows.map((row) => ChangeRow.parse(row));
  }

  /**
   * A node as it was at a revision, from the change log: null when it did not exist then, undefined when the log
   * cannot tell (no change of it at or before that revision, or one older than the stored bodies).
   */
  async function nodeAt(projectId: string, canvasId: string, nodeId: string, revision: number): Promise<unknown> {
    const row = await driver.get(
      `SELECT change, body, has_body FROM canvas_changes
       WHERE project_id = ? AND canvas_id = ? AND object_kind = 'node' AND object_id = ? AND revision <= ?
       ORDER BY revision DESC LIMIT 1`,
      [projectId, canvasId, nodeId, revision],
    );
    if (!row) return undefined;
    const state = row as { change: string; body: string | null; has_body: unknown };
    if (state.change === 'delete') return null;
    if (Number(state.has_body) !== 1 || state.body === null) return undefined;
    return JSON.parse(state.body) as unknown;
  }

  return {
    /** Which of these nodes a revision after `after` changed (created, updated or deleted). */
    async nodesChangedSince(
      projectId: string,
      canvasId: string,
      after: number,
      nodeIds: readonly string[],
    ): Promise<string[]> {
      if (nodeIds.length === 0) return [];
      const rows = await driver.all(
        `SELECT DISTINCT object_id FROM canvas_changes
         WHERE project_id = ? AND canvas_id = ? AND object_kind = 'node' AND revision > ?
           AND object_id IN (${nodeIds.map(() => '?').join(', ')})
         ORDER BY object_id`,
        [projectId, canvasId, after, ...nodeIds],
      );
      return rows.map((row) => String((row as { object_id: unknown }).object_id));
    },

    nodeAt,

    /**
     * The shots each of these revisions changed, for the revisions that updated a few nodes (a storyboard's shot edits):
     * the node as each left it, against the node as it was just before. A revision that rewrote many nodes (a
     * template, a revert) is not read body by body: History names its nodes instead.
     */
    async shotChanges(projectId: string, canvasId: string, entries: readonly HistoryEntry[]): Promise<HistoryEntry[]> {
      const out: HistoryEntry[] = [];
      for (const entry of entries) {
        const updated = entry.changes.filter((change) => change.kind === 'node' && change.change !== 'delete');
        if (updated.length === 0 || updated.length > SHOT_DETAIL_NODES) {
          out.push(entry);
          continue;
        }
        const shots = [];
        for (const change of updated) {
          const after = await nodeAt(projectId, canvasId, change.id, entry.revision);
          const before =
            change.change === 'create' ? null : await nodeAt(projectId, canvasId, change.id, entry.revision - 1);
          if (after === undefined || before === undefined) continue;
          shots.push(...shotChangesBetween(change.id, before, after));
        }
        out.push(shots.length > 0 ? { ...entry, shots } : entry);
      }
      return out;
    },

    /** Revisions before `before` (newest first), each with its author and the ids it changed. */
    async history(projectId: string, canvasId: string, before: number, limit: number): Promise<HistoryEntry[]> {
      const rows = await driver.all(
        // Revisions logged with their author, and older ones known only from the change log.
        `SELECT revision FROM canvas_revisions WHERE project_id = ? AND canvas_id = ? AND revision < ?
         UNION SELECT revision FROM canvas_changes WHERE project_id = ? AND canvas_id = ? AND revision < ?
         ORDER BY revision DESC LIMIT ?`,
        [projectId, canvasId, before, projectId, canvasId, before, limit],
      );
      const revisions = rows.map((row) => RevisionOnly.parse(row).revision);
      if (revisions.length === 0) return [];
      const low = revisions.at(-1)!;
      const high = revisions[0]!;
      const authors = await revisionRows(projectId, canvasId, low, high);
      const changes = byRevision(await changeSummaries(projectId, canvasId, low, high));
      return revisions.map((revision) => {
        const row = authors.get(revision);
        return {
          revision,
          author: row ? authorOf(row) : null,
          at: row ? new Date(row.created_at).toISOString() : null,
          operation: row?.operation ?? null,
          changes: (changes.get(revision) ?? []).map((change) => ({
            kind: change.object_kind,
            id: change.object_id,
            change: change.change,
          })),
        };
      });
    },

    /**
     * The bytes of the bodies logged after `after` up to `upTo`: what a replay of them would send. Both databases
     * answer octet_length from the value's header, without reading the bodies.
     */
    async changeLogBytes(projectId: string, canvasId: string, after: number, upTo: number): Promise<number> {
      const row = await driver.get(
        'SELECT COALESCE(SUM(octet_length(body)), 0) AS bytes FROM canvas_changes WHERE project_id = ? AND canvas_id = ? AND revision > ? AND revision <= ?',
        [projectId, canvasId, after, upTo],
      );
      return BytesRow.parse(row).bytes;
    },

    /**
     * The layout events after `after` up to `upTo`, oldest first, as JSON text (bodies are stored as JSON and go out
     * as they are, never parsed again); undefined when they cannot be replayed (more than `maxRevisions`, or a change
     * logged before bodies were kept): the client must re-read the snapshot.
     */
    async eventsAfter(
      projectId: string,
      canvasId: string,
      after: number,
      upTo: number,
      maxRevisions: number,
    ): Promise<SerializedLayoutEvent[] | undefined> {
      if (upTo <= after) return [];
      if (upTo - after > maxRevisions) return undefined;
      const authors = await revisionRows(projectId, canvasId, after + 1, upTo);
      const rows = await changeRows(projectId, canvasId, after + 1, upTo);
      if (rows.some((change) => change.change !== 'delete' && change.has_body !== 1)) return undefined;
      const changes = byRevision(rows);
      const events: SerializedLayoutEvent[] = [];
      for (let revision = after + 1; revision <= upTo; revision += 1) {
        const row = authors.get(revision);
        events.push({
          revision,
          json: layoutEventJson(
            revision,
            row ? authorOf(row) : null,
            row ? new Date(row.created_at).toISOString() : null,
            row?.operation ?? null,
            (changes.get(revision) ?? []).map((change) => ({
              kind: change.object_kind,
              id: change.object_id,
              change: change.change,
              body: change.body,
            })),
          ),
        });
      }
      return events;
    },
  };
}

/** A `layout` event (contract: LayoutEvent) serialized once, for every subscriber. */
export interface SerializedLayoutEvent {
  revision: number;
  json: string;
}

/**
 * The JSON of a LayoutEvent from stored bodies: a body is spliced in as the JSON text it is stored as (it was
 * validated when written), so a revision costs one string, however many subscribers read it.
 */
export function layoutEventJson(
  revision: number,
  author: RevisionAuthor | null,
  at: string | null,
  operation: string | null,
  changes: Array<{ kind: 'node' | 'edge'; id: string; change: 'create' | 'update' | 'delete'; body: string | null }>,
): string {
  const items = changes.map((change) => {
    const head = `{"kind":"${change.kind}","id":${JSON.stringify(change.id)},"change":"${change.change}"`;
    return change.body === null ? `${head}}` : `${head},"${change.kind}":${change.body}}`;
  });
  return `{"revision":${revision},"author":${JSON.stringify(author)},"at":${JSON.stringify(at)},"operation":${JSON.stringify(operation)},"changes":[${items.join(',')}]}`;
}

export type HistoryReads = ReturnType<typeof createHistoryReads>;
