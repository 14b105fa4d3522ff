import type {
  ChatRunOpenBody,
  ChatRunView,
  HistoryPage,
  IssuedToken,
  MeView,
  TokenIssueBody,
  TokenView,
  CanvasRef,
} from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import type { Actor, ChatRunRecord, TokenRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, projectRole, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { reachableProjects } from './reachable-projects.js';
import { INVITED_ISSUER_PREFIX, pictureUrlOf, samePerson } from '../../contract/index.js';
import { personKeyOf } from '../../store/people-name-store.js';

/**
 * What people do through the API besides editing (docs/api.md): open and end the chat runs their agents present,
 * issue agent tokens (owners), read the history, and see which projects they can open.
 */

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString());

/** The person a request acts for: a signed-in person, or a backend token issued for one; null for a bare token. */
export function personOf(ctx: CallerContext): Actor | null {
  if (ctx.principal.kind === 'session') return ctx.principal.person;
  return ctx.principal.kind === 'backend' ? ctx.actor : null;
}

export function requirePerson(ctx: CallerContext, what: string): Actor {
  const person = personOf(ctx);
  if (!person)
    throw new CanvasError(
      'forbidden',
      `Only a person can ${what}: sign in, or use a backend token issued for a person.`,
    );
  return person;
}

export function chatRunView(run: ChatRunRecord): ChatRunView {
  return {
    agent_run_id: run.id,
    project_id: run.projectId,
    canvas_id: run.canvasId,
    can_edit: run.canEdit,
    token_id: run.tokenId,
    acts_for: run.actor,
    opened_by: run.openedBy,
    created_at: iso(run.createdAt)!,
    expires_at: iso(run.expiresAt),
  };
}

export function tokenView(token: TokenRecord): TokenView {
  return {
    token_id: token.id,
    name: token.name,
    kind: token.kind,
    role: token.role,
    projects: token.projects,
    workspaces: token.workspaces,
    issued_by: token.issuedBy,
    created_at: iso(token.createdAt)!,
    expires_at: iso(token.expiresAt),
    revoked_at: iso(token.revokedAt),
    tool_sets: [...token.toolSets],
  };
}

/**
 * People see and revoke through the API only the agent tokens people issued there, never an administrator's
 * (docs/security.md, "What people grant to agents").
 */
const issuedByAPerson = (token: TokenRecord) => token.kind === 'agent' && token.issuedBy !== null;

export function createPeopleOperations(store: Store, clock: () => number) {
  /**
   * What a signed-in person sees of themselves: their address, their name, and whether to ask them for one (a person
   * who joined by invitation named themselves then; anyone else's subject is an id: the first owner's, a single
   * sign-on provider's).
   */
  async function ownFacts(person: Actor) {
    const name = await store.names.nameOf(person);
    const picture = (await store.pictures.pictureIdsOf([person])).get(personKeyOf(person));
    return {
      picture_url: picture === undefined ? null : pictureUrlOf(picture),
      email: await store.emails.emailOf(person),
      display_name: name,
      needs_name: name === null && !person.issuer.startsWith(INVITED_ISSUER_PREFIX),
    };
  }

  return {
    /**
     * Opens a chat run for the caller's agent: bound to the given agent token (which then alone may present it), or
     * without one to the person (a token acting for them presents it). Editors and owners only.
     */
    async openChatRun(ctx: CallerContext, ref: CanvasRef, body: ChatRunOpenBody): Promise<ChatRunView> {
      const person = requirePerson(ctx, 'open a chat run');
      const role = await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      if (body.token_id !== undefined) {
        const token = await store.tokens.getToken(body.token_id);
        const usable =
          token &&
          token.kind === 'agent' &&
          token.revokedAt === null &&
          (token.expiresAt === null || token.expiresAt > clock());
        if (!usable || !token.projects.includes(ref.projectId)) {
          throw new CanvasError(
            'invalid_arguments',
            'token_id must name an active agent token permitted on this project.',
            {
              issues: [{ path: 'token_id', message: 'names no active agent token of this project' }],
            },
          );
        }
        if (role !== 'owner' && !samePerson(token.issuedBy, person)) {
          throw new CanvasError(
            'forbidden',
            'Only the person who issued that token, or a project owner, may bind a chat run to it.',
          );
        }
      }
      const id = await store.chatRuns.createChatRun({
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        actor: body.token_id === undefined ? person : null,
        tokenId: body.token_id ?? null,
        openedBy: person,
        canEdit: body.edit,
        expiresAt: clock() + body.expires_in * 1000,
      });
      return chatRunView((await store.chatRuns.getChatRun(id))!);
    },

    async listChatRuns(ctx: CallerContext, ref: CanvasRef): Promise<ChatRunView[]> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      return (await store.directory.activeChatRuns(ref.projectId, ref.canvasId)).map(chatRunView);
    },

    /** Ends a chat run: the person who opened it, or an owner of the project. */
    async endChatRun(
      ctx: CallerContext,
      ref: { projectId: string; canvasId: string; chatRunId: string },
    ): Promise<ChatRunView> {
      const person = requirePerson(ctx, 'end a chat run');
      const role = await authorizeProject(store, ctx, ref.projectId, 'editor');
      const run = await store.chatRuns.getChatRun(ref.chatRunId);
      if (!run || run.projectId !== ref.projectId || run.canvasId !== ref.canvasId) {
        throw new CanvasError('not_found', `No chat run ${ref.chatRunId} on canvas ${ref.canvasId}.`);
      }
      if (role !== 'owner' && !samePerson(run.openedBy, person)) {
        throw new CanvasError('forbidden', 'Only the person who opened this chat run, or a project owner, may end it.');
      }
      await store.chatRuns.endChatRun(run.id);
      return chatRunView((await store.chatRuns.getChatRun(run.id))!);
    },

    /** Issues an agent token for one project (owners only); the secret is in this answer only. */
    async issueToken(ctx: CallerContext, body: TokenIssueBody): Promise<IssuedToken> {
      const person = requirePerson(ctx, 'issue a token');
      await authorizeProject(store, ctx, body.project_id, 'owner');
      const { tokenId, secret } = await store.tokens.createToken({
        name: body.name,
        kind: 'agent',
        role: body.role,
        projects: [body.project_id],
        workspaces: [],
        actor: null,
        expiresAt: clock() + body.expires_in * 1000,
        issuedBy: person,
        toolSets: body.tool_sets,
      });
      return { ...tokenView((await store.tokens.getToken(tokenId))!), token: secret };
    },

    async listTokens(ctx: CallerContext, projectId: string): Promise<TokenView[]> {
      requirePerson(ctx, 'list tokens');
      await authorizeProject(store, ctx, projectId, 'owner');
      // Only what people issued: an administrator's tokens (gateways, backends, agents) are managed with the CLI.
      return (await store.directory.tokens(projectId)).filter(issuedByAPerson).map(tokenView);
    },

    /** Revokes an agent token a person issued: the caller's own, or one of a project the caller owns. */
    async revokeToken(ctx: CallerContext, tokenId: string): Promise<TokenView> {
      const person = requirePerson(ctx, 'revoke a token');
      const token = await store.tokens.getToken(tokenId);
      if (!token) throw new CanvasError('not_found', `No token ${tokenId}.`);
      if (!issuedByAPerson(token)) {
        throw new CanvasError(
          'forbidden',
          `Token ${tokenId} was issued by an administrator: only an administrator revokes it (admin token revoke).`,
        );
      }
      if (!samePerson(token.issuedBy, person)) {
        const roles = await Promise.all(
          token.projects.map((projectId) => projectRole(store, ctx, projectId).catch(() => null)),
        );
        if (token.projects.length === 0 || roles.some((role) => role !== 'owner')) {
          throw new CanvasError(
            'forbidden',
            'Only the person who issued this token, or an owner of every project it reaches, may revoke it.',
          );
        }
      }
      await store.tokens.revokeToken(tokenId);
      return tokenView((await store.tokens.getToken(tokenId))!);
    },

    async history(
      ctx: CallerContext,
      ref: CanvasRef,
      query: { before?: number; limit: number; shots?: boolean },
    ): Promise<HistoryPage> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      const canvas = await requireCanvas(store, ref.projectId, ref.canvasId);
      const before = query.before ?? canvas.revision + 1;
      const listed = await store.history.history(ref.projectId, ref.canvasId, before, query.limit);
      const revisions = query.shots ? await store.history.shotChanges(ref.projectId, ref.canvasId, listed) : listed;
      const oldest = revisions.at(-1)?.revision ?? null;
      return {
        revisions,
        next_before: oldest !== null && oldest > 1 && revisions.length === query.limit ? oldest : null,
      };
    },

    /** Who the caller is, and the projects (with their canvases) it can open. */
    async me(ctx: CallerContext): Promise<MeView> {
      const person = personOf(ctx);
      const projects = await reachableProjects(store, ctx);
      return {
        kind: person && ctx.principal.kind === 'session' ? 'person' : 'token',
        person,
        token_id: ctx.principal.kind === 'session' ? null : ctx.principal.tokenId,
        projects,
        ...(ctx.principal.kind === 'session' ? await ownFacts(ctx.principal.person) : {}),
      };
    },

    /** The name the signed-in person is shown by, chosen by themselves. */
    async setName(ctx: CallerContext, name: string): Promise<{ display_name: string }> {
      if (ctx.principal.kind !== 'session')
        throw new CanvasError('forbidden', 'Only a signed-in person sets their own name.');
      await store.names.setName(ctx.principal.person, name);
      return { display_name: name };
    },

    /** The signed-in person's address for e-mailed sign-in links: their own only, or null to forget it. */
    async setEmail(ctx: CallerContext, email: string | null): Promise<{ email: string | null }> {
      if (ctx.principal.kind !== 'session')
        throw new CanvasError('forbidden', 'Only a signed-in person sets their e-mail address.');
      await store.emails.setEmail(ctx.principal.person, email);
      return { email: email === null ? null : email.toLowerCase() };
    },
  };
}

export type PeopleOperations = ReturnType<typeof createPeopleOperations>;
