import { createHash } from 'node:crypto';
import { samePerson } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { OAUTH_SCOPES, type OAuthGrantRecord, type OAuthScope } from '../store/oauth-grants.js';
import type { Actor } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { AuthorizationServer, InteractionView } from './authorization-server.js';

/**
 * What a person's consent makes (docs/security.md, "Connectors"): a grant for one canvas that acts
 * through an agent token issued by that person (never shown; its role is what the grant allows, and on every request
 * it is capped by the person's membership then) and, when the grant may edit, a chat run bound to that token holding
 * the canvas edit authorization. So a connector is an agent like any other: the same permission checks, the same
 * authorship in history and the feed. Ending the grant revokes all three at once.
 */

export const ACCESS_LEVELS = ['read', 'edit', 'runs'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const SCOPES_OF: Record<AccessLevel, OAuthScope[]> = {
  read: ['canvas:read'],
  edit: ['canvas:read', 'canvas:write'],
  runs: ['canvas:read', 'canvas:write', 'runs:write'],
};

const GRANT_LIFETIME_MS = 90 * 86_400_000;

export interface ConsentChoice {
  projectId: string;
  canvasId: string;
  access: AccessLevel;
  /** Credits the runs this grant starts may cost in all; null: the project's budget alone. */
  spendLimit: number | null;
}

/** The account oidc-provider records for a person (an opaque, stable id). */
export function accountIdOf(person: Actor): string {
  return `person_${createHash('sha256').update(`${person.issuer}\u0000${person.subject}`).digest('base64url').slice(0, 32)}`;
}

/** The access levels a client may be given: those its requested scopes allow (all, when it asked for none of ours). */
export function offeredLevels(requestedScopes: readonly string[]): AccessLevel[] {
  const ours = requestedScopes.filter((scope) => (OAUTH_SCOPES as readonly string[]).includes(scope));
  if (ours.length === 0) return [...ACCESS_LEVELS];
  return ACCESS_LEVELS.filter((level) => SCOPES_OF[level].every((scope) => ours.includes(scope)));
}

export function createConnectorGrants(options: { store: Store; server: AuthorizationServer; clock?: () => number }) {
  const { store, server } = options;
  const clock = options.clock ?? Date.now;

  /** Ends a grant: its tokens stop at once (the next call is 401), its agent token is revoked, its chat run ends. */
  async function end(grant: OAuthGrantRecord): Promise<void> {
    await store.grants.end(grant.grantId);
    await server.revokeGrant(grant.grantId);
    await store.tokens.revokeToken(grant.tokenId).catch(() => undefined);
    if (grant.chatRunId) await store.chatRuns.endChatRun(grant.chatRunId).catch(() => undefined);
  }

  return {
    /** Makes the grant a person approved; answers the oidc-provider grant id to finish the interaction with. */
    async approve(person: Actor, interaction: InteractionView, choice: ConsentChoice): Promise<string> {
      const role = await store.projects.getMemberRole(choice.projectId, person);
      if (!role) throw new CanvasError('forbidden', `You are not a member of project ${choice.projectId}.`);
      const canvas = await store.layout.readCanvas(choice.projectId, choice.canvasId);
      if (!canvas) throw new CanvasError('not_found', `No canvas ${choice.canvasId} in project ${choice.projectId}.`);
      if (!offeredLevels(interaction.requestedScopes).includes(choice.access)) {
        throw new CanvasError(
          'invalid_arguments',
          `${interaction.clientName ?? interaction.clientId} did not ask for that access.`,
        );
      }
      const edits = choice.access !== 'read';
      if (edits && role === 'viewer') {
        throw new CanvasError(
          'forbidden',
          `You are a viewer of project ${choice.projectId}: you can let ${interaction.clientName ?? 'this app'} read only.`,
        );
      }
      const expiresAt = clock() + GRANT_LIFETIME_MS;
      const name = `${(interaction.clientName ?? 'OAuth client').slice(0, 60)} (connector)`;
      const { tokenId } = await store.tokens.createToken({
        name,
        kind: 'agent',
        role: edits ? 'editor' : 'viewer',
        projects: [choice.projectId],
        workspaces: [],
        actor: null,
        expiresAt,
        issuedBy: person,
        purpose: 'connector',
      });
      const chatRunId = edits
        ? await store.chatRuns.createChatRun({
            projectId: choice.projectId,
            canvasId: choice.canvasId,
            actor: null,
            tokenId,
            openedBy: person,
            canEdit: true,
            expiresAt,
          })
        : null;
      const scopes = SCOPES_OF[choice.access];
      const grantId = await server.saveGrant(
        accountIdOf(person),
        interaction.clientId,
        scopes,
        interaction.requestedScopes,
        interaction.grantId ?? undefined,
      );
      await store.grants.create({
        grantId,
        clientId: interaction.clientId,
        clientName: interaction.clientName,
        projectId: choice.projectId,
        canvasId: choice.canvasId,
        person,
        scopes,
        tokenId,
        chatRunId,
        spendLimit: choice.access === 'runs' ? choice.spendLimit : 0,
      });
      // A host that signs in again (claude.ai after its tokens lapsed) replaces its earlier connection of this person
      // on this canvas, rather than leaving a second one listed: the earlier one ends.
      for (const earlier of await store.grants.onCanvas(choice.projectId, choice.canvasId)) {
        const sameHost =
          earlier.clientId === interaction.clientId ||
          (interaction.clientName !== null && earlier.clientName === interaction.clientName);
        if (earlier.grantId !== grantId && earlier.endedAt === null && samePerson(earlier.person, person) && sameHost)
          await end(earlier);
      }
      return grantId;
    },

    end,
  };
}

export type ConnectorGrants = ReturnType<typeof createConnectorGrants>;
