import type { Presence } from '../backend/presence/presence.js';
import { withMembers, type JsonPayload } from '../shared/json-payload.js';
import type { ToolCaller } from './backend-client.js';

/**
 * Agents on the presence list: a tool call of a chat run or an OAuth connection on a canvas marks the agent
 * as there, on the node it touched; and get_canvas tells agents who else is there, as its extra `presence` field (the
 * snapshot allows additional properties), so "the frame Ana is looking at" is answerable.
 */

export type AgentPresence = Pick<Presence, 'list' | 'touchAgent'>;

export function agentOf(caller: ToolCaller): { key: string; name: string } | null {
  const { principal } = caller;
  const name =
    principal.purpose === 'assistant' && principal.issuedBy
      ? `Assistant for ${principal.issuedBy.subject}`
      : principal.tokenName;
  if (caller.connector) return { key: `agent:${caller.connector.grant.grantId}`, name };
  if (caller.identity.agentRunId) return { key: `agent:${caller.identity.agentRunId}`, name };
  return null;
}

/** The node a call touched: the one it created, changed, ran or deleted (a batch: its first). */
export function touchedNode(args: Record<string, unknown>): string | null {
  const node = args.node as { id?: unknown } | undefined;
  if (typeof node?.id === 'string') return node.id;
  if (typeof args.node_id === 'string') return args.node_id;
  const first = (args.operations as Array<{ node_id?: unknown; node?: { id?: unknown } }> | undefined)?.[0];
  const id = first?.node_id ?? first?.node?.id;
  return typeof id === 'string' ? id : null;
}

/** The get_canvas document with `presence` added, when anyone is there. */
export function withPresence(payload: JsonPayload, entries: ReturnType<Presence['list']>): JsonPayload {
  if (entries.length === 0) return payload;
  return withMembers(payload, `"presence":${JSON.stringify(entries)}`);
}

export function notePresence(
  presence: AgentPresence,
  toolName: string,
  args: unknown,
  caller: ToolCaller,
  payload: JsonPayload,
): JsonPayload {
  const scope = args as { project_id?: unknown; canvas_id?: unknown } & Record<string, unknown>;
  if (typeof scope.project_id !== 'string' || typeof scope.canvas_id !== 'string') return payload;
  const agent = agentOf(caller);
  if (agent)
    presence.touchAgent(
      scope.project_id,
      scope.canvas_id,
      agent,
      toolName === 'delete_canvas_node' ? null : touchedNode(scope),
    );
  if (toolName !== 'get_canvas') return payload;
  const others = presence.list(scope.project_id, scope.canvas_id).filter((entry) => entry.key !== agent?.key);
  return withPresence(payload, others);
}
