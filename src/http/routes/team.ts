import type { Hono } from 'hono';
import { z } from 'zod';
import {
  AuditList,
  CanvasChangeBody,
  CanvasCreateBody,
  CanvasDuplicateBody,
  CanvasView,
  DeleteConfirmBody,
  InviteCreateBody,
  InviteList,
  InviteView,
  IssuedInvite,
  MemberList,
  MemberSignInLink,
  MemberView,
  ProjectChangeBody,
  ProjectCreateBody,
  ProjectStorageView,
  ResourceId,
  RetiredView,
  RoleChangeBody,
} from '../../contract/index.js';
import { memberOf, type TeamOperations } from '../../backend/team/team-operations.js';
import type { AuthRouteOptions } from './auth.js';
import { registerInvitePages, type InvitePageOptions } from './invite.js';
import type { BackendHttpEnv } from '../http-env.js';
import { apiRoute, handle } from '../route-declaration.js';
import { canvasParams, ok, PROJECT, projectParams } from '../route-parameters.js';

/**
 * A project's team over HTTP (docs/api.md): members, invitations, canvases, the audit log; the page an
 * invitation link opens is in invite.ts.
 */

const MEMBER = `${PROJECT}/members/:issuer/:subject`;
const NonEmpty = z.string().min(1).max(500);
const memberParams = projectParams.extend({
  issuer: NonEmpty.meta({ description: "The member's issuer (percent-encoded)." }),
  subject: NonEmpty.meta({ description: "The member's subject (percent-encoded)." }),
});
const ProjectView = z.object({ project_id: z.string(), title: z.string().nullable() });

const MEMBERS = apiRoute({
  method: 'get',
  path: `${PROJECT}/members`,
  operationId: 'listMembers',
  summary: "The project's members and their roles (any member).",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  responses: { 200: ok('The members.', MemberList) },
});

const CHANGE_ROLE = apiRoute({
  method: 'patch',
  path: MEMBER,
  operationId: 'changeMemberRole',
  summary: "Change a member's role (owners; the last owner cannot be demoted).",
  tag: 'people',
  auth: 'caller',
  params: memberParams,
  body: RoleChangeBody,
  responses: { 200: ok('The member as now.', MemberView) },
});

const REMOVE_MEMBER = apiRoute({
  method: 'delete',
  path: MEMBER,
  operationId: 'removeMember',
  summary:
    'Remove a member (owners), or leave (the member); their access to the project stops at once, an open feed included. The last owner cannot leave.',
  tag: 'people',
  auth: 'caller',
  params: memberParams,
  responses: { 204: { description: 'Removed.' } },
});

const MEMBER_SIGN_IN_LINK = apiRoute({
  method: 'post',
  path: `${MEMBER}/sign-in-link`,
  operationId: 'memberSignInLink',
  summary:
    'A one-time sign-in link for a member whose session ended (owners): copy it to them; it works once, for a day, and is in the audit log.',
  tag: 'people',
  auth: 'caller',
  params: memberParams,
  responses: { 201: ok('The link.', MemberSignInLink) },
});

const INVITE = apiRoute({
  method: 'post',
  path: `${PROJECT}/invites`,
  operationId: 'invite',
  summary: 'Invite someone by link, with a role (owners). The link is in the answer, once; it works once and expires.',
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  body: InviteCreateBody,
  responses: { 201: ok('The invitation and its link.', IssuedInvite) },
});

const INVITES = apiRoute({
  method: 'get',
  path: `${PROJECT}/invites`,
  operationId: 'listInvites',
  summary: "The project's invitations, newest first: who invited whom, accepted, withdrawn (owners).",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  responses: { 200: ok('The invitations.', InviteList) },
});

const WITHDRAW_INVITE = apiRoute({
  method: 'delete',
  path: `${PROJECT}/invites/:invite_id`,
  operationId: 'withdrawInvite',
  summary: 'Withdraw an invitation not yet accepted (owners).',
  tag: 'people',
  auth: 'caller',
  params: projectParams.extend({ invite_id: ResourceId }),
  responses: { 200: ok('The invitation as now.', InviteView) },
});

const AUDIT = apiRoute({
  method: 'get',
  path: `${PROJECT}/audit`,
  operationId: 'readAuditLog',
  summary: "Every change to the project's team and canvases, newest first (owners).",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
  responses: { 200: ok('The entries.', AuditList) },
});

const STORAGE = apiRoute({
  method: 'get',
  path: `${PROJECT}/storage`,
  operationId: 'readProjectStorage',
  summary: "What the project's assets take in all, and its storage quota (owners): uploads past the quota are refused.",
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  responses: { 200: ok('Used and quota, in bytes.', ProjectStorageView) },
});

const CREATE_CANVAS = apiRoute({
  method: 'post',
  path: `${PROJECT}/canvases`,
  operationId: 'createCanvas',
  summary: 'Create a canvas (owners).',
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  body: CanvasCreateBody,
  responses: { 201: ok('Created.', CanvasView) },
});

const CHANGE_CANVAS = apiRoute({
  method: 'patch',
  path: `${PROJECT}/canvases/:canvas_id`,
  operationId: 'changeCanvas',
  summary: 'Lock or unlock a canvas (a locked canvas refuses every layout write), or rename it (its id stays); owners.',
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  body: CanvasChangeBody,
  responses: { 200: ok('The canvas as now.', CanvasView) },
});

const DELETE_CANVAS = apiRoute({
  method: 'delete',
  path: `${PROJECT}/canvases/:canvas_id`,
  operationId: 'deleteCanvas',
  summary:
    'Delete a canvas (owners; its id typed again in `confirm`): gone at once for everyone, its active runs cancelled, recorded.',
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  body: DeleteConfirmBody,
  responses: { 200: ok('Deleted.', RetiredView) },
});

const DUPLICATE_CANVAS = apiRoute({
  method: 'post',
  path: `${PROJECT}/canvases/:canvas_id/duplicate`,
  operationId: 'duplicateCanvas',
  summary:
    "Copy a canvas into a new canvas (owners): its layout, and with with_results each node's latest succeeded result (its outputs copied as new assets).",
  tag: 'people',
  auth: 'caller',
  params: canvasParams,
  body: CanvasDuplicateBody,
  responses: { 201: ok('The copy.', CanvasView) },
});

const CREATE_PROJECT = apiRoute({
  method: 'post',
  path: '/api/v1/projects',
  operationId: 'createProject',
  summary: 'Create a project in a workspace where the caller owns a project; the caller becomes its owner.',
  tag: 'people',
  auth: 'caller',
  body: ProjectCreateBody,
  responses: { 201: ok('Created.', ProjectView) },
});

const RENAME_PROJECT = apiRoute({
  method: 'patch',
  path: PROJECT,
  operationId: 'renameProject',
  summary: 'Rename a project (owners; its id stays).',
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  body: ProjectChangeBody,
  responses: { 200: ok('Renamed.', ProjectView) },
});

const DELETE_PROJECT = apiRoute({
  method: 'delete',
  path: PROJECT,
  operationId: 'deleteProject',
  summary:
    'Delete a project and its canvases (owners; its id typed again in `confirm`): its active runs cancelled, recorded.',
  tag: 'people',
  auth: 'caller',
  params: projectParams,
  body: DeleteConfirmBody,
  responses: { 200: ok('Deleted.', RetiredView) },
});

export const TEAM_ROUTES = [
  MEMBERS,
  CHANGE_ROLE,
  REMOVE_MEMBER,
  MEMBER_SIGN_IN_LINK,
  INVITE,
  INVITES,
  WITHDRAW_INVITE,
  AUDIT,
  STORAGE,
  CREATE_CANVAS,
  CHANGE_CANVAS,
  DELETE_CANVAS,
  DUPLICATE_CANVAS,
  CREATE_PROJECT,
  RENAME_PROJECT,
  DELETE_PROJECT,
];

export function registerTeamRoutes(
  app: Hono<BackendHttpEnv>,
  team: TeamOperations,
  options: AuthRouteOptions & InvitePageOptions,
): void {
  handle(app, MEMBERS, async (c, input) =>
    c.json({ members: await team.members(c.get('caller'), input.params().project_id) }),
  );

  handle(app, CHANGE_ROLE, async (c, input) => {
    const params = input.params();
    const body = await input.body();
    return c.json(
      await team.changeRole(c.get('caller'), params.project_id, memberOf(params.issuer, params.subject), body),
    );
  });

  handle(app, REMOVE_MEMBER, async (c, input) => {
    const params = input.params();
    await team.removeMember(c.get('caller'), params.project_id, memberOf(params.issuer, params.subject));
    return c.body(null, 204);
  });

  handle(app, MEMBER_SIGN_IN_LINK, async (c, input) => {
    const params = input.params();
    return c.json(
      await team.signInLink(c.get('caller'), params.project_id, memberOf(params.issuer, params.subject)),
      201,
    );
  });

  handle(app, INVITE, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await team.invite(c.get('caller'), project_id, await input.body()), 201);
  });

  handle(app, INVITES, async (c, input) =>
    c.json({ invites: await team.invites(c.get('caller'), input.params().project_id) }),
  );

  handle(app, WITHDRAW_INVITE, async (c, input) => {
    const params = input.params();
    return c.json(await team.revokeInvite(c.get('caller'), params.project_id, params.invite_id));
  });

  handle(app, AUDIT, async (c, input) => {
    const { project_id } = input.params();
    const query = input.query();
    return c.json({ entries: await team.audit(c.get('caller'), project_id, query.limit) });
  });

  handle(app, STORAGE, async (c, input) => c.json(await team.storage(c.get('caller'), input.params().project_id)));

  handle(app, CREATE_CANVAS, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await team.createCanvas(c.get('caller'), project_id, await input.body()), 201);
  });

  handle(app, CHANGE_CANVAS, async (c, input) => {
    const params = input.params();
    return c.json(await team.changeCanvas(c.get('caller'), params.project_id, params.canvas_id, await input.body()));
  });

  handle(app, DELETE_CANVAS, async (c, input) => {
    const params = input.params();
    return c.json(await team.deleteCanvas(c.get('caller'), params.project_id, params.canvas_id, await input.body()));
  });

  handle(app, DUPLICATE_CANVAS, async (c, input) => {
    const params = input.params();
    return c.json(
      await team.duplicateCanvas(c.get('caller'), params.project_id, params.canvas_id, await input.body()),
      201,
    );
  });

  handle(app, CREATE_PROJECT, async (c, input) =>
    c.json(await team.createProject(c.get('caller'), await input.body()), 201),
  );

  handle(app, RENAME_PROJECT, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await team.renameProject(c.get('caller'), project_id, await input.body()));
  });

  handle(app, DELETE_PROJECT, async (c, input) => {
    const { project_id } = input.params();
    return c.json(await team.deleteProject(c.get('caller'), project_id, await input.body()));
  });

  registerInvitePages(app, options);
}
