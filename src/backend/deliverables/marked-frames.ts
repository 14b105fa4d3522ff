import { CanvasEdge, CanvasNode, type CanvasRef, type ThreadView } from '../../contract/index.js';
import type { Assets } from '../../assets/assets.js';
import { assetIdOf, boardSource } from '../../exports/board-source.js';
import { markedPicture } from '../../exports/marked-picture.js';
import { CanvasError } from '../../shared/errors.js';
import { aspectOf } from '../../shared/frame-shape.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from '../auth/caller.js';
import type { ThreadOperations } from '../review/threads.js';
import { canvasThreads } from '../review/review-views.js';
import { latestPictures } from './exports.js';
import { forGuests, liveLink } from './share-links.js';

/**
 * A drawn note as a picture (docs/review.md, "Drawn notes"): the frame its thread names (the shot's picture, or the
 * card's) with the comment's marks drawn over it by the same engine as the editor, the board and the PDF. It is what
 * "attach the marked-up frame" hands on: a PNG anyone who may read the thread can open, save or send. A film frame
 * the thread names by timecode is drawn over the shot's or card's picture (or a blank frame of the board's shape).
 */

/** Pixels across a marked-up frame: enough to read a circle and a word, small enough to send. */
const MARKED_FRAME_WIDTH = 1280;

/** The shot on screen at a time of the animatic: each shot holds for its duration, one after another. */
function shotAtTime<Shot extends { durationMs: number }>(shots: readonly Shot[], ms: number): Shot | undefined {
  let end = 0;
  for (const shot of shots) {
    end += shot.durationMs;
    if (ms < end) return shot;
  }
  return shots.at(-1);
}

export function createMarkedFrames(options: {
  store: Store;
  assets: Assets;
  threads: ThreadOperations;
  clock?: () => number;
}) {
  const { store, assets } = options;
  const clock = options.clock ?? Date.now;

  /** The picture of the thread's place as an asset of its own project, and the frame's shape. */
  async function placeOf(ref: CanvasRef, thread: ThreadView): Promise<{ assetId: string | null; aspect: number }> {
    const load = thread.node_id ? await store.layout.loadLayout(ref.projectId, ref.canvasId) : null;
    const nodes = new Map((load?.nodes ?? []).map((row) => [row.id, CanvasNode.parse(JSON.parse(row.body))]));
    const node = thread.node_id ? nodes.get(thread.node_id) : undefined;
    if (!node) return { assetId: null, aspect: 16 / 9 };
    const pictures = await latestPictures(store, ref);
    if (node.type === 'storyboardNode') {
      const edges = (load?.edges ?? []).map((row) => CanvasEdge.parse(JSON.parse(row.body)));
      const source = boardSource(
        { board: node, nodes, edges, latestPictures: pictures, projectName: '', canvasTitle: '' },
        {},
      );
      // A note on the animatic (no shot) is drawn over the shot on screen at its time.
      const time = thread.shot_id === null ? thread.anchor?.timecode_ms : undefined;
      const shot =
        time === undefined ? source.shots.find((each) => each.id === thread.shot_id) : shotAtTime(source.shots, time);
      return { assetId: shot?.pictureAssetId ?? null, aspect: source.aspect };
    }
    const data = node.data as Record<string, unknown>;
    const own = [data.imageUrl, data.resultImageUrl, data.previewImageUrl, data.fileUrl].map(assetIdOf).find(Boolean);
    return { assetId: own ?? pictures.get(node.id) ?? null, aspect: aspectOf(data.aspectRatio) };
  }

  async function draw(ref: CanvasRef, thread: ThreadView, commentId: string): Promise<Buffer> {
    const comment = thread.comments.find((each) => each.comment_id === commentId);
    if (!comment) throw new CanvasError('not_found', `No comment ${commentId} in thread ${thread.thread_id}.`);
    if (comment.markup.length === 0)
      throw new CanvasError('not_found', `Comment ${commentId} has no drawn note: it is words alone.`);
    const place = await placeOf(ref, thread);
    const asset = place.assetId ? await store.assets.getAsset(place.assetId) : undefined;
    // Only this project's pictures are drawn under a note: a path to another project's asset draws a blank frame.
    const picture = asset && asset.projectId === ref.projectId ? await assets.bytesOf(asset) : null;
    return markedPicture(picture, comment.markup, place.aspect, MARKED_FRAME_WIDTH);
  }

  return {
    /** For whoever may read the canvas. */
    async forMember(ctx: CallerContext, ref: CanvasRef, threadId: string, commentId: string): Promise<Buffer> {
      return draw(ref, await options.threads.get(ctx, ref, threadId), commentId);
    },

    /** For whoever holds a live review link: the client's threads on the boards it shows, and nothing else. */
    async forLink(secret: string, threadId: string, commentId: string): Promise<Buffer> {
      const link = await liveLink(store, secret, clock());
      const ref = { projectId: link.projectId, canvasId: link.canvasId };
      const [thread] = link.review === 'none' ? [] : await canvasThreads(store, ref, { threadIds: [threadId] });
      const place = thread?.node_id ? await store.layout.readNode(ref.projectId, ref.canvasId, thread.node_id) : null;
      const shown = place?.node.type === 'storyboardNode' && (link.nodeId === null || place.node.id === link.nodeId);
      // A team thread answers exactly as one that does not exist.
      if (!thread || thread.audience !== 'client' || !shown)
        throw new CanvasError('not_found', `No comment thread ${threadId} on the boards this link shows.`);
      return draw(ref, forGuests(thread), commentId);
    },
  };
}

export type MarkedFrames = ReturnType<typeof createMarkedFrames>;
