import { randomBytes } from 'node:crypto';
import { CanvasNode, type CanvasRef, type ThreadView } from '../../contract/index.js';
import { canvasThreads } from '../review/review-views.js';
import { AnimaticOptions } from '../../contract/exports.js';
import type { ShareLinkCreateBody, ShareLinkList, ShareLinkView, SharedBoardsView } from '../../contract/exports.js';
import type { AssetSigner } from '../../assets/url-signing.js';
import { boardSource } from '../../exports/board-source.js';
import { CanvasEdge } from '../../contract/index.js';
import { latestPictures } from './exports.js';
import { CanvasError } from '../../shared/errors.js';
import { newId, sha256Hex } from '../../shared/ids.js';
import type { StoredShareLink } from '../../store/share-link-store.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';

/**
 * Share links (docs/deliverables.md, "Share links"): an owner makes a read-only link to one board or
 * every board of a canvas, with an expiry, and revokes it at once. Whoever holds the link sees the boards' shots
 * (numbers, pictures, words) and the downloads the owner chose, and nothing else: no other canvas, no history, no run
 * records, no people. Only a hash of the link's secret is stored; the link itself is in the answer that made it.
 */

export const SHARE_ID_PREFIX = 'share_';

/** The live link a secret names; a revoked or expired one says so, and shows nothing. */
export async function liveLink(store: Store, secret: string, now: number): Promise<StoredShareLink> {
  const link = /^[A-Za-z0-9_-]{16,64}$/.test(secret)
    ? await store.shareLinks.bySecretHash(sha256Hex(secret))
    : undefined;
  if (!link) throw new CanvasError('not_found', 'This share link does not exist.', { reason: 'unknown' });
  if (link.revokedAt !== null)
    throw new CanvasError('not_found', 'This share link was revoked by its owner.', { reason: 'revoked' });
  if (link.expiresAt <= now)
    throw new CanvasError('not_found', 'This share link has expired: ask its owner for a new one.', {
      reason: 'expired',
    });
  return link;
}

/** The boards a link shows: its one board, or every storyboard of its canvas now. */
export async function boardsShownBy(store: Store, link: StoredShareLink): Promise<string[]> {
  if (link.nodeId) return [link.nodeId];
  const load = await store.layout.loadLayout(link.projectId, link.canvasId);
  return (load?.nodes ?? [])
    .filter((row) => (JSON.parse(row.body) as { type?: unknown }).type === 'storyboardNode')
    .map((row) => row.id);
}

/** What a guest calls a member of the team: never a sign-in subject (often an e-mail address). */
export const MEMBER_NAME_FOR_GUESTS = 'Team member';

/**
 * A thread as a guest sees it: guests by the name they gave, agents by their token's name, members as "Team member"
 * and the assistant as "Assistant", with no identity behind any of them: no issuer or subject, no mentions, no one
 * who resolved it, and a mention of a member in a comment's words shown the same way (docs/security.md, "Guest review
 * links and comments").
 */
export function forGuests(thread: ThreadView): ThreadView {
  return {
    ...thread,
    resolved_by: thread.resolved_by === null ? null : 'a reviewer',
    comments: thread.comments.map((comment) => ({
      ...comment,
      author: {
        ...comment.author,
        name:
          comment.author.kind === 'person'
            ? MEMBER_NAME_FOR_GUESTS
            : comment.author.kind === 'assistant'
              ? 'Assistant'
              : comment.author.name,
        issuer: null,
        subject: null,
      },
      body: withoutMentionedSubjects(comment.body, comment.mentions),
      mentions: [],
    })),
  };
}

function withoutMentionedSubjects(body: string, mentions: readonly string[]): string {
  let words = body;
  // Longest first, so `@ana.k` is replaced whole before `@ana`.
  for (const subject of [...mentions].filter((each) => each !== 'assistant').sort((a, b) => b.length - a.length))
    words = words.split(`@${subject}`).join(`@${MEMBER_NAME_FOR_GUESTS}`);
  return words;
}
const DAY_MS = 86_400_000;

function view(link: StoredShareLink, url: string | null): ShareLinkView {
  return {
    share_id: link.id,
    node_id: link.nodeId,
    downloads: link.downloads,
    review: link.review,
    created_by: link.createdBy,
    created_at: new Date(link.createdAt).toISOString(),
    expires_at: new Date(link.expiresAt).toISOString(),
    revoked_at: link.revokedAt === null ? null : new Date(link.revokedAt).toISOString(),
    url,
  };
}

export function createShareLinkOperations(
  store: Store,
  options: { signer?: AssetSigner; publicOrigin: () => string; clock?: () => number },
) {
  const clock = options.clock ?? Date.now;
  const sign = (assetId: string) => (options.signer ? options.signer.sign(assetId) : `/assets/${assetId}`);

  return {
    async create(ctx: CallerContext, ref: CanvasRef, body: ShareLinkCreateBody): Promise<ShareLinkView> {
      await authorizeProject(store, ctx, ref.projectId, 'owner');
      await requireCanvas(store, ref.projectId, ref.canvasId);
      if (body.node_id) {
        const found = await store.layout.readNode(ref.projectId, ref.canvasId, body.node_id);
        if (found?.node.type !== 'storyboardNode')
          throw new CanvasError('invalid_arguments', `node_id: ${body.node_id} is not a storyboard of this canvas.`, {
            field: 'node_id',
          });
      }
      for (const [index, exportId] of body.downloads.entries()) {
        const job = await store.exports.get(ref.projectId, ref.canvasId, exportId);
        if (job?.status !== 'succeeded')
          throw new CanvasError(
            'invalid_arguments',
            `downloads.${index}: ${exportId} is not a finished export of this canvas.`,
            { field: `downloads.${index}` },
          );
      }
      const secret = randomBytes(24).toString('base64url');
      const person = ctx.principal.kind === 'session' ? ctx.principal.person : ctx.actor;
      const link = await store.shareLinks.create({
        id: newId(SHARE_ID_PREFIX),
        secretHash: sha256Hex(secret),
        projectId: ref.projectId,
        canvasId: ref.canvasId,
        nodeId: body.node_id,
        downloads: body.downloads,
        review: body.review,
        createdBy: person?.subject ?? (ctx.principal.kind === 'session' ? 'someone' : ctx.principal.tokenName),
        expiresAt: clock() + body.expires_in_days * DAY_MS,
      });
      if (ctx.actor)
        await store.team.record({
          projectId: ref.projectId,
          actor: ctx.actor,
          action: 'share_link.create',
          target: link.id,
          details: {
            canvas_id: ref.canvasId,
            node_id: body.node_id,
            review: body.review,
            expires_at: new Date(link.expiresAt).toISOString(),
          },
        });
      return view(link, `${options.publicOrigin()}/share/${secret}`);
    },

    async list(ctx: CallerContext, ref: CanvasRef): Promise<ShareLinkList> {
      await authorizeProject(store, ctx, ref.projectId, 'owner');
      return { links: (await store.shareLinks.list(ref.projectId, ref.canvasId)).map((link) => view(link, null)) };
    },

    async revoke(ctx: CallerContext, ref: CanvasRef, shareId: string): Promise<void> {
      await authorizeProject(store, ctx, ref.projectId, 'owner');
      if (!(await store.shareLinks.revoke(ref.projectId, ref.canvasId, shareId)))
        throw new CanvasError('not_found', `No share link ${shareId} on canvas ${ref.canvasId}.`);
      if (ctx.actor)
        await store.team.record({
          projectId: ref.projectId,
          actor: ctx.actor,
          action: 'share_link.revoke',
          target: shareId,
          details: { canvas_id: ref.canvasId },
        });
    },

    /** The live link a secret names; a revoked or expired one says so (a review link's guests use it too). */
    live: (secret: string) => liveLink(store, secret, clock()),

    /** The boards a link shows now (its guests hear of their review rooms alone). */
    shownBoards: (link: StoredShareLink) => boardsShownBy(store, link),

    /** What a link shows, for anyone holding it; a revoked or expired link says so (and shows nothing). */
    async open(secret: string): Promise<SharedBoardsView> {
      const link = await liveLink(store, secret, clock());
      const load = await store.layout.loadLayout(link.projectId, link.canvasId);
      if (!load) throw new CanvasError('not_found', 'The canvas this link showed is gone.', { reason: 'gone' });
      const nodes = new Map(load.nodes.map((row) => [row.id, CanvasNode.parse(JSON.parse(row.body))]));
      const edges = load.edges.map((row) => CanvasEdge.parse(JSON.parse(row.body)));
      const pictures = await latestPictures(store, { projectId: link.projectId, canvasId: link.canvasId });
      const boards = [...nodes.values()].filter(
        (node) => node.type === 'storyboardNode' && (link.nodeId === null || node.id === link.nodeId),
      );
      const titles = await store.exports.titles(link.projectId, link.canvasId);
      const downloads: SharedBoardsView['downloads'] = [];
      for (const exportId of link.downloads) {
        const job = await store.exports.get(link.projectId, link.canvasId, exportId);
        if (job?.file)
          downloads.push({
            name: job.file.name,
            content_type: job.file.contentType,
            bytes: job.file.bytes,
            url: sign(job.file.assetId),
            node_id: job.nodeId,
            frame_rate:
              job.kind === 'animatic' ? (AnimaticOptions.safeParse(job.options).data?.frame_rate ?? '24') : null,
          });
      }
      // Only this project's pictures: a path to another project's asset in a node's data must not be signed for anyone.
      const ours = new Map<string, boolean>();
      const pictureUrl = async (assetId: string | null): Promise<string | null> => {
        if (!assetId) return null;
        if (!ours.has(assetId)) ours.set(assetId, (await store.assets.getAsset(assetId))?.projectId === link.projectId);
        return ours.get(assetId) ? sign(assetId) : null;
      };
      const shown: SharedBoardsView['boards'] = [];
      for (const board of boards) {
        const source = boardSource(
          { board, nodes, edges, latestPictures: pictures, projectName: '', canvasTitle: '' },
          {},
        );
        const shots: SharedBoardsView['boards'][number]['shots'] = [];
        for (const shot of source.shots)
          shots.push({
            id: shot.id,
            number: shot.number,
            picture_url: await pictureUrl(shot.pictureAssetId),
            caption: shot.caption,
            action: shot.action,
            dialogue: shot.dialogue,
            camera: shot.camera,
            duration_ms: shot.durationMs,
            move: shot.move ?? null,
          });
        shown.push({ title: source.boardTitle, aspect: source.aspect, shots });
      }
      const boardIds = boards.map((board) => board.id);
      return {
        title: titles.canvas,
        expires_at: new Date(link.expiresAt).toISOString(),
        downloads,
        boards: shown,
        review: link.review,
        board_node_ids: boardIds,
        threads:
          link.review === 'none' || boardIds.length === 0
            ? []
            : (await canvasThreads(store, link, { nodeIds: boardIds }))
                // The team's own threads never leave the team: guests see the client's alone.
                .filter((thread) => thread.audience === 'client')
                .map(forGuests),
      };
    },
  };
}

export type ShareLinkOperations = ReturnType<typeof createShareLinkOperations>;
