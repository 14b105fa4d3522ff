import { z } from 'zod';
import { NodeId } from './identifiers.js';

/**
 * Who is on a canvas now: people (their selection and cursor) and agents (the chat runs and OAuth
 * connections that read or wrote in the last minute, with the node they touched last). Never stored, never in history;
 * pages receive it as `presence` events of the change feed, agents as the extra `presence` field of get_canvas.
 */

const FlowPoint = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

export const PresenceEntry = z.strictObject({
  key: z.string(),
  kind: z.enum(['person', 'agent']),
  name: z.string(),
  /** A person's picture (their display name's picture), when they chose one. */
  picture_url: z.string().nullable().optional(),
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

/**
 * Which page a report comes from, and its place among that page's reports. Reports and the leaving of one page can
 * arrive out of order (two requests on two connections, two NOTIFYs on two database connections): one that arrives
 * after a later one of the same page, or after the page left, is stale and ignored. Without them, the last to arrive
 * wins.
 */
const PageTab = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be 8 to 64 letters, digits, - or _' })
  .meta({ description: 'An id the page picks once when it loads (one per tab).' });
const PAGE_SEQ_DESCRIPTION = "The page's count of its reports and leaving, rising by one each.";
const PageSeq = z.int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ description: PAGE_SEQ_DESCRIPTION });

/** A page's place in its own order of reports, as the presence module compares it. */
export const PageOrder = z.strictObject({ tab: PageTab, seq: PageSeq });
export type PageOrder = z.infer<typeof PageOrder>;

/** `tab` and `seq` go together: one without the other is refused, naming the one missing. */
function bothOrNeither(value: { tab?: unknown; seq?: unknown }, context: z.core.$RefinementCtx): void {
  if ((value.tab === undefined) === (value.seq === undefined)) return;
  const missing = value.tab === undefined ? 'tab' : 'seq';
  context.addIssue({ code: 'custom', path: [missing], message: 'tab and seq go together: give both or neither' });
}

/** What a page says about its person, throttled by the page (POST …/presence). */
export const PresenceUpdateBody = z
  .strictObject({
    selection: z.array(NodeId).max(100),
    cursor: FlowPoint.nullable(),
    tab: PageTab.optional(),
    seq: PageSeq.optional(),
  })
  .superRefine(bothOrNeither);
export type PresenceUpdateBody = z.infer<typeof PresenceUpdateBody>;

/** The page that leaves (DELETE …/presence?tab=…&seq=…), as in PresenceUpdateBody. */
export const PresenceLeaveQuery = z
  .strictObject({
    tab: PageTab.optional(),
    seq: z
      .string()
      .regex(/^\d{1,15}$/, { error: 'must be a whole number' })
      .optional()
      .meta({ description: PAGE_SEQ_DESCRIPTION }),
  })
  .superRefine(bothOrNeither);
export type PresenceLeaveQuery = z.infer<typeof PresenceLeaveQuery>;
