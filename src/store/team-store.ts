import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { CanvasError } from '../shared/errors.js';
import { newId, sha256Hex } from '../shared/ids.js';
import { MEMBER_ROLES, parseRow, parseRows, type Actor, type MemberRole } from './records.js';
import { insertRow } from './row-statements.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { requestRunCancel } from './run-cancel.js';
import { RUN_COLUMNS, parseRunRow } from './run-rows.js';
import { personKey, samePerson } from '../contract/index.js';

/**
 * A project's team: who is in it, invitations by link, role changes and removals, and the audit log of every change. A
 * project always keeps an owner: the last one can neither leave nor be demoted, checked inside the transaction that
 * would change it, so two owners demoting each other at once cannot both succeed.
 */

export interface MemberRecord {
  person: Actor;
  role: MemberRole;
  joinedAt: number;
}

export interface InviteRecord {
  id: string;
  projectId: string;
  role: MemberRole;
  invitedBy: Actor;
  createdAt: number;
  expiresAt: number;
  acceptedBy: Actor | null;
  acceptedAt: number | null;
  revokedAt: number | null;
  /** The link's secret, sealed, so owners can copy a pending invitation again; null for older ones. */
  secretSealed: string | null;
}

export interface AuditRecord {
  at: number;
  actor: Actor;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

export interface TeamStore {
  members(projectId: string): Promise<MemberRecord[]>;
  /** Answers the invitation and its link's secret (shown once). */
  invite(
    projectId: string,
    role: MemberRole,
    by: Actor,
    expiresInMs: number,
    seal?: (secret: string) => string,
  ): Promise<{ invite: InviteRecord; secret: string }>;
  invites(projectId: string): Promise<InviteRecord[]>;
  /** The invitation a link's secret names, if it can still be accepted; else why not (unauthenticated). */
  peekInvite(secret: string): Promise<InviteRecord>;
  /** Spends the link: the person joins with its role (a member already keeps a higher role). */
  acceptInvite(secret: string, person: Actor): Promise<{ invite: InviteRecord; role: MemberRole }>;
  revokeInvite(projectId: string, inviteId: string, by: Actor): Promise<InviteRecord>;
  changeRole(projectId: string, person: Actor, role: MemberRole, by: Actor): Promise<MemberRecord>;
  /** Removes a member (or, with `by` the member, leaves). */
  removeMember(projectId: string, person: Actor, by: Actor): Promise<void>;
  createProject(projectId: string, workspaceId: string, title: string | null, by: Actor): Promise<void>;
  /** A new canvas and its audit entry, in one transaction (`details` say more, e.g. what it copies). */
  createCanvas(
    projectId: string,
    canvasId: string,
    by: Actor,
    details?: Record<string, unknown>,
    title?: string | null,
  ): Promise<void>;
  /** Locks a canvas read-only or unlocks it, with its audit entry in the same transaction. */
  setLocked(projectId: string, canvasId: string, locked: boolean, by: Actor): Promise<void>;
  /** Sets what people call a project or canvas (null: its id again). */
  retitle(target: { projectId: string; canvasId?: string }, title: string | null, by: Actor): Promise<void>;
  /**
   * Retires a canvas, or a project with all its canvases: gone at once for every reader and writer, its active runs
   * cancelled (answered), its rows kept (docs/security.md). Recorded in the audit log.
   */
  retire(target: { projectId: string; canvasId?: string }, by: Actor): Promise<string[]>;
  /** Appends to the audit log (inside the caller's transaction when given one). */
  record(
    entry: { projectId: string; actor: Actor; action: string; target: string; details?: Record<string, unknown> },
    tx?: SqlExecutor,
  ): Promise<void>;
  audit(projectId: string, limit: number): Promise<AuditRecord[]>;
}

const RANK: Record<MemberRole, number> = { viewer: 0, editor: 1, owner: 2 };

const MemberRow = z.object({
  issuer: z.string(),
  subject: z.string(),
  role: z.enum(MEMBER_ROLES),
  created_at: z.coerce.number(),
});
const INVITE_COLUMNS =
  'id, project_id, role, invited_by_issuer, invited_by_subject, created_at, expires_at, accepted_at, accepted_by_issuer, accepted_by_subject, revoked_at, secret_sealed';
const nullableNumber = z.coerce.number().nullable();
const InviteRow = z
  .object({
    id: z.string(),
    project_id: z.string(),
    role: z.enum(MEMBER_ROLES),
    invited_by_issuer: z.string(),
    invited_by_subject: z.string(),
    created_at: z.coerce.number(),
    expires_at: z.coerce.number(),
    accepted_at: nullableNumber,
    accepted_by_issuer: z.string().nullable(),
    accepted_by_subject: z.string().nullable(),
    revoked_at: nullableNumber,
    secret_sealed: z.string().nullable(),
  })
  .transform((row): InviteRecord => ({
    id: row.id,
    projectId: row.project_id,
    role: row.role,
    invitedBy: { issuer: row.invited_by_issuer, subject: row.invited_by_subject },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    acceptedBy:
      row.accepted_by_issuer !== null && row.accepted_by_subject !== null
        ? { issuer: row.accepted_by_issuer, subject: row.accepted_by_subject }
        : null,
    acceptedAt: row.accepted_at,
    revokedAt: row.revoked_at,
    secretSealed: row.secret_sealed,
  }));
const AuditRow = z.object({
  at: z.coerce.number(),
  actor_issuer: z.string(),
  actor_subject: z.string(),
  action: z.string(),
  target: z.string(),
  details: z.string(),
});

const newInviteSecret = () => `inv_${randomBytes(32).toString('base64url')}`;

export function createTeamStore(driver: SqlDriver, clock: () => number): TeamStore {
  async function roleOf(tx: SqlExecutor, projectId: string, person: Actor): Promise<MemberRole | undefined> {
    const row = await tx.get(
      `SELECT role FROM project_members WHERE project_id = ? AND issuer = ? AND subject = ?${driver.forUpdate}`,
      [projectId, person.issuer, person.subject],
    );
    return row ? (row.role as MemberRole) : undefined;
  }

  /** Refuses a change that would leave the project without an owner. */
  async function keepAnOwner(tx: SqlExecutor, projectId: string, person: Actor, what: string): Promise<void> {
    const owners = await tx.all(
      `SELECT issuer, subject FROM project_members WHERE project_id = ? AND role = 'owner'${driver.forUpdate}`,
      [projectId],
    );
    const others = owners.filter(
      (row) => !samePerson({ issuer: String(row.issuer), subject: String(row.subject) }, person),
    );
    if (others.length === 0) {
      throw new CanvasError(
        'forbidden',
        `${person.subject} is the last owner of project ${projectId} and cannot ${what}: make another member an owner first.`,
      );
    }
  }

  async function record(entry: Parameters<TeamStore['record']>[0], tx: SqlExecutor = driver): Promise<void> {
    await tx.run(
      'INSERT INTO audit_log (id, project_id, at, actor_issuer, actor_subject, action, target, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        newId('aud_'),
        entry.projectId,
        clock(),
        entry.actor.issuer,
        entry.actor.subject,
        entry.action,
        entry.target,
        JSON.stringify(entry.details ?? {}),
      ],
    );
  }

  /**
   * Withdraws the open invitations someone made, inside the transaction that removes or demotes them: only owners
   * invite, and a link never does more than its maker may still do.
   */
  async function withdrawInvitesBy(tx: SqlExecutor, projectId: string, maker: Actor, by: Actor): Promise<void> {
    const open = await tx.all(
      `SELECT id FROM project_invites WHERE project_id = ? AND invited_by_issuer = ? AND invited_by_subject = ?
         AND accepted_at IS NULL AND revoked_at IS NULL${driver.forUpdate}`,
      [projectId, maker.issuer, maker.subject],
    );
    if (open.length === 0) return;
    const now = clock();
    for (const { id } of open) {
      await tx.run('UPDATE project_invites SET revoked_at = ? WHERE id = ?', [now, String(id)]);
      await record(
        {
          projectId,
          actor: by,
          action: 'invite.revoked',
          target: String(id),
          details: { reason: 'maker_no_longer_owner', invited_by: personKey(maker) },
        },
        tx,
      );
    }
  }

  async function inviteBySecret(tx: SqlExecutor, secret: string, lock: boolean): Promise<InviteRecord> {
    const row = await tx.get(
      `SELECT ${INVITE_COLUMNS} FROM project_invites WHERE secret_hash = ?${lock ? driver.forUpdate : ''}`,
      [sha256Hex(secret)],
    );
    if (!row) throw new CanvasError('unauthenticated', 'This invitation link is not one this server issued.');
    const invite = parseRow(InviteRow, row);
    if (invite.acceptedAt !== null)
      throw new CanvasError('unauthenticated', 'This invitation has already been used: invitations work once.');
    if (invite.revokedAt !== null)
      throw new CanvasError('unauthenticated', 'This invitation was withdrawn by an owner of the project.');
    if (invite.expiresAt <= clock()) throw new CanvasError('unauthenticated', 'This invitation has expired.');
    // The rule tokens and chat runs follow: an invitation does no more than its maker may do now. Only owners invite,
    // so a maker who left or is no longer an owner leaves a link that no longer works.
    const makerRole = await roleOf(tx, invite.projectId, invite.invitedBy);
    if (makerRole !== 'owner') {
      throw new CanvasError(
        'unauthenticated',
        `This invitation was made by ${invite.invitedBy.subject}, who is ${makerRole ? 'no longer an owner' : 'no longer a member'} of the project: it no longer works. Ask an owner for a new one.`,
      );
    }
    return invite;
  }

  return {
    async members(projectId) {
      const rows = await driver.all(
        'SELECT issuer, subject, role, created_at FROM project_members WHERE project_id = ? ORDER BY created_at, subject',
        [projectId],
      );
      return parseRows(MemberRow, rows).map((row) => ({
        person: { issuer: row.issuer, subject: row.subject },
        role: row.role,
        joinedAt: row.created_at,
      }));
    },

    async invite(projectId, role, by, expiresInMs, seal) {
      const secret = newInviteSecret();
      const id = newId('invite_');
      const now = clock();
      const secretSealed = seal ? seal(secret) : null;
      await driver.transaction(async (tx) => {
        await insertRow(tx, 'project_invites', {
          id,
          secret_hash: sha256Hex(secret),
          project_id: projectId,
          role,
          invited_by_issuer: by.issuer,
          invited_by_subject: by.subject,
          created_at: now,
          expires_at: now + expiresInMs,
          secret_sealed: secretSealed,
        });
        await record({ projectId, actor: by, action: 'invite.created', target: id, details: { role } }, tx);
      });
      const invite: InviteRecord = {
        id,
        projectId,
        role,
        invitedBy: by,
        createdAt: now,
        expiresAt: now + expiresInMs,
        acceptedBy: null,
        acceptedAt: null,
        revokedAt: null,
        secretSealed,
      };
      return { invite, secret };
    },

    async invites(projectId) {
      return parseRows(
        InviteRow,
        await driver.all(
          `SELECT ${INVITE_COLUMNS} FROM project_invites WHERE project_id = ? ORDER BY created_at DESC LIMIT 100`,
          [projectId],
        ),
      );
    },

    peekInvite: (secret) => inviteBySecret(driver, secret, false),

    acceptInvite(secret, person) {
      return driver.transaction(async (tx) => {
        const invite = await inviteBySecret(tx, secret, true);
        const now = clock();
        await tx.run(
          'UPDATE project_invites SET accepted_at = ?, accepted_by_issuer = ?, accepted_by_subject = ? WHERE id = ?',
          [now, person.issuer, person.subject, invite.id],
        );
        const current = await roleOf(tx, invite.projectId, person);
        const role = current && RANK[current] >= RANK[invite.role] ? current : invite.role;
        if (current) {
          await tx.run('UPDATE project_members SET role = ? WHERE project_id = ? AND issuer = ? AND subject = ?', [
            role,
            invite.projectId,
            person.issuer,
            person.subject,
          ]);
        } else {
          await tx.run(
            'INSERT INTO project_members (project_id, issuer, subject, role, created_at) VALUES (?, ?, ?, ?, ?)',
            [invite.projectId, person.issuer, person.subject, role, now],
          );
        }
        await record(
          {
            projectId: invite.projectId,
            actor: person,
            action: 'member.joined',
            target: personKey(person),
            details: { role, invite_id: invite.id, invited_by: personKey(invite.invitedBy) },
          },
          tx,
        );
        return { invite: { ...invite, acceptedAt: now, acceptedBy: person }, role };
      });
    },

    revokeInvite(projectId, inviteId, by) {
      return driver.transaction(async (tx) => {
        const row = await tx.get(
          `SELECT ${INVITE_COLUMNS} FROM project_invites WHERE project_id = ? AND id = ?${driver.forUpdate}`,
          [projectId, inviteId],
        );
        if (!row) throw new CanvasError('not_found', `No invitation ${inviteId} in project ${projectId}.`);
        const invite = parseRow(InviteRow, row);
        if (invite.acceptedAt !== null || invite.revokedAt !== null) return invite;
        const now = clock();
        await tx.run('UPDATE project_invites SET revoked_at = ? WHERE id = ?', [now, inviteId]);
        await record({ projectId, actor: by, action: 'invite.revoked', target: inviteId }, tx);
        return { ...invite, revokedAt: now };
      });
    },

    changeRole(projectId, person, role, by) {
      return driver.transaction(async (tx) => {
        const current = await roleOf(tx, projectId, person);
        if (!current)
          throw new CanvasError(
            'not_found',
            `${person.subject} (${person.issuer}) is not a member of project ${projectId}.`,
          );
        if (current === 'owner' && role !== 'owner') {
          await keepAnOwner(tx, projectId, person, 'be demoted');
          await withdrawInvitesBy(tx, projectId, person, by);
        }
        await tx.run('UPDATE project_members SET role = ? WHERE project_id = ? AND issuer = ? AND subject = ?', [
          role,
          projectId,
          person.issuer,
          person.subject,
        ]);
        if (current !== role)
          await record(
            {
              projectId,
              actor: by,
              action: 'member.role_changed',
              target: personKey(person),
              details: { from: current, to: role },
            },
            tx,
          );
        const row = await tx.get(
          'SELECT created_at FROM project_members WHERE project_id = ? AND issuer = ? AND subject = ?',
          [projectId, person.issuer, person.subject],
        );
        return { person, role, joinedAt: Number(row?.created_at ?? 0) };
      });
    },

    async removeMember(projectId, person, by) {
      await driver.transaction(async (tx) => {
        const current = await roleOf(tx, projectId, person);
        if (!current)
          throw new CanvasError(
            'not_found',
            `${person.subject} (${person.issuer}) is not a member of project ${projectId}.`,
          );
        const leaving = samePerson(by, person);
        if (current === 'owner') await keepAnOwner(tx, projectId, person, leaving ? 'leave' : 'be removed');
        await withdrawInvitesBy(tx, projectId, person, by);
        await tx.run('DELETE FROM project_members WHERE project_id = ? AND issuer = ? AND subject = ?', [
          projectId,
          person.issuer,
          person.subject,
        ]);
        // Removed from the last project they were in, a person keeps no device remembered (docs/security.md,
        // "Remembered devices"); a short session stays, refused by every project (403) until it ends on its own.
        const elsewhere = await tx.get('SELECT 1 AS one FROM project_members WHERE issuer = ? AND subject = ?', [
          person.issuer,
          person.subject,
        ]);
        if (!elsewhere)
          await tx.run(
            'UPDATE sessions SET ended_at = ? WHERE issuer = ? AND subject = ? AND remembered = 1 AND ended_at IS NULL',
            [clock(), person.issuer, person.subject],
          );
        await record(
          {
            projectId,
            actor: by,
            action: leaving ? 'member.left' : 'member.removed',
            target: personKey(person),
            details: { role: current },
          },
          tx,
        );
      });
    },

    async createProject(projectId, workspaceId, title, by) {
      await driver.transaction(async (tx) => {
        if (await tx.get('SELECT 1 AS present FROM projects WHERE id = ?', [projectId])) {
          throw new CanvasError(
            'already_exists',
            `Project ${projectId} already exists (ids of deleted projects are not reused).`,
          );
        }
        const now = clock();
        await tx.run('INSERT INTO projects (id, workspace_id, title, created_at) VALUES (?, ?, ?, ?)', [
          projectId,
          workspaceId,
          title,
          now,
        ]);
        await tx.run(
          'INSERT INTO project_members (project_id, issuer, subject, role, created_at) VALUES (?, ?, ?, ?, ?)',
          [projectId, by.issuer, by.subject, 'owner', now],
        );
        await record({ projectId, actor: by, action: 'project.created', target: projectId, details: { title } }, tx);
      });
    },

    async createCanvas(projectId, canvasId, by, details, title = null) {
      await driver.transaction(async (tx) => {
        if (!(await tx.get('SELECT 1 AS present FROM projects WHERE id = ? AND deleted_at IS NULL', [projectId])))
          throw new CanvasError('not_found', `No project ${projectId}.`);
        if (await tx.get('SELECT 1 AS present FROM canvases WHERE project_id = ? AND id = ?', [projectId, canvasId])) {
          throw new CanvasError(
            'already_exists',
            `Canvas ${canvasId} already exists in project ${projectId} (ids of deleted canvases are not reused).`,
          );
        }
        await tx.run('INSERT INTO canvases (project_id, id, locked, created_at, title) VALUES (?, ?, 0, ?, ?)', [
          projectId,
          canvasId,
          clock(),
          title,
        ]);
        await record(
          { projectId, actor: by, action: 'canvas.created', target: canvasId, ...(details ? { details } : {}) },
          tx,
        );
      });
    },

    async setLocked(projectId, canvasId, locked, by) {
      await driver.transaction(async (tx) => {
        const { changes } = await tx.run(
          'UPDATE canvases SET locked = ? WHERE project_id = ? AND id = ? AND deleted_at IS NULL',
          [locked ? 1 : 0, projectId, canvasId],
        );
        if (changes === 0) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
        await record(
          { projectId, actor: by, action: locked ? 'canvas.locked' : 'canvas.unlocked', target: canvasId },
          tx,
        );
      });
    },

    async retitle(target, title, by) {
      await driver.transaction(async (tx) => {
        const { changes } = target.canvasId
          ? await tx.run('UPDATE canvases SET title = ? WHERE project_id = ? AND id = ? AND deleted_at IS NULL', [
              title,
              target.projectId,
              target.canvasId,
            ])
          : await tx.run('UPDATE projects SET title = ? WHERE id = ? AND deleted_at IS NULL', [
              title,
              target.projectId,
            ]);
        if (changes === 0)
          throw new CanvasError(
            'not_found',
            target.canvasId
              ? `No canvas ${target.canvasId} in project ${target.projectId}.`
              : `No project ${target.projectId}.`,
          );
        const what = target.canvasId ? 'canvas' : 'project';
        await record(
          {
            projectId: target.projectId,
            actor: by,
            action: `${what}.renamed`,
            target: target.canvasId ?? target.projectId,
            details: { title },
          },
          tx,
        );
      });
    },

    retire(target, by) {
      return driver.transaction(async (tx) => {
        const now = clock();
        const scope = target.canvasId ? 'project_id = ? AND id = ?' : 'project_id = ?';
        const params = target.canvasId ? [target.projectId, target.canvasId] : [target.projectId];
        const live = await tx.all(
          `SELECT id FROM canvases WHERE ${scope} AND deleted_at IS NULL${driver.forUpdate}`,
          params,
        );
        if (target.canvasId && live.length === 0)
          throw new CanvasError('not_found', `No canvas ${target.canvasId} in project ${target.projectId}.`);
        const runs = (
          await tx.all(
            `SELECT ${RUN_COLUMNS} FROM node_runs WHERE project_id = ?${target.canvasId ? ' AND canvas_id = ?' : ''}
             AND status IN ('queued', 'running', 'cancel_requested') ORDER BY seq${driver.forUpdate}`,
            params,
          )
        ).map(parseRunRow);
        for (const run of runs) await requestRunCancel(driver, tx, run, now);
        await tx.run(`UPDATE canvases SET deleted_at = ? WHERE ${scope} AND deleted_at IS NULL`, [now, ...params]);
        if (!target.canvasId) {
          const { changes } = await tx.run('UPDATE projects SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL', [
            now,
            target.projectId,
          ]);
          if (changes === 0) throw new CanvasError('not_found', `No project ${target.projectId}.`);
        }
        const cancelled = runs.map((run) => run.id);
        await record(
          {
            projectId: target.projectId,
            actor: by,
            action: target.canvasId ? 'canvas.deleted' : 'project.deleted',
            target: target.canvasId ?? target.projectId,
            details: { cancelled_run_ids: cancelled },
          },
          tx,
        );
        return cancelled;
      });
    },

    record,

    async audit(projectId, limit) {
      const rows = parseRows(
        AuditRow,
        await driver.all(
          'SELECT at, actor_issuer, actor_subject, action, target, details FROM audit_log WHERE project_id = ? ORDER BY at DESC, id DESC LIMIT ?',
          [projectId, limit],
        ),
      );
      return rows.map((row) => ({
        at: row.at,
        actor: { issuer: row.actor_issuer, subject: row.actor_subject },
        action: row.action,
        target: row.target,
        details: JSON.parse(row.details) as Record<string, unknown>,
      }));
    },
  };
}
