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
import {
  dataFieldOf,
  dataOf,
  CanvasNode as CanvasNodeSchema,
  Person as PersonSchema,
  REVIEW_STATES,
  samePerson,
} from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { NewNotification, StoredReviewState } from '../../store/review-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import { shotMedia, type ShotMedia } from '../../exports/board-source.js';
import { latestPictures } from '../deliverables/exports.js';
import { nodeLabel } from './threads.js';

/**
 * Review states of boards and shots (docs/review.md, "Approval"): draft, in review, changes
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

type Frame = { id?: unknown; imageUrl?: unknown; sourceNodeId?: unknown };
/** What a shot shows (its picture and clip, wherever they come from: src/exports/board-source.ts, shotMedia). */
export type MediaOf = (frame: Frame) => ShotMedia;

/**
 * Fingerprints are written with their form's prefix: `v2:` covers each shot's fields and the media it shows, its
 * source card's picture included; an approval kept before (no prefix) is checked in the form it was made in, so an
 * upgrade marks nothing changed that was not.
 */
const FINGERPRINT_FORM = 'v2:';

/**
 * What an approval covers: a shot's fields and the picture and clip it shows, or the board's title, aspect and every
 * shot so. Null when it is gone.
 */
export function reviewFingerprint(
  node: CanvasNode | undefined,
  shotId: string | null,
  mediaOf: MediaOf,
  form: 'v1' | 'v2' = 'v2',
): string | null {
  if (!node) return null;
  const frames: Frame[] = dataOf(node, 'storyboardNode')?.frames ?? [];
  const covered = (frame: Frame) => (form === 'v1' ? frame : { frame, shows: mediaOf(frame) });
  const content = shotId
    ? frames.filter((frame) => frame.id === shotId).map(covered)[0]
    : {
        title: dataFieldOf(node, 'title') ?? null,
        aspectRatio: dataFieldOf(node, 'aspectRatio') ?? null,
        frames: frames.map(covered),
      };
  if (content === undefined) return null;
  const hash = createHash('sha256').update(canonical(content)).digest('hex');
  return form === 'v1' ? hash : `${FINGERPRINT_FORM}${hash}`;
}

/** The media every shot of these boards shows, read once: their source cards, and the latest run pictures if needed. */
export async function shotMediaReader(store: Store, ref: CanvasRef, boards: ReadonlyArray<CanvasNode | undefined>) {
  const sources = new Map<string, CanvasNode | undefined>();
  for (const board of boards)
    for (const frame of dataOf(board, 'storyboardNode')?.frames ?? [])
      if (typeof frame.sourceNodeId === 'string' && !sources.has(frame.sourceNodeId))
        sources.set(
          frame.sourceNodeId,
          (await store.layout.readNode(ref.projectId, ref.canvasId, frame.sourceNodeId))?.node,
        );
  const needsRuns = [...sources.values()].some((source) => source && dataFieldOf(source, 'imageUrl') == null);
  const pictures = needsRuns ? await latestPictures(store, ref) : new Map<string, string>();
  const mediaOf: MediaOf = (frame) =>
    shotMedia(
      frame as Parameters<typeof shotMedia>[0],
      typeof frame.sourceNodeId === 'string' ? sources.get(frame.sourceNodeId) : undefined,
      pictures,
    );
  return mediaOf;
}

/** Whether an approval's fingerprint still matches what the board shows, in the form it was made in. */
function stillApproved(
  stored: string | null,
  node: CanvasNode | undefined,
  shotId: string | null,
  mediaOf: MediaOf,
): boolean {
  if (stored === null) return false;
  const form = stored.startsWith(FINGERPRINT_FORM) ? 'v2' : 'v1';
  return stored === reviewFingerprint(node, shotId, mediaOf, form);
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function reviewStateView(state: StoredReviewState, unchanged: boolean): ReviewStateView {
  return {
    node_id: state.node_id,
    shot_id: state.shot_id === '' ? null : state.shot_id,
    state: state.state,
    decided_by: state.decided_by,
    decided_at: iso(state.decided_at),
    approved_revision: state.approved_revision,
    changed_since_approval: state.state === 'approved' && !unchanged,
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
  const mediaOf = await shotMediaReader(store, ref, [...nodes.values()]);
  return states.map((state) => {
    const shotId = state.shot_id === '' ? null : state.shot_id;
    return reviewStateView(state, stillApproved(state.fingerprint, nodes.get(state.node_id), shotId, mediaOf));
  });
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
    const fingerprint = reviewFingerprint(found.node, shotId, await shotMediaReader(store, ref, [found.node]));
    if (fingerprint === null)
      throw new CanvasError('invalid_arguments', `shot_id: ${shotId} is not a shot of ${nodeId}.`, {
        field: 'shot_id',
      });
    return { node: found.node, fingerprint, label: nodeLabel(found.node, shotId) };
  }

  /**
   * An approval names what the person saw: the revision their page showed. If the board, or a card one of the approved
   * shots shows, changed since, they approved something they never saw: refused as a conflict naming what changed.
   */
  async function requireUnchangedSince(
    ref: CanvasRef,
    body: ReviewStateBody,
    board: CanvasNode,
    current: number,
  ): Promise<void> {
    if (body.base_revision === undefined)
      throw new CanvasError(
        'invalid_arguments',
        'base_revision: approving names the canvas revision you saw (layout.revision of your last read).',
        { field: 'base_revision' },
      );
    if (body.base_revision > current)
      throw new CanvasError(
        'invalid_arguments',
        `base_revision: ${body.base_revision} is ahead of the canvas (revision ${current}).`,
        { field: 'base_revision' },
      );
    if (body.base_revision === current) return;
    const frames = (dataOf(board, 'storyboardNode')?.frames ?? []).filter(
      (frame) => body.shot_id === null || frame.id === body.shot_id,
    );
    const covered = [
      board.id,
      ...frames.flatMap((frame) => (typeof frame.sourceNodeId === 'string' ? [frame.sourceNodeId] : [])),
    ];
    const changed = await store.history.nodesChangedSince(ref.projectId, ref.canvasId, body.base_revision, [
      ...new Set(covered),
    ]);
    if (changed.length === 0) return;
    const seen = body.base_revision;
    // Something it covers was written since: still approvable if what the approval covers reads the same as then
    // (another shot of the board was edited, say).
    const then = async (id: string) => {
      if (!changed.includes(id)) return (await store.layout.readNode(ref.projectId, ref.canvasId, id))?.node;
      const stored = await store.history.nodeAt(ref.projectId, ref.canvasId, id, seen);
      const parsed = CanvasNodeSchema.safeParse(stored);
      return parsed.success ? parsed.data : undefined;
    };
    const boardThen = await then(board.id);
    const sourcesThen = new Map<string, CanvasNode | undefined>();
    for (const id of covered.slice(1)) if (!sourcesThen.has(id)) sourcesThen.set(id, await then(id));
    const pictures = await latestPictures(store, ref);
    const mediaThen: MediaOf = (frame) =>
      shotMedia(
        frame as Parameters<typeof shotMedia>[0],
        typeof frame.sourceNodeId === 'string' ? sourcesThen.get(frame.sourceNodeId) : undefined,
        pictures,
      );
    const now = reviewFingerprint(board, body.shot_id, await shotMediaReader(store, ref, [board]));
    if (boardThen !== undefined && reviewFingerprint(boardThen, body.shot_id, mediaThen) === now) return;
    throw new CanvasError(
      'revision_conflict',
      `What you are approving changed after revision ${body.base_revision} (${changed.join(', ')}): look at it again, then approve.`,
      { base_revision: body.base_revision, current_revision: current, changed_node_ids: changed },
    );
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

  /**
   * Keeps the review state of a board or shot with the notifications it sends and the event the canvas's readers hear,
   * then answers it as the canvas now lists it.
   */
  async function keepState(
    ref: CanvasRef,
    target: { node_id: string; shot_id: string | null },
    decision: Pick<StoredReviewState, 'state' | 'fingerprint' | 'approved_revision' | 'requested_by'> & {
      decided_by: string;
    },
    notifications: NewNotification[],
    revision: number,
  ): Promise<ReviewStateView> {
    const { state, fingerprint, approved_revision, decided_by, requested_by } = decision;
    await store.review.setReviewState(
      ref,
      {
        node_id: target.node_id,
        shot_id: target.shot_id ?? '',
        state,
        fingerprint,
        approved_revision,
        decided_by,
        requested_by,
      },
      notifications,
      [
        {
          type: 'review.changed',
          data: { node_id: target.node_id, shot_id: target.shot_id, state, decided_by, revision },
        },
      ],
    );
    hooks.changed(ref);
    hooks.notified(notifications);
    const [view] = (await canvasReviewStates(store, ref)).filter(
      (each) => each.node_id === target.node_id && each.shot_id === target.shot_id,
    );
    return view!;
  }

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
      const { node, fingerprint, label } = await target(ref, body.node_id, body.shot_id);
      const approved = body.state === 'approved';
      if (approved) await requireUnchangedSince(ref, body, node, canvas.revision);
      const shotKey = body.shot_id ?? '';
      const before = (await store.review.reviewStates(ref.projectId, ref.canvasId)).find(
        (state) => state.node_id === body.node_id && state.shot_id === shotKey,
      );
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
      return keepState(
        ref,
        body,
        {
          state: body.state,
          fingerprint: approved ? fingerprint : null,
          approved_revision: approved ? (body.base_revision ?? canvas.revision) : null,
          decided_by: person.subject,
          requested_by: before?.requested_by ?? null,
        },
        notifications,
        canvas.revision,
      );
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
      return keepState(
        ref,
        body,
        {
          state: 'in_review',
          fingerprint: null,
          approved_revision: null,
          decided_by: person.subject,
          requested_by: JSON.stringify(person),
        },
        notifications,
        canvas.revision,
      );
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
