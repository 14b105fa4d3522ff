import { z } from 'zod';
import { BaseRevision, NodeId } from './identifiers.js';
import { FrameRate } from './frame-rates.js';
import { ShotMark } from './drawing.js';

/**
 * Review (docs/review.md): comment threads pinned to a node (a point on its picture, a timecode of its film
 * or of the board's animatic) or to the canvas as a whole; review states of boards and shots that only people set;
 * each person's inbox. Comments are not part of the layout: posting one never moves the canvas's revision, so
 * commenting never conflicts with editing. Declared once here; REST, OpenAPI, MCP and the web derive from it.
 */

export const COMMENT_MAX_CHARS = 4000;
export const GUEST_NAME_MAX_CHARS = 60;

/** Where on its node a thread points: a point of the picture (0..1 from the top left), or a time. */
export const CommentAnchor = z
  .strictObject({
    x: z.number().min(0).max(1).optional().meta({ description: 'Across the picture, 0 (left) to 1 (right).' }),
    y: z.number().min(0).max(1).optional().meta({ description: 'Down the picture, 0 (top) to 1 (bottom).' }),
    timecode_ms: z
      .int()
      .min(0)
      .max(24 * 3_600_000)
      .optional()
      .meta({ description: "A time in the node's film, or in the board's animatic when `on` is animatic." }),
    on: z.enum(['picture', 'film', 'animatic']).optional(),
    frame: z
      .int()
      .min(0)
      .max(24 * 3600 * 30)
      .optional()
      .meta({ description: 'The frame of the film (or the animatic) the thread names, from 0, at `rate`.' }),
    frame_out: z
      .int()
      .min(0)
      .max(24 * 3600 * 30)
      .optional()
      .meta({ description: 'The last frame of a range (in → out), at least `frame`.' }),
    rate: FrameRate.optional().meta({ description: 'The frame rate `frame` counts in; 29.97 is drop-frame timecode.' }),
  })
  .refine((anchor) => (anchor.x === undefined) === (anchor.y === undefined), {
    error: 'x and y come together (a point on the picture)',
  })
  .refine((anchor) => (anchor.frame === undefined) === (anchor.rate === undefined), {
    error: 'frame and rate come together (a frame counts at a rate)',
    path: ['rate'],
  })
  .refine(
    (anchor) => anchor.frame_out === undefined || (anchor.frame !== undefined && anchor.frame_out >= anchor.frame),
    {
      error: 'frame_out ends a range that starts at frame: it needs frame, and is not before it',
      path: ['frame_out'],
    },
  )
  .meta({ id: 'CommentAnchor' });
export type CommentAnchor = z.infer<typeof CommentAnchor>;

/** Marks a drawn note holds at most. */
export const COMMENT_MARKUP_MAX = 50;

/**
 * A drawn note (docs/review.md, "Drawn notes"): marks on the frame or film frame the thread names, in coordinates from
 * 0 to 1 of the frame (Frame.io's convention), the same shapes as a shot's notes layer and drawn by the same engine.
 */
export const CommentMarkup = z
  .array(ShotMark)
  .max(COMMENT_MARKUP_MAX, { error: `holds more than ${COMMENT_MARKUP_MAX} marks` })
  .meta({
    id: 'CommentMarkup',
    description:
      'Marks drawn on the frame the thread names (freehand pen, line, arrow, rect, ellipse, text), points as [x0, y0, x1, y1, …] from 0 to 1 of the frame.',
  });
export type CommentMarkup = z.infer<typeof CommentMarkup>;

const CommentBody = z
  .string()
  .trim()
  .min(1, { error: 'is empty: write something' })
  .max(COMMENT_MAX_CHARS, { error: `is longer than ${COMMENT_MAX_CHARS} characters` })
  .meta({ description: 'Plain text (links stay text); @name mentions a member, @assistant asks the assistant.' });

export const CommentAuthor = z
  .strictObject({
    kind: z.enum(['person', 'guest', 'assistant', 'agent']),
    name: z.string().meta({ description: 'As shown: a subject, "Guest: <name>", "Assistant for <person>", a token.' }),
    issuer: z.string().nullable(),
    subject: z.string().nullable(),
  })
  .meta({ id: 'CommentAuthor' });
export type CommentAuthor = z.infer<typeof CommentAuthor>;

export const CommentView = z
  .strictObject({
    comment_id: z.string(),
    author: CommentAuthor,
    body: z.string().meta({ description: 'Empty once deleted.' }),
    mentions: z.array(z.string()).meta({ description: 'Subjects mentioned, and "assistant".' }),
    markup: CommentMarkup.meta({ description: 'The drawn note on the frame; empty when none, or once deleted.' }),
    created_at: z.string(),
    edited_at: z.string().nullable(),
    deleted: z.boolean(),
  })
  .meta({ id: 'CommentView' });
export type CommentView = z.infer<typeof CommentView>;

/** Who a thread is for: the team alone, or also the client reviewing through a link (its guests see only these). */
export const ThreadAudience = z.enum(['team', 'client']);
export type ThreadAudience = z.infer<typeof ThreadAudience>;

export const ThreadView = z
  .strictObject({
    thread_id: z.string(),
    audience: ThreadAudience,
    node_id: z.string().nullable().meta({ description: 'null: the canvas as a whole.' }),
    shot_id: z.string().nullable().meta({ description: 'A shot (frame id) of the storyboard node.' }),
    anchor: CommentAnchor.nullable(),
    node_label: z.string().meta({ description: 'What the node was called when the thread began.' }),
    node_deleted: z.boolean().meta({ description: 'The node is gone: the thread stays, "on a deleted node".' }),
    status: z.enum(['open', 'resolved']),
    created_at: z.string(),
    updated_at: z.string(),
    resolved_by: z.string().nullable(),
    resolved_at: z.string().nullable(),
    comments: z.array(CommentView),
  })
  .meta({ id: 'ThreadView' });
export type ThreadView = z.infer<typeof ThreadView>;

export const ThreadList = z.strictObject({ threads: z.array(ThreadView) }).meta({ id: 'ThreadList' });
export type ThreadList = z.infer<typeof ThreadList>;

export const ThreadFilter = z.enum(['all', 'open', 'resolved', 'mine', 'mentions_me']);
export type ThreadFilter = z.infer<typeof ThreadFilter>;

export const ThreadQuery = z.object({
  filter: ThreadFilter.default('all'),
  node_id: NodeId.optional(),
});

export const ThreadCreateBody = z
  .strictObject({
    node_id: NodeId.nullable().default(null).meta({ description: 'The node; null comments on the canvas.' }),
    shot_id: z.string().min(1).max(200).nullable().default(null),
    anchor: CommentAnchor.nullable().default(null),
    body: CommentBody,
    markup: CommentMarkup.optional(),
    audience: ThreadAudience.optional().meta({
      description:
        "team (the default for members) or client (shown to the guests of review links); a guest's is always client.",
    }),
  })
  .meta({ id: 'ThreadCreateBody' });
export type ThreadCreateBody = z.infer<typeof ThreadCreateBody>;

export const CommentCreateBody = z
  .strictObject({ body: CommentBody, markup: CommentMarkup.optional() })
  .meta({ id: 'CommentCreateBody' });
export type CommentCreateBody = z.infer<typeof CommentCreateBody>;

/** An edit changes the words; a drawn note stays as drawn (draw a new one in a reply). */
export const CommentEditBody = z.strictObject({ body: CommentBody }).meta({ id: 'CommentEditBody' });
export type CommentEditBody = z.infer<typeof CommentEditBody>;

export const ThreadStatusBody = z
  .strictObject({ status: z.enum(['open', 'resolved']) })
  .meta({ id: 'ThreadStatusBody' });
export type ThreadStatusBody = z.infer<typeof ThreadStatusBody>;

/** Review states of boards and shots (Boords' and Conceptboard's): only people set them. */
export const REVIEW_STATES = {
  draft: 'Draft',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
} as const;
export const ReviewState = z.enum(Object.keys(REVIEW_STATES) as [keyof typeof REVIEW_STATES & string]);
export type ReviewState = z.infer<typeof ReviewState>;

export const ReviewStateView = z
  .strictObject({
    node_id: z.string(),
    shot_id: z.string().nullable().meta({ description: 'null: the board as a whole.' }),
    state: ReviewState,
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    approved_revision: z.int().nullable().meta({ description: 'The canvas revision approved.' }),
    changed_since_approval: z
      .boolean()
      .meta({ description: 'Approved, then changed: the approval stands for what it was, not what it is.' }),
  })
  .meta({ id: 'ReviewStateView' });
export type ReviewStateView = z.infer<typeof ReviewStateView>;

export const ReviewStateList = z
  .strictObject({ states: z.array(ReviewStateView), editors_approve: z.boolean() })
  .meta({ id: 'ReviewStateList' });
export type ReviewStateList = z.infer<typeof ReviewStateList>;

export const ReviewStateBody = z
  .strictObject({
    node_id: NodeId,
    shot_id: z.string().min(1).max(200).nullable().default(null),
    state: ReviewState,
    base_revision: BaseRevision.optional().meta({
      description:
        'The canvas revision the person saw; required to approve. If the board, or a card a shot shows, changed since, the approval is refused as a conflict (409).',
    }),
  })
  .meta({ id: 'ReviewStateBody' });
export type ReviewStateBody = z.infer<typeof ReviewStateBody>;

export const ReviewRequestBody = z
  .strictObject({
    node_id: NodeId,
    shot_id: z.string().min(1).max(200).nullable().default(null),
    approvers: z
      .array(z.string().min(1).max(200))
      .min(1, { error: 'names nobody: choose at least one approver' })
      .max(20)
      .meta({ description: 'Subjects of the project members asked to approve.' }),
    note: z.string().trim().max(500).default(''),
  })
  .meta({ id: 'ReviewRequestBody' });
export type ReviewRequestBody = z.infer<typeof ReviewRequestBody>;

export const ReviewSettingsBody = z.strictObject({ editors_approve: z.boolean() }).meta({ id: 'ReviewSettingsBody' });

export const NOTIFICATION_KINDS = ['mention', 'reply', 'approval_request', 'approval_decision'] as const;

export const NotificationView = z
  .strictObject({
    notification_id: z.string(),
    kind: z.enum(NOTIFICATION_KINDS),
    project_id: z.string(),
    canvas_id: z.string(),
    thread_id: z.string().nullable(),
    node_id: z.string().nullable(),
    shot_id: z.string().nullable(),
    from: z.string(),
    summary: z.string(),
    created_at: z.string(),
    read: z.boolean(),
  })
  .meta({ id: 'NotificationView' });
export type NotificationView = z.infer<typeof NotificationView>;

export const Inbox = z
  .strictObject({ unread: z.int(), notifications: z.array(NotificationView) })
  .meta({ id: 'Inbox' });
export type Inbox = z.infer<typeof Inbox>;

export const InboxReadBody = z
  .strictObject({
    notification_ids: z.array(z.string().max(200)).max(200).optional(),
    all: z.boolean().optional(),
  })
  .refine((body) => body.all === true || (body.notification_ids?.length ?? 0) > 0, {
    error: 'name notification_ids, or all: true',
  })
  .meta({ id: 'InboxReadBody' });

/** What a guest types before commenting through a review link. */
export const GuestJoinBody = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: 'is empty: say who you are' })
      .max(GUEST_NAME_MAX_CHARS)
      .refine((name) => !/[<>\n\r]/.test(name), { error: 'may not hold <, > or line breaks' }),
  })
  .meta({ id: 'GuestJoinBody' });

export const GuestView = z
  .strictObject({ guest_id: z.string(), name: z.string(), token: z.string() })
  .meta({ id: 'GuestView' });
export type GuestView = z.infer<typeof GuestView>;

/** A share link's review: none (present only), read (threads shown), comment (guests comment too). */
export const ShareReview = z.enum(['none', 'read', 'comment']);
export type ShareReview = z.infer<typeof ShareReview>;

/** The header a guest's comments carry their guest token in. */
export const GUEST_TOKEN_HEADER = 'x-guest-token';

/** The feed event of a thread that changed: the thread as it now is. */
export type CommentFeedEvent = ThreadView;
