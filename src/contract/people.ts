import { z } from 'zod';
import { CanvasId, ProjectId, ResourceId } from './identifiers.js';
import { Person } from './person.js';
import { ToolSetList } from './tool-sets.js';

/** The people's side of the backend API: chat runs and agent tokens opened by people, and who is signed in. */

const Seconds = z
  .int()
  .min(60)
  .max(30 * 24 * 3600);
/**
 * What people grant ends by itself (docs/security.md, "What people grant to agents"): an agent token a person issues
 * lasts 30 days unless they say less, a chat run 7 days.
 */
export const DEFAULT_LIFETIME_SECONDS = { token: 30 * 24 * 3600, chatRun: 7 * 24 * 3600 } as const;
const Timestamp = z.string();

/** A name people give: printable text, no control characters, well-formed Unicode. */
// Written as a string so the control-character range is plain to read (and to the linter).
const DISPLAY_NAME = new RegExp(String.raw`^[^\u0000-\u001f\u007f\ud800-\udfff]{1,100}$`, 'u');
export const DisplayName = z
  .string()
  .regex(DISPLAY_NAME, { error: 'must be 1..100 characters without control characters' });

export const ChatRunOpenBody = z.strictObject({
  edit: z.boolean().default(true).meta({ description: 'Whether the chat run holds a canvas edit authorization.' }),
  expires_in: Seconds.default(DEFAULT_LIFETIME_SECONDS.chatRun).meta({
    description: 'Seconds until it expires (60 s .. 30 days; default 7 days).',
  }),
  // An identifier like any other (well-formed, no U+0000, which PostgreSQL cannot store in text): both stores must
  // answer it the same way.
  token_id: ResourceId.optional().meta({
    description: 'The agent token that will present it; without one, only a token acting for you may present it.',
  }),
});
export type ChatRunOpenBody = z.infer<typeof ChatRunOpenBody>;

export const ChatRunView = z.strictObject({
  agent_run_id: z.string(),
  project_id: ProjectId,
  canvas_id: CanvasId,
  can_edit: z.boolean(),
  token_id: z.string().nullable(),
  acts_for: Person.nullable(),
  opened_by: Person.nullable(),
  created_at: Timestamp,
  expires_at: Timestamp.nullable(),
});
export type ChatRunView = z.infer<typeof ChatRunView>;

export const ChatRunList = z.looseObject({ chat_runs: z.array(ChatRunView) });

export const TokenIssueBody = z.strictObject({
  name: DisplayName,
  project_id: ProjectId,
  role: z.enum(['viewer', 'editor']).default('editor'),
  expires_in: Seconds.default(DEFAULT_LIFETIME_SECONDS.token).meta({
    description: 'Seconds until it expires (60 s .. 30 days; default 30 days).',
  }),
  tool_sets: ToolSetList.default([]).meta({
    description:
      'Tool sets beyond the six it lists and may call (edit, runs, exports, layout, review); none by default (docs/contract.md, "Tools beyond the six").',
  }),
});
export type TokenIssueBody = z.infer<typeof TokenIssueBody>;

export const TokenView = z.strictObject({
  token_id: z.string(),
  name: z.string(),
  kind: z.enum(['agent', 'backend', 'gateway']),
  role: z.enum(['viewer', 'editor']),
  projects: z.array(z.string()),
  workspaces: z.array(z.string()),
  issued_by: Person.nullable(),
  created_at: Timestamp,
  expires_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  tool_sets: z.array(z.string()),
});
export type TokenView = z.infer<typeof TokenView>;

/** The answer to an issue: the secret appears here once and is stored only as its hash. */
export const IssuedToken = TokenView.extend({ token: z.string() });
export type IssuedToken = z.infer<typeof IssuedToken>;

export const TokenList = z.looseObject({ tokens: z.array(TokenView) });

export const ProjectView = z.strictObject({
  project_id: ProjectId,
  workspace_id: z.string(),
  /** What people call it; null: its id (ids never change, titles do). */
  title: z.string().nullable(),
  role: z.enum(['viewer', 'editor', 'owner']),
  canvases: z.array(
    z.strictObject({
      canvas_id: CanvasId,
      title: z.string().nullable(),
      locked: z.boolean(),
      revision: z.int().min(0),
    }),
  ),
});
export type ProjectView = z.infer<typeof ProjectView>;

/** GET /api/v1/me: who the caller is and what it can open. */
export const MeView = z.looseObject({
  kind: z.enum(['person', 'token']),
  person: Person.nullable(),
  token_id: z.string().nullable(),
  projects: z.array(ProjectView),
  /** The signed-in person's address for e-mailed sign-in links (null: none given). */
  email: z.string().nullable().optional(),
  /** The name the signed-in person chose to be shown by (null: none yet). */
  display_name: z.string().nullable().optional(),
  /** A signed-in person whose only name is a sign-in id (the first owner, a single sign-on subject): ask for a name. */
  needs_name: z.boolean().optional(),
  /** The picture the signed-in person chose to be shown by (a square WebP), or null: show their initials. */
  picture_url: z.string().nullable().optional(),
});
export type MeView = z.infer<typeof MeView>;

/** GET /api/v1/auth/methods: how people sign in here. */
export const SignInMethods = z.strictObject({
  links: z.boolean(),
  oidc: z.strictObject({ name: z.string(), start: z.string() }).nullable(),
  /** Whether a person may ask for a sign-in link by e-mail (the server has an SMTP relay). */
  email: z.boolean(),
});
export type SignInMethods = z.infer<typeof SignInMethods>;

/** The issuer of people who joined by invitation (`canvas-mcp/invite/<invite id>`): they named themselves then. */
export const INVITED_ISSUER_PREFIX = 'canvas-mcp/invite';

/** PUT /api/v1/me/name: the name the signed-in person is shown by. */
export const NameBody = z.strictObject({ display_name: z.string().trim().pipe(DisplayName) });
export type NameBody = z.infer<typeof NameBody>;

/** PUT /api/v1/me/picture: one picture, multipart/form-data with one part named `file`. */
export const PictureForm = z
  .object({
    file: z
      .string()
      .meta({ format: 'binary', description: 'A PNG, JPEG, WebP, GIF or AVIF; kept as a 256-pixel square.' }),
  })
  .meta({ id: 'PictureForm' });
/** Where a person's picture is read (GET, by the people who share a project with them). */
export const pictureUrlOf = (pictureId: string) => `/api/v1/pictures/${pictureId}`;
export const PictureView = z.strictObject({ picture_url: z.string().nullable() });
export type PictureView = z.infer<typeof PictureView>;

/** PATCH /api/v1/me/email: the person's address for sign-in links, or null to forget it. */
export const EmailBody = z.strictObject({
  email: z.email({ error: 'must be an e-mail address' }).max(254).nullable(),
});
export type EmailBody = z.infer<typeof EmailBody>;

/** One of the signed-in person's own sessions (GET /api/v1/me/sessions). */
export const SessionView = z.strictObject({
  session_id: z.string(),
  device: z.string().nullable(),
  created_at: Timestamp,
  last_seen_at: Timestamp,
  current: z.boolean(),
});
export type SessionView = z.infer<typeof SessionView>;
export const SessionList = z.strictObject({ sessions: z.array(SessionView) });
