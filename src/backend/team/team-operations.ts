import {
  CanvasSnapshot,
  type CanvasChangeBody,
  type CanvasDuplicateBody,
  type CanvasEdge,
  type CanvasNode,
  type CanvasView,
  type DeleteConfirmBody,
  type ProjectChangeBody,
  type ProjectCreateBody,
} from '../../contract/index.js';
import type {
  AuditEntry,
  CanvasCreateBody,
  InviteCreateBody,
  InviteView,
  IssuedInvite,
  MemberSignInLink,
  MemberView,
  ProjectStorageView,
  RoleChangeBody,
} from '../../contract/index.js';
import type { Assets } from '../../assets/assets.js';
import { canvasIdFrom, createUnder, projectIdFrom } from './ids-from-titles.js';
import { CanvasError } from '../../shared/errors.js';
import type { Actor } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { personKeyOf } from '../../store/people-name-store.js';
import type { InviteRecord, MemberRecord } from '../../store/team-store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import { writeLayout, type TemplateOperations } from '../storyboard/canvas-templates.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';
import { requirePerson } from './people-operations.js';
import { copyRunResults } from '../canvas/result-copies.js';
import { personKey, pictureUrlOf, samePerson } from '../../contract/index.js';
import { storeSealOf } from '../../shared/secret-seal.js';
import { signInLinkMail, type Mailer } from './mailer.js';

/**
 * A team run from the browser: members see who is in their project; owners invite by link, change roles,
 * remove members, create and lock canvases and read the audit log; anyone may leave. Every change is in the audit log,
 * written in the transaction that makes it.
 */

const DEFAULT_INVITE_SECONDS = 7 * 86_400;
/** A sign-in link an owner makes for a teammate lasts a day: long enough to reach them, short for a credential. */
const MEMBER_LINK_MS = 24 * 3_600_000;
const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

/** Each person's chosen name and picture, keyed `issuer|subject`. */
interface ShownAs {
  names: ReadonlyMap<string, string>;
  pictures: ReadonlyMap<string, string>;
}

function memberView(member: MemberRecord, shown: ShownAs): MemberView {
  const picture = shown.pictures.get(personKeyOf(member.person));
  return {
    issuer: member.person.issuer,
    subject: member.person.subject,
    display_name: shown.names.get(personKeyOf(member.person)) ?? null,
    picture_url: picture === undefined ? null : pictureUrlOf(picture),
    role: member.role,
    joined_at: iso(member.joinedAt)!,
  };
}

export function inviteView(invite: InviteRecord): InviteView {
  return {
    invite_id: invite.id,
    project_id: invite.projectId,
    role: invite.role,
    invited_by: invite.invitedBy,
    created_at: iso(invite.createdAt)!,
    expires_at: iso(invite.expiresAt)!,
    accepted_by: invite.acceptedBy,
    accepted_at: iso(invite.acceptedAt),
    revoked_at: iso(invite.revokedAt),
  };
}

export interface TeamOperations {
  members(ctx: CallerContext, projectId: string): Promise<MemberView[]>;
  /** A one-time sign-in link for a member (owners): how a teammate whose session ended comes back. */
  signInLink(ctx: CallerContext, projectId: string, person: Actor): Promise<MemberSignInLink>;
  invite(ctx: CallerContext, projectId: string, body: InviteCreateBody): Promise<IssuedInvite>;
  invites(ctx: CallerContext, projectId: string): Promise<InviteView[]>;
  revokeInvite(ctx: CallerContext, projectId: string, inviteId: string): Promise<InviteView>;
  changeRole(ctx: CallerContext, projectId: string, person: Actor, body: RoleChangeBody): Promise<MemberView>;
  removeMember(ctx: CallerContext, projectId: string, person: Actor): Promise<void>;
  audit(ctx: CallerContext, projectId: string, limit: number): Promise<AuditEntry[]>;
  /** What the project's assets take, and its quota (owners: the team page shows it). */
  storage(ctx: CallerContext, projectId: string): Promise<ProjectStorageView>;
  createCanvas(ctx: CallerContext, projectId: string, body: CanvasCreateBody): Promise<CanvasView>;
  changeCanvas(ctx: CallerContext, projectId: string, canvasId: string, body: CanvasChangeBody): Promise<CanvasView>;
  duplicateCanvas(
    ctx: CallerContext,
    projectId: string,
    canvasId: string,
    body: CanvasDuplicateBody,
  ): Promise<CanvasView>;
  deleteCanvas(
    ctx: CallerContext,
    projectId: string,
    canvasId: string,
    body: DeleteConfirmBody,
  ): Promise<{ deleted: string; cancelled_run_ids: string[] }>;
  createProject(ctx: CallerContext, body: ProjectCreateBody): Promise<{ project_id: string; title: string | null }>;
  renameProject(
    ctx: CallerContext,
    projectId: string,
    body: ProjectChangeBody,
  ): Promise<{ project_id: string; title: string | null }>;
  deleteProject(
    ctx: CallerContext,
    projectId: string,
    body: DeleteConfirmBody,
  ): Promise<{ deleted: string; cancelled_run_ids: string[] }>;
}

export function createTeamOperations(
  store: Store,
  backend: CanvasBackend,
  assets: Assets,
  publicOrigin: () => string,
  options: {
    mailer?: Mailer | null;
    /** The project storage quota uploads are held to (`--project-storage-quota-bytes`); null: no uploads here. */
    storageQuotaBytes?: number | null;
    /** The process's template operations (src/backend/services.ts builds them once). */
    templates: TemplateOperations;
  },
): TeamOperations {
  const mailer = options.mailer ?? null;
  const inviteSeal = storeSealOf(store, 'invite_seal', 'invite seal');
  const { templates } = options;
  const inviteUrl = (secret: string) => `${publicOrigin()}/invite?token=${encodeURIComponent(secret)}`;
  async function canvasView(projectId: string, canvasId: string): Promise<CanvasView> {
    const entry = (await store.directory.canvases(projectId)).find((canvas) => canvas.canvasId === canvasId);
    if (!entry) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
    return { canvas_id: entry.canvasId, title: entry.title, locked: entry.locked };
  }

  /** An owner acting as a person (a bare token manages no team). */
  async function owner(ctx: CallerContext, projectId: string, what: string): Promise<Actor> {
    const person = requirePerson(ctx, what);
    await authorizeProject(store, ctx, projectId, 'owner');
    return person;
  }

  async function shownAs(people: readonly Actor[]): Promise<ShownAs> {
    return { names: await store.names.namesOf(people), pictures: await store.pictures.pictureIdsOf(people) };
  }

  return {
    async members(ctx, projectId) {
      await authorizeProject(store, ctx, projectId, 'viewer');
      const members = await store.team.members(projectId);
      const shown = await shownAs(members.map((member) => member.person));
      return members.map((member) => memberView(member, shown));
    },

    async invite(ctx, projectId, body) {
      const by = await owner(ctx, projectId, 'invite people');
      const seal = await inviteSeal();
      const { invite, secret } = await store.team.invite(
        projectId,
        body.role,
        by,
        (body.expires_in ?? DEFAULT_INVITE_SECONDS) * 1000,
        (plain) => seal.seal(plain),
      );
      return { ...inviteView(invite), url: inviteUrl(secret) };
    },

    /** Every invitation, and for those still pending their link again: owners copy it rather than make another. */
    async invites(ctx, projectId) {
      await owner(ctx, projectId, 'see invitations');
      const seal = await inviteSeal();
      const now = Date.now();
      return (await store.team.invites(projectId)).map((invite) => {
        const pending =
          invite.acceptedAt === null && invite.revokedAt === null && invite.expiresAt > now && invite.secretSealed;
        return pending
          ? { ...inviteView(invite), url: inviteUrl(seal.open(invite.secretSealed!)) }
          : inviteView(invite);
      });
    },

    async signInLink(ctx, projectId, person) {
      const by = await owner(ctx, projectId, 'make sign-in links');
      if (!(await store.projects.getMemberRole(projectId, person))) {
        throw new CanvasError('not_found', `${person.subject} is not a member of project ${projectId}.`);
      }
      const expiresAt = Date.now() + MEMBER_LINK_MS;
      const secret = await store.sessions.createLoginLink(person, { expiresInMs: MEMBER_LINK_MS, projectId });
      await store.team.record({
        projectId,
        actor: by,
        action: 'member.sign_in_link',
        target: personKey(person),
        details: { expires_at: iso(expiresAt) },
      });
      const url = `${publicOrigin()}/auth/login?token=${secret}`;
      const address = mailer ? await store.emails.emailOf(person) : null;
      const emailed =
        !!address &&
        (await mailer!.send({
          to: address,
          subject: `Your sign-in link to ${projectId}`,
          text: signInLinkMail(url, `${by.subject} made you this link to come back to project ${projectId}.`),
        }));
      return { person, url, expires_at: iso(expiresAt)!, emailed };
    },

    async revokeInvite(ctx, projectId, inviteId) {
      const by = await owner(ctx, projectId, 'withdraw invitations');
      return inviteView(await store.team.revokeInvite(projectId, inviteId, by));
    },

    async changeRole(ctx, projectId, person, body) {
      const by = await owner(ctx, projectId, 'change roles');
      const changed = await store.team.changeRole(projectId, person, body.role, by);
      return memberView(changed, await shownAs([changed.person]));
    },

    async removeMember(ctx, projectId, person) {
      const by = requirePerson(ctx, 'leave or remove members');
      const leaving = samePerson(by, person);
      await authorizeProject(store, ctx, projectId, leaving ? 'viewer' : 'owner');
      await store.team.removeMember(projectId, person, by);
    },

    async audit(ctx, projectId, limit) {
      await owner(ctx, projectId, 'read the audit log');
      return (await store.team.audit(projectId, limit)).map((entry) => ({ ...entry, at: iso(entry.at)! }));
    },

    async storage(ctx, projectId) {
      await owner(ctx, projectId, "read the project's storage");
      return {
        project_id: projectId,
        used_bytes: await store.assets.projectBytes(projectId),
        quota_bytes: options.storageQuotaBytes ?? null,
      };
    },

    async createCanvas(ctx, projectId, body) {
      const by = await owner(ctx, projectId, 'create canvases');
      const title = body.title ?? null;
      // The template is read before the canvas is made: an unknown one makes nothing.
      const layout = body.template_id ? await templates.layoutOf(projectId, body.template_id) : null;
      const details = body.template_id ? { template_id: body.template_id } : undefined;
      const create = (id: string) => store.team.createCanvas(projectId, id, by, details, title);
      const canvasId = body.canvas_id ?? (await createUnder(canvasIdFrom(title!), create));
      if (body.canvas_id !== undefined) await create(body.canvas_id);
      if (layout) await writeLayout(backend, ctx, { projectId, canvasId }, layout);
      return { canvas_id: canvasId, title, locked: false };
    },

    async changeCanvas(ctx, projectId, canvasId, body) {
      const by = await owner(ctx, projectId, 'change canvases');
      await requireCanvas(store, projectId, canvasId);
      if (body.locked !== undefined) await store.team.setLocked(projectId, canvasId, body.locked, by);
      if (body.title !== undefined) await store.team.retitle({ projectId, canvasId }, body.title, by);
      return canvasView(projectId, canvasId);
    },

    async duplicateCanvas(ctx, projectId, canvasId, body) {
      const by = await owner(ctx, projectId, 'duplicate canvases');
      const source = CanvasSnapshot.parse(
        JSON.parse((await backend.readSnapshot(ctx, { projectId, canvasId })).payload.json),
      );
      await store.team.createCanvas(projectId, body.canvas_id, by, { copy_of: canvasId });
      await writeLayout(
        backend,
        ctx,
        { projectId, canvasId: body.canvas_id },
        { nodes: source.layout.nodes as CanvasNode[], edges: source.layout.edges as CanvasEdge[] },
      );
      const results = body.with_results
        ? await copyRunResults(store, assets, { projectId, canvasId }, { projectId, canvasId: body.canvas_id })
        : null;
      const details = {
        from: canvasId,
        nodes: source.layout.nodes.length,
        ...(results ? { results: results.copied, results_left_out: results.skipped } : {}),
      };
      await store.team.record({ projectId, actor: by, action: 'canvas.duplicated', target: body.canvas_id, details });
      return canvasView(projectId, body.canvas_id);
    },

    async deleteCanvas(ctx, projectId, canvasId, body) {
      const by = await owner(ctx, projectId, 'delete canvases');
      if (body.confirm !== canvasId)
        throw new CanvasError(
          'invalid_arguments',
          `To delete canvas ${canvasId}, type its id (${canvasId}) to confirm.`,
          { field: 'confirm' },
        );
      return { deleted: canvasId, cancelled_run_ids: await store.team.retire({ projectId, canvasId }, by) };
    },

    async createProject(ctx, body) {
      const by = requirePerson(ctx, 'create projects');
      const owned = (await store.directory.membershipsOf(by)).filter((entry) => entry.role === 'owner');
      const workspaceId = body.workspace_id ?? owned[0]?.workspaceId;
      if (!workspaceId || !owned.some((entry) => entry.workspaceId === workspaceId)) {
        throw new CanvasError(
          'forbidden',
          'Only an owner of a project in a workspace creates projects there: ask an administrator (admin project create).',
        );
      }
      const title = body.title ?? null;
      const create = (id: string) => store.team.createProject(id, workspaceId, title, by);
      const projectId = body.project_id ?? (await createUnder(projectIdFrom(title!), create));
      if (body.project_id !== undefined) await create(body.project_id);
      return { project_id: projectId, title };
    },

    async renameProject(ctx, projectId, body) {
      const by = await owner(ctx, projectId, 'rename projects');
      await store.team.retitle({ projectId }, body.title, by);
      return { project_id: projectId, title: body.title };
    },

    async deleteProject(ctx, projectId, body) {
      const by = await owner(ctx, projectId, 'delete projects');
      if (body.confirm !== projectId)
        throw new CanvasError(
          'invalid_arguments',
          `To delete project ${projectId}, type its id (${projectId}) to confirm.`,
          { field: 'confirm' },
        );
      return { deleted: projectId, cancelled_run_ids: await store.team.retire({ projectId }, by) };
    },
  };
}

/** A member named in a path: `issuer|subject` would be ambiguous, so both are path segments. */
export function memberOf(issuer: string, subject: string): Actor {
  if (!issuer || !subject) throw new CanvasError('invalid_arguments', 'A member is named by issuer and subject.');
  return { issuer, subject };
}
