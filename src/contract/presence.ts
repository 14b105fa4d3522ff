import { z } from 'zod';
import { NodeId } from './identifiers.js';

/**
 * Who is on a canvas now (issue 21): people (their selection and cursor) and agents (the chat runs and OAuth
 * connections that read or wrote in the last minute, with the node they touched last). Never stored, never in history;
 * pages receive it as `presence` events of the change feed, agents as the extra `presence` field of get_canvas.
 */

const FlowPoint = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

export const PresenceEntry = z.strictObject({
  key: z.string(),
  kind: z.enum(['person', 'agent']),
  name: z.string(),
  color: z.string(),
  selection: z.array(NodeId),
  cursor: FlowPoint.nullable().meta({
    description: 'Canvas (flow) coordinates, while the pointer is over the canvas.',
  }),
  node_id: NodeId.nullable().meta({ description: 'The node an agent touched last.' }),
  seen_ms_ago: z.int().min(0),
});
export type PresenceEntry = z.infer<typeof PresenceEntry>;

export const PresenceEvent = z.strictObject({ entries: z.array(PresenceEntry) });
export type PresenceEvent = z.infer<typeof PresenceEvent>;

/** What a page says about its person, throttled by the page (POST …/presence). */
export const PresenceUpdateBody = z.strictObject({
  selection: z.array(NodeId).max(100),
  cursor: FlowPoint.nullable(),
});
export type PresenceUpdateBody = z.infer<typeof PresenceUpdateBody>;
