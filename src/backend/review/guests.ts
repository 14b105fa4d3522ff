import { randomBytes } from 'node:crypto';
import type { CommentCreateBody, GuestView, ThreadCreateBody, ThreadView } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { newId, sha256Hex } from '../../shared/ids.js';
import type { StoredGuest } from '../../store/review-store.js';
import type { StoredShareLink } from '../../store/share-link-store.js';
import type { Store } from '../../store/store.js';
import { boardsShownBy, forGuests, liveLink } from '../deliverables/share-links.js';
import type { ThreadOperations } from './threads.js';

/**
 * Guests of a review link (docs/security.md, "Guest review links and comments"): whoever holds a link an owner
 * made with `review: comment` gives a name and comments as "Guest: <name>" on the boards the link shows, and edits or
 * deletes their own comments. Nothing else: no edit, run, spend, other canvas, team or history. Their page keeps a
 * guest token (only its hash is stored); a revoked or expired link ends every guest of it at once.
 */

export function createGuestOperations(store: Store, threads: ThreadOperations, clock: () => number = Date.now) {
  async function commentingLink(secret: string): Promise<StoredShareLink> {
    const link = await liveLink(store, secret, clock());
    if (link.review !== 'comment')
      throw new CanvasError('forbidden', 'This link shows the boards; its owner did not open it for comments.', {
        reason: 'read_only',
      });
    return link;
  }

  async function guestOf(link: StoredShareLink, token: string | undefined): Promise<StoredGuest> {
    const guest =
      token && /^[A-Za-z0-9_-]{16,64}$/.test(token)
        ? await store.review.guestBySecretHash(sha256Hex(token))
        : undefined;
    if (!guest || guest.share_id !== link.id)
      throw new CanvasError('unauthenticated', 'Say who you are first: a guest comments under a name.', {
        reason: 'no_guest',
      });
    return guest;
  }

  /** The boards the link shows: a guest's thread must be on one of them. */
  const shownBoards = (link: StoredShareLink) => boardsShownBy(store, link);

  const ref = (link: StoredShareLink) => ({ projectId: link.projectId, canvasId: link.canvasId });

  /**
   * A thread a guest may answer: on a board the link shows, and the client's. A team thread is answered exactly as a
   * thread that does not exist, so a guest cannot even learn that one is there.
   */
  async function clientThread(link: StoredShareLink, threadId: string): Promise<void> {
    const thread = await store.review.thread(link.projectId, link.canvasId, threadId);
    if (!thread?.node_id || thread.audience !== 'client' || !(await shownBoards(link)).includes(thread.node_id))
      throw new CanvasError('not_found', `No comment thread ${threadId} on the boards this link shows.`);
  }

  return {
    async join(secret: string, name: string): Promise<GuestView> {
      const link = await commentingLink(secret);
      const token = randomBytes(24).toString('base64url');
      const guest = await store.review.addGuest({
        id: newId('guest_'),
        shareId: link.id,
        name,
        secretHash: sha256Hex(token),
      });
      return { guest_id: guest.id, name: guest.name, token };
    },

    /** A guest's token names them; the rate limits key on it. */
    async guestId(secret: string, token: string | undefined): Promise<string> {
      return (await guestOf(await commentingLink(secret), token)).id;
    },

    async startThread(secret: string, token: string | undefined, body: ThreadCreateBody): Promise<ThreadView> {
      const link = await commentingLink(secret);
      const guest = await guestOf(link, token);
      if (!body.node_id || !(await shownBoards(link)).includes(body.node_id))
        throw new CanvasError('forbidden', 'node_id: a guest comments on the boards this link shows.', {
          field: 'node_id',
        });
      return forGuests(await threads.create(null, ref(link), body, { guestId: guest.id, name: guest.name }));
    },

    async reply(
      secret: string,
      token: string | undefined,
      threadId: string,
      body: CommentCreateBody,
    ): Promise<ThreadView> {
      const link = await commentingLink(secret);
      const guest = await guestOf(link, token);
      await clientThread(link, threadId);
      return forGuests(
        await threads.reply(null, ref(link), threadId, body, { kind: 'guest', guestId: guest.id, name: guest.name }),
      );
    },

    async change(secret: string, token: string | undefined, threadId: string, commentId: string, body: string | null) {
      const link = await commentingLink(secret);
      const guest = await guestOf(link, token);
      await clientThread(link, threadId);
      return forGuests(await threads.change(null, ref(link), threadId, commentId, body, { guestId: guest.id }));
    },
  };
}

export type GuestOperations = ReturnType<typeof createGuestOperations>;
