import { useCallback, useEffect, useState } from 'react';
import type {
  AuditEntry,
  InviteView,
  IssuedInvite,
  MeView,
  MemberSignInLink,
  MemberView,
  ProjectStorageView,
} from '../../../src/contract/index.js';
import { samePerson } from '../../../src/contract/person.js';
import { bytesInWords } from '../../../src/shared/byte-size.js';
import { markFirstStep } from '../model/first-steps.js';
import { api, ApiError } from '../model/api.js';
import { Landing } from './Landing.js';
import { useChange } from './use-change.js';
import { WebhooksPanel } from './WebhooksPanel.js';
import { navigate } from './router.js';
import { Avatar } from '../ui/avatar.js';
import { Select } from '../ui/select.js';

/**
 * A project's team: every member sees who is in it; owners invite by link, change roles, remove members,
 * withdraw invitations and read the audit log; anyone may leave. What the server refuses is said in words.
 */

type Role = MemberView['role'];
const ROLES: Role[] = ['viewer', 'editor', 'owner'];

const when = (iso: string) => new Date(iso).toLocaleString();

function inviteStatus(invite: InviteView): string {
  if (invite.accepted_by) return `accepted by ${invite.accepted_by.subject}`;
  if (invite.revoked_at) return 'withdrawn';
  if (new Date(invite.expires_at).getTime() <= Date.now()) return 'expired';
  return `open until ${when(invite.expires_at)}`;
}

function describeEntry(entry: AuditEntry): string {
  const target = entry.target.includes('|') ? entry.target.slice(entry.target.indexOf('|') + 1) : entry.target;
  const details = entry.details as { role?: string; from?: string; to?: string; results?: number };
  switch (entry.action) {
    case 'invite.created':
      return `invited someone as ${details.role ?? 'a member'}`;
    case 'invite.revoked':
      return 'withdrew an invitation';
    case 'member.joined':
      return `joined as ${details.role ?? 'a member'}`;
    case 'member.role_changed':
      return `changed ${target} from ${details.from} to ${details.to}`;
    case 'member.removed':
      return `removed ${target}`;
    case 'member.left':
      return 'left the project';
    case 'canvas.created':
      return `created canvas ${target}`;
    case 'canvas.locked':
      return `locked canvas ${target}`;
    case 'canvas.unlocked':
      return `unlocked canvas ${target}`;
    case 'canvas.renamed':
      return `renamed canvas ${target}`;
    case 'canvas.duplicated':
      return `made canvas ${target} as a copy of ${details.from ?? 'another canvas'}${details.results === undefined ? '' : `, with ${details.results} run result${details.results === 1 ? '' : 's'}`}`;
    case 'webhook.created':
      return `added a webhook to ${(entry.details as { url?: string }).url ?? 'an endpoint'}`;
    case 'webhook.changed':
      return `changed the webhook to ${(entry.details as { url?: string }).url ?? 'an endpoint'}`;
    case 'webhook.rotated':
      return `rotated the secret of the webhook to ${(entry.details as { url?: string }).url ?? 'an endpoint'}`;
    case 'webhook.redelivered':
      return 'sent a webhook delivery again';
    case 'webhook.deleted':
      return 'deleted a webhook';
    case 'canvas.deleted':
      return `deleted canvas ${target}`;
    case 'project.created':
      return 'created the project';
    case 'project.renamed':
      return 'renamed the project';
    default:
      return `${entry.action} ${target}`;
  }
}

export function TeamPage({ projectId }: { projectId: string }) {
  const [me, setMe] = useState<MeView | null>(null);
  const [members, setMembers] = useState<MemberView[]>([]);
  const [invites, setInvites] = useState<InviteView[]>([]);
  const [audit, setAudit] = useState<AuditEntry[]>([]);
  const [storage, setStorage] = useState<ProjectStorageView | null>(null);
  // Removing someone (or leaving) asks once more: the member whose row shows the question.
  const [removing, setRemoving] = useState<string | null>(null);
  const [issued, setIssued] = useState<IssuedInvite | null>(null);
  const [signInLink, setSignInLink] = useState<MemberSignInLink | null>(null);
  const [inviteRole, setInviteRole] = useState<Role>('editor');
  const [failure, setFailure] = useState<'signed-out' | 'gone' | null>(null);

  const role = me?.projects.find((project) => project.project_id === projectId)?.role ?? null;
  const isOwner = role === 'owner';

  const reload = useCallback(async () => {
    try {
      const who = await api.me();
      setMe(who);
      const mine = who.projects.find((project) => project.project_id === projectId);
      if (!mine) {
        setFailure('gone');
        return;
      }
      setMembers((await api.members(projectId)).members);
      if (mine.role === 'owner') {
        setInvites((await api.invites(projectId)).invites);
        setAudit((await api.audit(projectId)).entries);
        setStorage(await api.storage(projectId));
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setFailure('signed-out');
      else if (error instanceof ApiError && (error.status === 403 || error.status === 404)) setFailure('gone');
      else throw error;
    }
  }, [projectId]);

  useEffect(() => {
    // A failure other than access (the server down) is said like a refused change.
    void act(() => Promise.resolve());
  }, [reload]);

  const { act, problem } = useChange(reload);

  if (failure === 'signed-out') return <Landing />;
  if (failure === 'gone') {
    return (
      <main className="home">
        <h1>Team of {projectId}</h1>
        <p role="alert">You are not a member of project {projectId}.</p>
        <a href="/">Your canvases</a>
      </main>
    );
  }
  if (!me) return <main className="home">Loading…</main>;

  return (
    <main className="home team">
      <header className="home-header">
        <h1>Team of {projectId}</h1>
        <a
          href="/"
          onClick={(event) => {
            event.preventDefault();
            navigate('/');
          }}
        >
          Your canvases
        </a>
      </header>
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}

      <section className="project" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <table className="team-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const self = samePerson(me.person, member);
              return (
                <tr key={memberKey(member)} data-member={member.subject}>
                  <td>
                    <Avatar name={member.display_name ?? member.subject} picture={member.picture_url} />
                    {member.display_name ?? member.subject}
                    {member.display_name && member.display_name !== member.subject ? (
                      <span className="muted"> ({member.subject})</span>
                    ) : null}
                    {self ? <span className="chip">you</span> : null}
                  </td>
                  <td>
                    {isOwner ? (
                      <Select
                        label={`Role of ${member.subject}`}
                        value={member.role}
                        onChange={(next) => void act(() => api.changeRole(projectId, member, next as Role))}
                        options={ROLES.map((option) => ({ value: option, label: option }))}
                      />
                    ) : (
                      member.role
                    )}
                  </td>
                  <td>{when(member.joined_at)}</td>
                  <td>
                    {removing === memberKey(member) ? (
                      <span
                        className="member-confirm"
                        role="group"
                        aria-label={self ? 'Leave the project' : `Remove ${member.subject}`}
                      >
                        {self
                          ? 'Leave this project? You lose access to its canvases.'
                          : `Remove ${member.subject}? They lose access at once.`}{' '}
                        <button
                          type="button"
                          className="button-small button-danger"
                          onClick={() =>
                            void act(async () => {
                              setRemoving(null);
                              await api.removeMember(projectId, member);
                              if (self) navigate('/');
                            })
                          }
                        >
                          {self ? 'Leave now' : 'Remove now'}
                        </button>{' '}
                        <button type="button" className="button-small" onClick={() => setRemoving(null)}>
                          {self ? 'Stay' : 'Keep'}
                        </button>
                      </span>
                    ) : self ? (
                      <button type="button" className="button-small" onClick={() => setRemoving(memberKey(member))}>
                        Leave
                      </button>
                    ) : isOwner ? (
                      <>
                        <button
                          type="button"
                          className="button-small"
                          onClick={() =>
                            void act(async () => setSignInLink(await api.memberSignInLink(projectId, member)))
                          }
                        >
                          Sign-in link for {member.subject}
                        </button>{' '}
                        <button
                          type="button"
                          className="button-small button-danger"
                          onClick={() => setRemoving(memberKey(member))}
                        >
                          Remove {member.subject}
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {signInLink ? (
          <label className="team-link">
            Sign-in link for {signInLink.person.subject} (works once, for a day: send it to them)
            <input type="text" readOnly value={signInLink.url} onFocus={(event) => event.target.select()} />
          </label>
        ) : null}
      </section>

      {isOwner ? (
        <section className="project" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite someone</h2>
          <p className="muted">
            The link works once and for 7 days. Send it to one person: opening it, they choose their name and join.
          </p>
          <div className="team-invite">
            <label>
              Role{' '}
              <Select
                label="Role for the invitation"
                value={inviteRole}
                onChange={(next) => setInviteRole(next as Role)}
                options={ROLES.map((option) => ({ value: option, label: option }))}
              />
            </label>
            <button
              type="button"
              className="button-small button-primary"
              onClick={() =>
                void act(async () => {
                  setIssued(await api.invite(projectId, inviteRole));
                  markFirstStep('invite');
                })
              }
            >
              Create invitation link
            </button>
          </div>
          {issued ? (
            <label className="team-link">
              Invitation link for a {issued.role} (also listed below while it is pending)
              <input type="text" readOnly value={issued.url} onFocus={(event) => event.target.select()} />
            </label>
          ) : null}
          {invites.length > 0 ? (
            <ul className="team-invites">
              {invites.map((invite) => (
                <li key={invite.invite_id} data-invite={invite.invite_id}>
                  <span>
                    {invite.role}, invited by {invite.invited_by.subject} on {when(invite.created_at)}:{' '}
                    {inviteStatus(invite)}
                  </span>
                  {invite.url ? (
                    <input
                      type="text"
                      readOnly
                      className="invite-url"
                      aria-label={`Link of the ${invite.role} invitation of ${when(invite.created_at)}`}
                      value={invite.url}
                      onFocus={(event) => event.target.select()}
                    />
                  ) : null}
                  {!invite.accepted_by && !invite.revoked_at ? (
                    <button
                      type="button"
                      className="button-small"
                      onClick={() => void act(() => api.withdrawInvite(projectId, invite.invite_id))}
                    >
                      Withdraw
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}

      {isOwner && me ? (
        <ProjectAgents
          projectId={projectId}
          canvasList={(me.projects.find((project) => project.project_id === projectId)?.canvases ?? [])
            .map((canvas) => canvas.canvas_id)
            .join('\n')}
        />
      ) : null}

      {isOwner && storage ? (
        <section className="project" aria-labelledby="storage-title">
          <h2 id="storage-title">Storage</h2>
          <p className="muted">
            {storage.quota_bytes === null
              ? `The project's files take ${bytesInWords(storage.used_bytes)}.`
              : `The project's files take ${bytesInWords(storage.used_bytes)} of its ${bytesInWords(storage.quota_bytes)} quota (${Math.floor((storage.used_bytes / storage.quota_bytes) * 100)}%); uploads past it are refused.`}
          </p>
        </section>
      ) : null}

      {isOwner ? <WebhooksPanel projectId={projectId} /> : null}

      {isOwner ? (
        <section className="project" aria-labelledby="audit-title">
          <h2 id="audit-title">Audit log</h2>
          <ul className="team-audit">
            {audit.map((entry, index) => (
              <li key={`${entry.at}-${index}`}>
                <span>
                  <strong>{entry.actor.subject}</strong> {describeEntry(entry)}
                </span>
                <span className="meta">{when(entry.at)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}

/** For owners: every agent working on the project's canvases (chat runs and OAuth connections), and ending any. */
/** `canvasList`: the canvas ids, one per line (a string, so the list is read again only when it changes). */
function ProjectAgents({ projectId, canvasList }: { projectId: string; canvasList: string }) {
  const [rows, setRows] = useState<Array<{
    key: string;
    canvasId: string;
    text: string;
    end: () => Promise<unknown>;
  }> | null>(null);
  const load = useCallback(async () => {
    const found: Array<{ key: string; canvasId: string; text: string; end: () => Promise<unknown> }> = [];
    for (const canvasId of canvasList ? canvasList.split('\n') : []) {
      const address = { projectId, canvasId };
      const [{ chat_runs: runs }, { connections }] = await Promise.all([
        api.chatRuns(address),
        api.connections(address),
      ]);
      for (const run of runs) {
        found.push({
          key: run.agent_run_id,
          canvasId,
          text: `chat run ${run.agent_run_id}, opened by ${run.opened_by?.subject ?? 'an administrator'}${run.can_edit ? ', may edit' : ', reads only'}`,
          end: () => api.endChatRun(address, run.agent_run_id),
        });
      }
      for (const connection of connections) {
        found.push({
          key: connection.grant_id,
          canvasId,
          text: `${connection.client_name} (connected by ${connection.person.subject}; ${connection.scopes.join(', ')}; last used ${connection.last_used_at ? new Date(connection.last_used_at).toLocaleString() : 'never'})`,
          end: () => api.endConnection(connection.grant_id),
        });
      }
    }
    setRows(found);
  }, [projectId, canvasList]);
  useEffect(() => {
    void load().catch(() => setRows([]));
  }, [load]);
  return (
    <section className="project" aria-labelledby="agents-title">
      <h2 id="agents-title">Agents on this project</h2>
      {rows === null ? <p className="muted">Loading…</p> : null}
      {rows?.length === 0 ? <p className="muted">No agent is connected to a canvas of this project.</p> : null}
      <ul className="team-invites">
        {rows?.map((row) => (
          <li key={row.key}>
            <span>
              <strong>{row.canvasId}</strong>: {row.text}
            </span>
            <button type="button" className="button-small" onClick={() => void row.end().then(load)}>
              End
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function memberKey(member: { issuer: string; subject: string }): string {
  return `${member.issuer}|${member.subject}`;
}
