import { z } from 'zod';
import { CanvasEdge } from './edge.js';
import { Revision, NodeRuntimeState } from './canvas.js';
import { CanvasNode } from './node.js';

/**
 * Who changed the canvas and what changed: the change feed (Server-Sent Events) and the history API read the same
 * change log (docs/api.md, "Change feed" and "History").
 */

export const RevisionAuthor = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('person'), issuer: z.string(), subject: z.string() }),
    z.strictObject({
      kind: z.literal('agent'),
      token_id: z.string(),
      /** The token's name, what a person recognises the agent by. */
      token_name: z.string().optional(),
      agent_run_id: z.string().nullable(),
      on_behalf_of: z.strictObject({ issuer: z.string(), subject: z.string() }).optional(),
    }),
    z.strictObject({ kind: z.literal('system') }),
  ])
  .meta({ id: 'RevisionAuthor' });
export type RevisionAuthor = z.infer<typeof RevisionAuthor>;

export const ObjectChangeKind = z.enum(['create', 'update', 'delete']);

/** One object a revision changed; the feed carries its new body on create and update. */
export const LayoutChangeItem = z.strictObject({
  kind: z.enum(['node', 'edge']),
  id: z.string(),
  change: ObjectChangeKind,
  node: CanvasNode.optional(),
  edge: CanvasEdge.optional(),
});
export type LayoutChangeItem = z.infer<typeof LayoutChangeItem>;

/** `event: layout`, `id: <revision>`: apply it to a copy of the layout without re-reading. */
export const LayoutEvent = z.strictObject({
  revision: Revision,
  /** Null for revisions written before authors were recorded. */
  author: RevisionAuthor.nullable(),
  at: z.string().nullable(),
  operation: z.string().nullable(),
  changes: z.array(LayoutChangeItem),
});
export type LayoutEvent = z.infer<typeof LayoutEvent>;

/** `event: node_state`: a node's run state changed (runs never move the layout revision); null when it has none. */
export const NodeStateEvent = z.strictObject({
  node_id: z.string(),
  state: NodeRuntimeState.nullable(),
});
export type NodeStateEvent = z.infer<typeof NodeStateEvent>;

/** `event: reset`: the client must re-read the snapshot (a gap too large to replay, or a reader too slow). */
export const ResetEvent = z.strictObject({
  reason: z.enum(['gap_too_large', 'unknown_revision', 'slow_reader', 'access_revoked']),
  revision: Revision,
});
export type ResetEvent = z.infer<typeof ResetEvent>;

/** What a revision did to one shot of a storyboard: added, removed, or which of its fields changed. */
export const ShotChange = z.strictObject({
  node_id: z.string(),
  shot_id: z.string(),
  /** The shot's number after the change (before it, for a removed shot), when it has one. */
  number: z.string().nullable(),
  change: ObjectChangeKind,
  /** The fields an update changed (`lensMm`, `dialogue`, …); empty for an added or removed shot. */
  fields: z.array(z.string()),
});
export type ShotChange = z.infer<typeof ShotChange>;

/**
 * A storyboard node as the change log keeps it, read as plain JSON whatever shape it was written in: its type and its
 * list of frames, each any value; nothing else of it is read.
 */
export const LoggedBoardFrames = z.object({
  type: z.literal('storyboardNode'),
  data: z.object({ frames: z.array(z.unknown()) }),
});

export const HistoryEntry = z.strictObject({
  revision: Revision,
  author: RevisionAuthor.nullable(),
  at: z.string().nullable(),
  operation: z.string().nullable(),
  changes: z.array(z.strictObject({ kind: z.enum(['node', 'edge']), id: z.string(), change: ObjectChangeKind })),
  /** With `shots=true`: the shots a revision of a storyboard changed, from its bodies in the change log. */
  shots: z.array(ShotChange).optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryPage = z.looseObject({
  revisions: z.array(HistoryEntry),
  /** Pass as `before` for the next (older) page; null when there is none. */
  next_before: Revision.nullable(),
});
export type HistoryPage = z.infer<typeof HistoryPage>;

export const HistoryQuery = z.strictObject({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  shots: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({ description: 'true: say which shots (and which of their fields) each storyboard update changed.' }),
});
