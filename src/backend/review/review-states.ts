import { createHash } from 'node:crypto';
import type {
  CanvasNode,
  CanvasRef,
  Person,
  ReviewRequestBody,
  ReviewStateBody,
  ReviewStateList,
  ReviewStateView,
} from '../../contract/index.js';
import { Person as PersonSchema, REVIEW_STATES, samePerson } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { NewNotification, StoredReviewState } from '../../store/review-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { nodeLabel } from './threads.js';

/**
 * Review states of boards and shots (issue 33, item 3; docs/review.md, "Approval"): draft, in review, changes
 * requested, approved. Only a signed-in person sets one (owners; editors when an owner allows): no token, agent or
 * backend credential is accepted, whatever its role. Approving keeps a fingerprint of what was approved (the shot's
 * fields and picture, or the board's), so a later change shows as "changed since approval" instead of the approval
 * silently covering something nobody approved.
 */

/** JSON with its keys in order, so the same content always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** What an approval covers: a shot's frame, or the board's title, aspect and every shot. Null when it is gone. */
export function reviewFingerprint(node: CanvasNode | undefined, shotId: string | null): string | null {
  if (!node) return null;
  const data = node.data as { frames?: Array<{ id?: unknown }>; title?: unknown; aspectRatio?: unknown };
  const content = shotId
    ? (Array.isArray(data.frames) ? data.frames : []).find((frame) => frame.id === shotId)
    : { title: data.title ?? null, aspectRatio: data.aspectRatio ?? null, frames: data.frames ?? [] };
  if (content === undefined) return null;
  return createHash('sha256').update(canonical(content)).digest('hex');
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function reviewStateView(state: StoredReviewState, current: string | null): ReviewStateView {
  return {
    node_id: state.node_id,
    shot_id: state.shot_id === '' ? null : state.shot_id,
    state: state.state,
    decided_by: state.decided_by,
    decided_at: iso(state.decided_at),
    approved_revision: state.approved_revision,
    changed_since_approval: state.state === 'approved' && state.fingerprint !== current,
  };
}

/** Every review state of a canvas, each checked against the layout as it is now. */
export async function canvasReviewStates(store: Store, ref: CanvasRef): Promise<ReviewStateView[]> {
  const states = await store.review.reviewStates(ref.projectId, ref.canvasId);
  if (states.length === 0) return [];
  const nodes = new Map<string, CanvasNode | undefined>();
  for (const state of states)
    if (!nodes.has(state.node_id))
      nodes.set(state.node_id, (await store.layout.readNode(ref.projectId, ref.canvasId, state.node_id))?.node);
  return states.map((state) =>
    reviewStateView(state, reviewFingerprint(nodes.get(state.node_id), state.shot_id === '' ? null : state.shot_id)),
  );
}

export function createReviewStateOperations(
  store: Store,
  hooks: { notified(notes: readonly NewNotification[]): void; changed(ref: CanvasRef): void },
) {
  /** Only people: a session. Tokens of every kind, the assistant's included, are refused by name. */
  function requirePerson(ctx: CallerContext, what: string): Person {
    if (ctx.principal.kind !== 'session')
      throw new CanvasError(
        'forbidden',
        `Only a signed-in person ${what}: agents, the assistant and tokens never do (docs/review.md, "Approval").`,
      );
    return ctx.principal.person;
  }

  async function mayDecide(projectId: string, person: Person): Promise<boolean> {
    const role = await store.projects.getMemberRole(projectId, person);
    return role === 'owner' || (role === 'editor' && (await store.review.editorsApprove(projectId)));
  }

  async function target(ref: CanvasRef, nodeId: string, shotId: string | null) {
    const found = await store.layout.readNode(ref.projectId, ref.canvasId, nodeId);
    if (!found)
      throw new CanvasError('not_found', `node_id: there is no node ${nodeId} on this canvas.`, { field: 'node_id' });
    if (found.node.type !== 'storyboardNode')
      throw new CanvasError(
        'invalid_arguments',
        `node_id: ${nodeId} is a ${found.node.type}; boards and their shots are reviewed.`,
        {
          field: 'node_id',
        },
      );
    const fingerprint = reviewFingerprint(found.node, shotId);
    if (fingerprint === null)
      throw new CanvasError('invalid_arguments', `shot_id: ${shotId} is not a shot of ${nodeId}.`, {
        field: 'shot_id',
      });
    return { node: found.node, fingerprint, label: nodeLabel(found.node, shotId) };
  }

  const note = (
    recipient: Person,
    ref: CanvasRef,
    kind: 'approval_request' | 'approval_decision',
    body: { node_id: string; shot_id: string | null },
    from: string,
    summary: string,
  ): NewNotification => ({
    id: newId('note_'),
    recipient,
    projectId: ref.projectId,
    canvasId: ref.canvasId,
    kind,
    threadId: null,
    nodeId: body.node_id,
    shotId: body.shot_id,
    fromName: from,
    summary,
  });

  return {
    async list(ctx: CallerContext, ref: CanvasRef): Promise<ReviewStateList> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      return {
        states: await canvasReviewStates(store, ref),
        editors_approve: await store.review.editorsApprove(ref.projectId),
      };
    },

    /** A person's decision; approving records who, when, the revision and what was approved. */
    async set(ctx: CallerContext, ref: CanvasRef, body: ReviewStateBody): Promise<ReviewStateView> {
      const person = requirePerson(ctx, 'sets a review state');
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      if (!(await mayDecide(ref.projectId, person)))
        throw new CanvasError(
          'forbidden',
          'Only an owner of the project sets review states (editors too when an owner allows it in the review settings).',
        );
      const canvas = await requireCanvas(store, ref.projectId, ref.canvasId);
      const { fingerprint, label } = await target(ref, body.node_id, body.shot_id);
      const shotKey = body.shot_id ?? '';
      const before = (await store.review.reviewStates(ref.projectId, ref.canvasId)).find(
        (state) => state.node_id === body.node_id && state.shot_id === shotKey,
      );
      const approved = body.state === 'approved';
      const requester = before?.requested_by ? PersonSchema.parse(JSON.parse(before.requested_by)) : null;
      const decision = body.state === 'approved' || body.state === 'changes_requested';
      const notifications =
        decision && requester && !samePerson(requester, person)
          ? [
              note(
                requester,
                ref,
                'approval_decision',
                body,
                person.subject,
                `${person.subject} set ${label} to ${REVIEW_STATES[body.state]}.`,
              ),
            ]
          : [];
      await store.review.setReviewState(
        ref,
        {
          node_id: body.node_id,
          shot_id: shotKey,
          state: body.state,
          fingerprint: approved ? fingerprint : null,
          approved_revision: approved ? canvas.revision : null,
          decided_by: person.subject,
          requested_by: before?.requested_by ?? null,
        },
        notifications,
        [
          {
            type: 'review.changed',
            data: {
              node_id: body.node_id,
              shot_id: body.shot_id,
              state: body.state,
              decided_by: person.subject,
              revision: canvas.revision,
            },
          },
        ],
      );
      hooks.changed(ref);
      hooks.notified(notifications);
      const [view] = (await canvasReviewStates(store, ref)).filter(
        (state) => state.node_id === body.node_id && state.shot_id === body.shot_id,
      );
      return view!;
    },

    /** "Request approval": the board or shot goes in review, and the chosen approvers are told. */
    async request(ctx: CallerContext, ref: CanvasRef, body: ReviewRequestBody): Promise<ReviewStateView> {
      const person = requirePerson(ctx, 'asks for an approval');
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      const canvas = await requireCanvas(store, ref.projectId, ref.canvasId);
      const { label } = await target(ref, body.node_id, body.shot_id);
      const members = await store.team.members(ref.projectId);
      const approvers: Person[] = [];
      for (const [index, subject] of body.approvers.entries()) {
        const member = members.find((each) => each.person.subject === subject);
        if (!member || !(await mayDecide(ref.projectId, member.person)))
          throw new CanvasError(
            'invalid_arguments',
            `approvers.${index}: ${subject} ${member ? 'may not approve in this project (owners may; editors when an owner allows)' : 'is not a member of this project'}.`,
            { field: `approvers.${index}` },
          );
        approvers.push(member.person);
      }
      const summary = `${person.subject} asks you to approve ${label}${body.note ? `: ${body.note}` : '.'}`;
      const notifications = approvers
        .filter((approver) => !samePerson(approver, person))
        .map((approver) => note(approver, ref, 'approval_request', body, person.subject, summary));
      await store.review.setReviewState(
        ref,
        {
          node_id: body.node_id,
          shot_id: body.shot_id ?? '',
          state: 'in_review',
          fingerprint: null,
          approved_revision: null,
          decided_by: person.subject,
          requested_by: JSON.stringify(person),
        },
        notifications,
        [
          {
            type: 'review.changed',
            data: {
              node_id: body.node_id,
              shot_id: body.shot_id,
              state: 'in_review',
              decided_by: person.subject,
              revision: canvas.revision,
            },
          },
        ],
      );
      hooks.changed(ref);
      hooks.notified(notifications);
      const [view] = (await canvasReviewStates(store, ref)).filter(
        (state) => state.node_id === body.node_id && state.shot_id === body.shot_id,
      );
      return view!;
    },

    /** Owners choose whether editors may set review states too. */
    async setEditorsApprove(
      ctx: CallerContext,
      projectId: string,
      allowed: boolean,
    ): Promise<{ editors_approve: boolean }> {
      requirePerson(ctx, 'changes who approves');
      await authorizeProject(store, ctx, projectId, 'owner');
      const canvasIds = await store.review.setEditorsApprove(projectId, allowed);
      for (const canvasId of canvasIds) hooks.changed({ projectId, canvasId });
      if (ctx.actor)
        await store.team.record({
          projectId,
          actor: ctx.actor,
          action: 'review.settings',
          target: projectId,
          details: { editors_approve: allowed },
        });
      return { editors_approve: allowed };
    },
  };
}

export type ReviewStateOperations = ReturnType<typeof createReviewStateOperations>;
