import { z } from 'zod';
import { TemplateId } from './templates.js';
import { CanvasId, ProjectId } from './identifiers.js';
import { Person } from './person.js';

/** A team's workspace in the browser: members, invitations, canvases and the audit log (docs/api.md). */

const Timestamp = z.string();
export const MemberRoleName = z.enum(['viewer', 'editor', 'owner']);

export const MemberView = z.strictObject({
  issuer: z.string(),
  subject: z.string(),
  /** The name the person chose to be shown by; null until they chose one (show the subject then). */
  display_name: z.string().nullable(),
  /** The picture the person chose to be shown by, or null (show their initials). */
  picture_url: z.string().nullable(),
  role: MemberRoleName,
  joined_at: Timestamp,
});
export type MemberView = z.infer<typeof MemberView>;

export const MemberList = z.strictObject({ members: z.array(MemberView) });

export const RoleChangeBody = z.strictObject({ role: MemberRoleName });
export type RoleChangeBody = z.infer<typeof RoleChangeBody>;

export const InviteCreateBody = z.strictObject({
  role: MemberRoleName,
  expires_in: z
    .int()
    .min(60)
    .max(30 * 86_400)
    .optional()
    .meta({ description: 'Seconds until the invitation expires (default 7 days).' }),
});
export type InviteCreateBody = z.infer<typeof InviteCreateBody>;

export const InviteView = z.strictObject({
  invite_id: z.string(),
  project_id: z.string(),
  role: MemberRoleName,
  invited_by: Person,
  created_at: Timestamp,
  expires_at: Timestamp,
  accepted_by: Person.nullable(),
  accepted_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  /** A pending invitation's link, for its owners to copy again (absent once used, withdrawn or expired). */
  url: z.string().optional(),
});
export type InviteView = z.infer<typeof InviteView>;

/** The answer to an invitation, with its link (owners see it again in the list while it is pending). */
export const IssuedInvite = InviteView.extend({ url: z.string() });
export type IssuedInvite = z.infer<typeof IssuedInvite>;

export const InviteList = z.strictObject({ invites: z.array(InviteView) });

/** A sign-in link an owner makes for a member whose session ended: copy it to them; it works once. */
export const MemberSignInLink = z.strictObject({
  person: Person,
  url: z.string(),
  expires_at: Timestamp,
  /** Whether it was also e-mailed to the member (their address is known and the server has an SMTP relay). */
  emailed: z.boolean(),
});
export type MemberSignInLink = z.infer<typeof MemberSignInLink>;

export const AuditEntry = z.strictObject({
  at: Timestamp,
  actor: Person,
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditList = z.strictObject({ entries: z.array(AuditEntry) });

const Title = z.string().trim().min(1).max(100).nullable().meta({ description: 'What people call it; null: its id.' });

/** A new canvas, by title (its id derived: lower case, hyphens, unique) or by id, or both. */
export const CanvasCreateBody = z
  .strictObject({
    canvas_id: CanvasId.optional().meta({ description: 'Default: derived from the title ("Board 2" → board-2).' }),
    title: z.string().trim().min(1).max(100).optional().meta({ description: 'What people call it.' }),
    template_id: TemplateId.optional().meta({ description: 'Start from this template (GET …/templates lists them).' }),
  })
  .refine((body) => body.canvas_id !== undefined || body.title !== undefined, {
    error: 'give the canvas a title (or an id)',
    path: ['title'],
  });
export type CanvasCreateBody = z.infer<typeof CanvasCreateBody>;

/** Lock or unlock, and rename (the id never changes: links and agents keep working). */
export const CanvasChangeBody = z.strictObject({ locked: z.boolean().optional(), title: Title.optional() });
export type CanvasChangeBody = z.infer<typeof CanvasChangeBody>;

export const CanvasView = z.strictObject({ canvas_id: CanvasId, title: z.string().nullable(), locked: z.boolean() });
export type CanvasView = z.infer<typeof CanvasView>;

export const CanvasDuplicateBody = z.strictObject({
  canvas_id: CanvasId.meta({ description: 'The id of the copy.' }),
  with_results: z.boolean().optional().meta({
    description:
      "Also copy each node's latest succeeded run, its outputs as new assets (charged nothing); default false: the layout only.",
  }),
});
export type CanvasDuplicateBody = z.infer<typeof CanvasDuplicateBody>;

/** A deletion names what it deletes again, as the person typed it: a slip of the mouse deletes nothing. */
export const DeleteConfirmBody = z.strictObject({
  confirm: z.string().meta({ description: 'The id of what is deleted, typed again.' }),
});
export type DeleteConfirmBody = z.infer<typeof DeleteConfirmBody>;

export const RetiredView = z.strictObject({ deleted: z.string(), cancelled_run_ids: z.array(z.string()) });

/** A new project, by title (its id derived: "Spring Commercial" → spring-commercial, unique) or by id, or both. */
export const ProjectCreateBody = z
  .strictObject({
    project_id: ProjectId.optional().meta({ description: 'Default: derived from the title.' }),
    title: Title.optional(),
    workspace_id: z.string().optional().meta({ description: 'Default: the workspace of a project the caller owns.' }),
  })
  .refine((body) => body.project_id !== undefined || (body.title !== undefined && body.title !== null), {
    error: 'give the project a title (or an id)',
    path: ['title'],
  });
export type ProjectCreateBody = z.infer<typeof ProjectCreateBody>;

export const ProjectChangeBody = z.strictObject({ title: Title });
export type ProjectChangeBody = z.infer<typeof ProjectChangeBody>;

/** What a project keeps and may keep (owners; docs/security.md, "Storage and media bounds"). */
export const ProjectStorageView = z.strictObject({
  project_id: ProjectId,
  used_bytes: z
    .int()
    .min(0)
    .meta({ description: 'The bytes of every asset the project keeps: run outputs, uploads, thumbnails, exports.' }),
  quota_bytes: z.int().min(1).nullable().meta({
    description: 'The most its assets may take (--project-storage-quota-bytes); null: this server takes no uploads.',
  }),
});
export type ProjectStorageView = z.infer<typeof ProjectStorageView>;
