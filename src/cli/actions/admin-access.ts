import { CanvasError } from '../../shared/errors.js';
import type { TokenKind, TokenRole } from '../../store/records.js';
import { report, withStore } from '../cli-support.js';
import type { AdminFlags } from './admin-projects.js';

/** `canvas-mcp admin token …` and `admin chat-run …`: what may reach the server, and for whom it acts. */

export type TokenFlags = AdminFlags & {
  name: string;
  project: string[];
  workspace: string[];
  role: TokenRole;
  kind: TokenKind;
  actorIssuer?: string;
  actorSubject?: string;
  expiresIn?: number;
};
export type ChatRunFlags = AdminFlags & {
  token?: string;
  issuer?: string;
  subject?: string;
  edit?: boolean;
  expiresIn?: number;
};

function actorFrom(issuer: string | undefined, subject: string | undefined, flag = '--issuer/--subject') {
  if ((issuer === undefined) !== (subject === undefined)) {
    throw new CanvasError('invalid_arguments', `${flag}: give both or neither.`);
  }
  return issuer !== undefined && subject !== undefined ? { issuer, subject } : null;
}

export function createToken(flags: TokenFlags): Promise<void> {
  return withStore(flags, async (store) => {
    const actor = actorFrom(flags.actorIssuer, flags.actorSubject, '--actor-issuer/--actor-subject');
    // A gateway's own scope bounds every request it forwards: without one it would answer forbidden to all.
    if (flags.kind === 'gateway' && flags.project.length === 0 && flags.workspace.length === 0) {
      throw new CanvasError(
        'invalid_arguments',
        'A gateway token serves only the projects it is permitted on: give --workspace W (or --project P), repeatable.',
        {
          issues: [{ path: '--workspace', message: 'a gateway token needs at least one --workspace or --project' }],
        },
      );
    }
    const expiresAt = flags.expiresIn ? Date.now() + flags.expiresIn * 1000 : null;
    const { tokenId, secret } = await store.tokens.createToken({
      name: flags.name,
      kind: flags.kind,
      role: flags.role,
      projects: flags.project,
      workspaces: flags.workspace,
      actor,
      expiresAt,
    });
    report(
      flags.json,
      { token_id: tokenId, token: secret },
      `token ${tokenId} (${flags.kind}, ${flags.role}) created. It is shown only now:\n${secret}`,
    );
  });
}

export function revokeToken(tokenId: string, flags: AdminFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await store.tokens.revokeToken(tokenId);
    report(flags.json, { token_id: tokenId, revoked: true }, `token ${tokenId} revoked`);
  });
}

export function createChatRun(projectId: string, canvasId: string, flags: ChatRunFlags): Promise<void> {
  return withStore(flags, async (store) => {
    const actor = actorFrom(flags.issuer, flags.subject);
    if (!flags.token && !actor) {
      throw new CanvasError(
        'invalid_arguments',
        'A chat run is bound to its presenter: give --token TOKEN_ID (the agent token that will send it) and/or --issuer/--subject.',
      );
    }
    const agentRunId = await store.chatRuns.createChatRun({
      projectId,
      canvasId,
      actor,
      tokenId: flags.token ?? null,
      canEdit: !!flags.edit,
      expiresAt: flags.expiresIn ? Date.now() + flags.expiresIn * 1000 : null,
    });
    report(
      flags.json,
      { agent_run_id: agentRunId },
      `chat run ${agentRunId} created${flags.edit ? ' with edit authorization' : ''}`,
    );
  });
}

export function endChatRun(agentRunId: string, flags: AdminFlags): Promise<void> {
  return withStore(flags, async (store) => {
    await store.chatRuns.endChatRun(agentRunId);
    report(flags.json, { agent_run_id: agentRunId, ended: true }, `chat run ${agentRunId} ended`);
  });
}
