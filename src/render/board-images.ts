import type { CanvasRef, ShotMark } from '../contract/index.js';
import type { Thumbnails } from '../assets/thumbnails.js';
import { boardTargetKey, type BoardView } from '../shared/board-target.js';
import type { Store } from '../store/store.js';
import { buildScene, type SceneSnapshot } from './board-scene.js';
import { boardSvg } from './board-svg.js';
import { pictureSizes, pictureUris } from './pictures.js';
import { MAX_EDGE, MIME_TYPES, rasterise } from './rasterise.js';
import { RenderCache } from './render-cache.js';

/**
 * The board as a picture (docs/contract.md, "The board as a picture"): a view of a canvas read at
 * one revision, drawn as SVG (src/render/board-svg.ts) with its cards' thumbnails and rasterised within the budget
 * (src/render/rasterise.ts), kept in a small in-memory cache by revision. The caller reads the canvas with the
 * reader's rights (src/backend/deliverables/board-image.ts); a picture is embedded only from an asset of the canvas's own project.
 */

export interface BoardImage {
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
  revision: number;
}

/** A canvas as read: its revision, the version of its run states (results arrive without a revision), the JSON. */
export interface CanvasRead {
  revision: number;
  statesVersion?: number;
  json: string;
}

export interface BoardImages {
  render(ref: CanvasRef, read: CanvasRead, view: BoardView): Promise<BoardImage>;
  /** How many pictures were drawn (not answered from the cache) since the start: tests and the bench count them. */
  readonly renders: number;
}

/**
 * The drawn notes of a board's open threads, by shot (docs/review.md, "Drawn notes"): an agent looking at the board
 * sees the circle a reviewer drew where they drew it. A thread change moves the canvas's states version, so a new
 * note draws a new picture rather than an old one from the cache.
 */
async function drawnNotes(store: Store, ref: CanvasRef, nodeId: string): Promise<Map<string, ShotMark[]>> {
  const notes = new Map<string, ShotMark[]>();
  for (const { thread, comments } of await store.review.threads(ref.projectId, ref.canvasId, { nodeIds: [nodeId] })) {
    if (thread.status !== 'open' || thread.shot_id === null) continue;
    const marks = comments.flatMap((comment) => (comment.deleted_at === null ? comment.markup : []));
    if (marks.length > 0) notes.set(thread.shot_id, [...(notes.get(thread.shot_id) ?? []), ...marks]);
  }
  return notes;
}

export function createBoardImages(options: { store: Store; thumbnails: Thumbnails; maxEntries?: number }): BoardImages {
  const cache = new RenderCache<BoardImage>(options.maxEntries ?? 32);
  let renders = 0;

  async function draw(ref: CanvasRef, read: CanvasRead, view: BoardView): Promise<BoardImage> {
    renders += 1;
    const snapshot = JSON.parse(read.json) as SceneSnapshot;
    const notes = view.target.kind === 'node' ? await drawnNotes(options.store, ref, view.target.nodeId) : undefined;
    const scene = buildScene(snapshot, view.target, view.guides, notes);
    const scale = Math.min(MAX_EDGE / Math.max(scene.view.width, scene.view.height), 1);
    const size = {
      width: Math.max(1, Math.round(scene.view.width * scale)),
      height: Math.max(1, Math.round(scene.view.height * scale)),
    };
    const pictures = await pictureUris(pictureSizes(scene.cards, scale), async (assetId) => {
      const asset = await options.store.assets.getAsset(assetId);
      // A URL naming another project's asset draws nothing: the reader may not see it.
      if (!asset || asset.projectId !== ref.projectId) return null;
      return (await options.thumbnails.of(asset))?.bytes ?? null;
    });
    const { bytes, width } = await rasterise(boardSvg(scene, size, pictures), {
      format: view.format,
      width: size.width,
    });
    return {
      bytes,
      mimeType: MIME_TYPES[view.format],
      width,
      height: Math.max(1, Math.round((size.height * width) / size.width)),
      revision: read.revision,
    };
  }

  return {
    render(ref, read, view) {
      const key = [
        ref.projectId,
        ref.canvasId,
        read.revision,
        read.statesVersion ?? '',
        boardTargetKey(view.target),
        view.format,
        view.guides?.join(',') ?? '',
      ].join('\u0000');
      return cache.get(key, () => draw(ref, read, view));
    },
    get renders() {
      return renders;
    },
  };
}
