import type { HistoryEntry } from '../contract/index.js';
import { payloadPrefix, withMembers, type JsonPayload } from '../shared/json-payload.js';
import type { BackendClient, ToolCaller } from './backend-client.js';

/**
 * "Changes since your last read" (docs/contract.md, "Changes since your last read"): the next get_canvas of a
 * connection says what others changed on the canvas since its previous one, as an extra field, so a model hears what
 * the person did in the canvas (claude.ai and Claude Desktop drop the MCP App's `ui/update-model-context`:
 * https://github.com/anthropics/claude-ai-mcp/issues/826). Its own writes are left out.
 *
 * What each credential last read is remembered by this tool server, in memory, for the most recent connections: a
 * connection served by another server, or after a restart, gets the field from its next read on.
 */

const REMEMBERED = 5000;
/** At most this many revisions are described; `more: true` says there were others (read the history resource). */
const DESCRIBED = 20;
const REVISION_AT = /"layout":\{"revision":(\d+)/;

export interface ReadChanges {
  since_revision: number;
  revisions: Array<{ revision: number; by: string; changes: HistoryEntry['changes'] }>;
  more: boolean;
}

function authorWords(author: HistoryEntry['author']): string {
  if (!author) return 'someone';
  if (author.kind === 'person') return author.subject;
  if (author.kind === 'agent') return `agent ${author.token_name ?? author.token_id}`;
  return 'the system';
}

export function createReadChanges(client: BackendClient) {
  const lastRead = new Map<string, number>();
  // A cached document is the same payload on every read: its revision is read from its text once.
  const revisions = new WeakMap<JsonPayload, number | null>();
  function revisionOf(payload: JsonPayload): number | null {
    let revision = revisions.get(payload);
    if (revision === undefined) {
      const match = REVISION_AT.exec(payloadPrefix(payload, 4096));
      revision = match ? Number(match[1]) : null;
      revisions.set(payload, revision);
    }
    return revision;
  }

  return {
    /** The get_canvas answer with `changes_since_your_last_read` when others changed the canvas since the last one. */
    async decorate(
      caller: ToolCaller,
      args: { project_id: string; canvas_id: string },
      payload: JsonPayload,
    ): Promise<JsonPayload> {
      // The assistant's turns see the chat's own notes; this is for connections from outside.
      if (caller.principal.purpose === 'assistant') return payload;
      const revision = revisionOf(payload);
      if (revision === null) return payload;
      const key = `${caller.principal.tokenId}\u0000${args.project_id}\u0000${args.canvas_id}`;
      const previous = lastRead.get(key);
      lastRead.delete(key);
      lastRead.set(key, revision);
      while (lastRead.size > REMEMBERED) lastRead.delete(lastRead.keys().next().value!);
      if (previous === undefined || revision <= previous) return payload;

      const page = await client.canvasHistory(caller, {
        project_id: args.project_id,
        canvas_id: args.canvas_id,
        before: revision + 1,
        limit: Math.min(DESCRIBED, revision - previous),
      });
      const others = page.revisions.filter(
        (entry) =>
          entry.revision > previous &&
          !(entry.author?.kind === 'agent' && entry.author.token_id === caller.principal.tokenId),
      );
      if (others.length === 0) return payload;
      const changes: ReadChanges = {
        since_revision: previous,
        revisions: others
          .map((entry) => ({ revision: entry.revision, by: authorWords(entry.author), changes: entry.changes }))
          .reverse(),
        more: revision - previous > DESCRIBED,
      };
      return withMembers(payload, `"changes_since_your_last_read":${JSON.stringify(changes)}`);
    },
  };
}

export type ReadChangesTracker = ReturnType<typeof createReadChanges>;
