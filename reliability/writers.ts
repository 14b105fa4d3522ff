import { errorCode, mcpCall, sleep, type CallAnswer } from './harness.js';

/**
 * Agents that read and write one canvas in a loop, the way the tool descriptions tell them to: read, write at the
 * revision read, re-read on a conflict. They keep what was acknowledged, to compare with what the canvas holds.
 */
export interface WriterTally {
  createdAcks: Set<string>;
  deletedAcks: Set<string>;
  /**
   * Deletes whose answer was lost (`unavailable`, or no answer): the commit may have happened before the connection
   * went, so the node may be there or not. Nobody else deletes a writer's nodes.
   */
  uncertainDeletes: Set<string>;

  acknowledgedWrites: number;
  conflicts: number;
  unavailable: number;
  fiveXX: number;
  internal: number;
  transportErrors: number;
  other: Map<string, number>;
}

export function newTally(): WriterTally {
  return {
    createdAcks: new Set(),
    deletedAcks: new Set(),
    uncertainDeletes: new Set(),
    acknowledgedWrites: 0,
    conflicts: 0,
    unavailable: 0,
    fiveXX: 0,
    internal: 0,
    transportErrors: 0,
    other: new Map(),
  };
}

function count(tally: WriterTally, answer: CallAnswer): void {
  if (answer.transportError) tally.transportErrors += 1;
  else if (answer.status >= 500 && errorCode(answer) !== 'unavailable') tally.fiveXX += 1;
  const code = errorCode(answer);
  if (code === 'revision_conflict') tally.conflicts += 1;
  else if (code === 'unavailable') tally.unavailable += 1;
  else if (code === 'internal') tally.internal += 1;
  else if (code) tally.other.set(code, (tally.other.get(code) ?? 0) + 1);
}

export interface WriterOptions {
  urls: string[];
  headers: Record<string, string>;
  project: string;
  canvas: string;
  writers: number;
  durationMs: number;
  /** One write in this many deletes one of the writer's own earlier nodes. */
  deleteEvery?: number;
}

export async function runWriters(options: WriterOptions, tally: WriterTally = newTally()): Promise<WriterTally> {
  const deadline = Date.now() + options.durationMs;
  const ids = { project_id: options.project, canvas_id: options.canvas };
  await Promise.all(
    Array.from({ length: options.writers }, async (_, writer) => {
      const url = options.urls[writer % options.urls.length]!;
      const mine: string[] = [];
      let sequence = 0;
      while (Date.now() < deadline) {
        const read = await mcpCall(url, options.headers, 'get_canvas', ids);
        const revision = (read.content?.layout as { revision?: number } | undefined)?.revision;
        if (read.isError || revision === undefined) {
          count(tally, read);
          await sleep(50);
          continue;
        }
        const deleting = options.deleteEvery && mine.length > 2 && sequence % options.deleteEvery === 0;
        sequence += 1;
        if (deleting) {
          const nodeId = mine.shift()!;
          const answer = await mcpCall(url, options.headers, 'delete_canvas_node', {
            ...ids,
            node_id: nodeId,
            base_revision: revision,
          });
          if (!answer.isError) {
            tally.deletedAcks.add(nodeId);
            tally.acknowledgedWrites += 1;
          } else {
            count(tally, answer);
            const code = errorCode(answer);
            if (code === 'unavailable' || answer.transportError) tally.uncertainDeletes.add(nodeId);
            if (code !== 'not_found') mine.unshift(nodeId);
          }
          continue;
        }
        const nodeId = `w${writer}-${sequence}-${Math.random().toString(36).slice(2, 6)}`;
        const answer = await mcpCall(url, options.headers, 'create_canvas_node', {
          ...ids,
          base_revision: revision,
          node: {
            id: nodeId,
            type: 'textAnnotationNode',
            position: { x: writer * 10, y: sequence },
            data: { content: `by writer ${writer}` },
          },
        });
        if (!answer.isError) {
          tally.createdAcks.add(nodeId);
          tally.acknowledgedWrites += 1;
          mine.push(nodeId);
        } else {
          count(tally, answer);
        }
      }
    }),
  );
  return tally;
}

/** Acknowledged creates that are missing (and were not deleted with an acknowledgement). */
export function lostNodes(tally: WriterTally, present: Set<string>): string[] {
  return [...tally.createdAcks].filter(
    (id) => !tally.deletedAcks.has(id) && !tally.uncertainDeletes.has(id) && !present.has(id),
  );
}

/** Acknowledged deletes whose node is still there. */
export function undeletedNodes(tally: WriterTally, present: Set<string>): string[] {
  return [...tally.deletedAcks].filter((id) => present.has(id));
}

/** Batches of five creates over the REST API: each is all there or not there at all. */
export interface BatchTally {
  acknowledged: string[][];
  refused: string[][];
  uncertain: number;
}

export async function runBatchWriters(options: {
  url: string;
  token: string;
  chatRun: string;
  project: string;
  canvas: string;
  writers: number;
  durationMs: number;
}): Promise<BatchTally> {
  const tally: BatchTally = { acknowledged: [], refused: [], uncertain: 0 };
  const deadline = Date.now() + options.durationMs;
  const base = `${options.url}/api/v2/projects/${options.project}/canvases/${options.canvas}`;
  const headers = {
    authorization: `Bearer ${options.token}`,
    'x-agent-run-id': options.chatRun,
    'content-type': 'application/json',
  };
  await Promise.all(
    Array.from({ length: options.writers }, async (_, writer) => {
      let sequence = 0;
      while (Date.now() < deadline) {
        const snapshot = await fetch(`${base}/snapshot`, {
          headers: { ...headers, 'x-canvas-snapshot-version': 'canvas-snapshot.v2' },
        }).catch(() => undefined);
        const revision = snapshot?.ok
          ? ((await snapshot.json()) as { layout: { revision: number } }).layout.revision
          : undefined;
        if (revision === undefined) {
          await sleep(50);
          continue;
        }
        sequence += 1;
        const ids = Array.from({ length: 5 }, (_, index) => `b${writer}-${sequence}-${index}`);
        // Every fifth batch ends with an operation that must fail: the four before it must not stay.
        const poisoned = sequence % 5 === 0;
        const operations = ids.map((id, index) => ({
          op: 'create_node',
          node: {
            id,
            type: poisoned && index === 4 ? 'textNode' : 'textAnnotationNode',
            position: { x: 0, y: 0 },
            data: { content: id },
          },
        }));
        const response = await fetch(`${base}/changes`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ base_revision: revision, operations }),
        }).catch(() => undefined);
        if (!response) tally.uncertain += 1;
        else if (response.status === 201) tally.acknowledged.push(ids);
        else if (response.status === 400 || response.status === 409) tally.refused.push(ids);
        else tally.uncertain += 1;
      }
    }),
  );
  return tally;
}

/** Batches found partly applied: some of their nodes there, some not. */
export function halfApplied(tally: BatchTally, present: Set<string>): number {
  const partial = (ids: string[]) => {
    const there = ids.filter((id) => present.has(id)).length;
    return there > 0 && there < ids.length;
  };
  const acknowledgedMissing = tally.acknowledged.filter((ids) => ids.some((id) => !present.has(id))).length;
  return (
    [...tally.acknowledged, ...tally.refused].filter(partial).length +
    acknowledgedMissing +
    tally.refused.filter((ids) => ids.some((id) => present.has(id))).length
  );
}
