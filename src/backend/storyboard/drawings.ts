import { loadSharp } from '../../shared/sharp.js';
import {
  dataOf,
  Drawing,
  emptyDrawing,
  type CanvasNode,
  type CanvasRef,
  type DrawingReceipt,
  type SaveDrawingBody,
  type ShotDrawingRef,
} from '../../contract/index.js';
import type { Assets } from '../../assets/assets.js';
import { ASSET_ID } from '../../assets/asset-store.js';
import { rasterise } from '../../render/rasterise.js';
import { aspectOf } from '../../shared/frame-shape.js';
import { drawingSvg, StrokeCache } from '../../shared/drawing-svg.js';
import { CanvasError } from '../../shared/errors.js';
import {
  applyDrawingChanges,
  checkDrawingLimits,
  strokesOnTop,
  type DrawingLimits,
} from '../../shared/drawing-changes.js';
import type { AssetRecord } from '../../store/asset-records.js';
import type { Store } from '../../store/store.js';
import { authorizeProject, requireCanvas } from '../auth/access.js';
import type { CallerContext } from '../auth/caller.js';
import type { CanvasBackend } from '../canvas/backend.js';
import { createServerFiles } from '../uploads/server-files.js';

/**
 * Drawings on shots (docs/drawing.md): a save applies one gesture's changes (a stroke ended, an undo, a layer
 * toggled) to the shot's newest drawing, keeps the strokes as an asset (JSON), renders the frame (the picture under
 * it, the visible layers; never the shot's marks, which every view draws over the picture) as the shot's picture, and writes the shot in one layout write: one
 * revision, with its author, in history and on the feed, so every page watching the board sees the drawing at once.
 * Two saves at once both land: the second is applied again on the first's result, never over it.
 */

export interface DrawingSettings extends DrawingLimits {
  /** Width in pixels of a shot's rendered picture. */
  renderWidth: number;
  projectQuotaBytes: number;
}

/** Drawings kept parsed in this process (the newest of the shots being drawn on). */
const PARSED_DRAWINGS = 64;

/** Shot pictures kept in memory for the next save to draw on (a 1,280 px PNG is about 0.1 to 2 MB). */
const RENDERS_KEPT = 16;

/** Attempts at one save when other writes to the canvas keep landing first. */
const WRITE_ATTEMPTS = 6;

type Frame = Record<string, unknown> & { id: string };

const assetIdOf = (url: unknown): string | null => {
  const match = typeof url === 'string' ? /^\/assets\/(asset_[A-Za-z0-9_-]{16})(?:\?|$)/.exec(url) : null;
  return match && ASSET_ID.test(match[1]!) ? match[1]! : null;
};

const pathOf = (assetId: string) => `/assets/${assetId}`;

export function createDrawings(deps: {
  store: Store;
  assets: Assets;
  canvas: CanvasBackend;
  clock: () => number;
  settings: DrawingSettings;
}) {
  const { store, assets, canvas, clock, settings } = deps;
  // A stroke's outline is computed once in this process: a save of a 2,000-stroke frame draws one new outline.
  const outlines = new StrokeCache(50_000);
  const parsedDrawings = new Map<string, Drawing>();
  const renders = new Map<string, { pictureId: string; bytes: Buffer }>();
  const keepFiles = createServerFiles({ store, assets, clock, projectQuotaBytes: settings.projectQuotaBytes });

  async function ownAsset(ref: CanvasRef, assetId: string | null): Promise<AssetRecord | null> {
    if (!assetId) return null;
    const record = await store.assets.getAsset(assetId);
    return record && record.projectId === ref.projectId ? record : null;
  }

  /** The shot, on the board as it is now, with the canvas revision it was read at. */
  async function readShot(ref: CanvasRef, boardId: string, shotId: string) {
    const head = await requireCanvas(store, ref.projectId, ref.canvasId);
    const found = await store.layout.readNode(ref.projectId, ref.canvasId, boardId);
    const board = found?.node;
    const data = board ? dataOf(board, 'storyboardNode') : undefined;
    if (!board || !data)
      throw new CanvasError('not_found', `There is no storyboard ${boardId} on this canvas.`, { node_id: boardId });
    const frames = data.frames as Frame[];
    const frame = frames.find((candidate) => candidate.id === shotId);
    if (!frame)
      throw new CanvasError('not_found', `Storyboard ${boardId} has no shot ${shotId}.`, {
        node_id: boardId,
        shot_id: shotId,
      });
    return { revision: head.revision, board, frames, frame };
  }

  async function storedDrawing(ref: CanvasRef, frame: Frame): Promise<Drawing | null> {
    const record = await ownAsset(ref, assetIdOf(frame.drawingUrl));
    if (!record) return null;
    const known = parsedDrawings.get(record.assetId);
    if (known) return known;
    const bytes = await assets.bytesOf(record);
    if (!bytes) return null;
    // Parsed as untrusted: the shot's drawingUrl is node data anyone may write, so it may name any asset.
    const parsed = Drawing.safeParse(JSON.parse(bytes.toString('utf8')));
    if (!parsed.success) return null;
    remember(record.assetId, parsed.data);
    return parsed.data;
  }

  /** A drawing this process wrote or read, by its asset (assets never change): the next save skips reading it. */
  function remember(assetId: string, drawing: Drawing): void {
    parsedDrawings.set(assetId, drawing);
    if (parsedDrawings.size > PARSED_DRAWINGS) parsedDrawings.delete(parsedDrawings.keys().next().value!);
  }

  /** The picture under a drawing, cropped to the frame, as a data URI: only this project's own pictures. */
  async function pictureUnder(ref: CanvasRef, url: string | null, width: number, height: number) {
    const record = await ownAsset(ref, assetIdOf(url));
    if (!record || !record.mimeType.startsWith('image/')) return null;
    const bytes = await assets.bytesOf(record);
    if (!bytes) return null;
    const sharp = await loadSharp();
    try {
      const jpeg = await sharp(bytes, { pages: 1, limitInputPixels: 268_402_689 })
        .resize({ width, height, fit: 'cover' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 88 })
        .toBuffer();
      return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    } catch {
      return null;
    }
  }

  /** The frame drawn: the shot's new picture (PNG). */
  async function render(ref: CanvasRef, board: CanvasNode, drawing: Drawing) {
    const width = settings.renderWidth;
    const height = Math.round(width / aspectOf(dataOf(board, 'storyboardNode')?.aspectRatio));
    const under = await pictureUnder(ref, drawing.pictureUnderUrl, width, height);
    const svg = drawingSvg(drawing, { width, height, pictureUnder: under, cache: outlines });
    return (await rasterise(svg, { format: 'png', width, maxBytes: 4_000_000 })).bytes;
  }

  /**
   * The new picture as the previous one with only the added strokes drawn over it, when that is the same picture
   * (strokesOnTop) and the shot still shows the picture this process rendered for its drawing; else null.
   */
  async function renderOnTop(frame: Frame, next: Drawing, changes: SaveDrawingBody['changes']) {
    const strokes = strokesOnTop(next, changes);
    const previous = renders.get(assetIdOf(frame.drawingUrl) ?? '');
    if (!strokes || !previous || previous.pictureId !== assetIdOf(frame.imageUrl)) return null;
    const sharp = await loadSharp();
    const { width, height } = (await sharp(previous.bytes).metadata()) as { width: number; height: number };
    const layer = next.layers.find((each) => each.strokes.includes(strokes[0]!))!;
    const top = drawingSvg(
      { ...next, layers: [{ ...layer, strokes }] },
      { width, height, paper: false, cache: outlines },
    );
    const over = (await rasterise(top, { format: 'png', width, maxBytes: 64_000_000 })).bytes;
    return sharp(previous.bytes)
      .composite([{ input: over }])
      .png()
      .toBuffer();
  }

  /** The picture rendered for a drawing asset, kept for the next save's renderOnTop (the newest few shots). */
  function rendered(drawingId: string, pictureId: string, bytes: Buffer): void {
    renders.set(drawingId, { pictureId, bytes });
    if (renders.size > RENDERS_KEPT) renders.delete(renders.keys().next().value!);
  }

  /** Writes the strokes and the picture as assets of the project, within its quota; answers their ids. */
  async function keep(ctx: CallerContext, ref: CanvasRef, shotId: string, drawing: Drawing, png: Buffer) {
    const [drawingId, pictureId] = await keepFiles(
      ctx,
      ref,
      [
        {
          bytes: Buffer.from(JSON.stringify(drawing), 'utf8'),
          kind: 'document',
          mimeType: 'application/json',
          name: `${shotId} drawing.json`,
        },
        { bytes: png, kind: 'image', mimeType: 'image/png', name: `${shotId} drawing.png` },
      ],
      'this drawing',
    );
    return { drawingId: drawingId!, pictureId: pictureId! };
  }

  return {
    /** A shot's drawing as it is now (a blank one over the shot's picture when it has none yet). */
    async read(ctx: CallerContext, ref: CanvasRef, boardId: string, shotId: string): Promise<Drawing> {
      await authorizeProject(store, ctx, ref.projectId, 'viewer');
      const { frame } = await readShot(ref, boardId, shotId);
      return (
        (await storedDrawing(ref, frame)) ?? emptyDrawing(typeof frame.imageUrl === 'string' ? frame.imageUrl : null)
      );
    },

    async save(
      ctx: CallerContext,
      ref: CanvasRef,
      boardId: string,
      shotId: string,
      body: SaveDrawingBody,
    ): Promise<DrawingReceipt> {
      await authorizeProject(store, ctx, ref.projectId, 'editor');
      for (let attempt = 1; ; attempt++) {
        const { revision, board, frames, frame } = await readShot(ref, boardId, shotId);
        const stored = await storedDrawing(ref, frame);
        const before = stored ? stored.version : null;
        const current = stored ?? emptyDrawing(typeof frame.imageUrl === 'string' ? frame.imageUrl : null);
        for (const change of body.changes)
          if (change.op === 'set_picture_under' && change.url !== null && !(await ownAsset(ref, assetIdOf(change.url))))
            throw new CanvasError(
              'invalid_arguments',
              'changes: set_picture_under takes a picture of this project (/assets/<asset_id>).',
              { field: 'url' },
            );
        const next = applyDrawingChanges(current, body.changes);
        checkDrawingLimits(next, settings);
        const png = (await renderOnTop(frame, next, body.changes)) ?? (await render(ref, board, next));
        const kept = await keep(ctx, ref, shotId, next, png);
        remember(kept.drawingId, next);
        rendered(kept.drawingId, kept.pictureId, png);
        const drawingRef: ShotDrawingRef = { drawingUrl: pathOf(kept.drawingId) };
        const imageUrl = pathOf(kept.pictureId);
        // The picture a first drawing covers stays an earlier picture of the shot, to pick back.
        const replaced =
          before === null && typeof frame.imageUrl === 'string' && frame.imageUrl ? [frame.imageUrl] : [];
        const earlier = [...replaced, ...((frame.earlierPictures as string[] | undefined) ?? [])].slice(0, 20);
        const shot: Frame = { ...frame, imageUrl, ...drawingRef };
        if (earlier.length) shot.earlierPictures = earlier;
        const data = {
          ...(board.data as Record<string, unknown>),
          frames: frames.map((candidate) => (candidate.id === shotId ? shot : candidate)),
        };
        try {
          const receipt = await canvas.updateNode(ctx, {
            ...ref,
            baseRevision: revision,
            clientSaveId: null,
            nodeId: boardId,
            set: { data } as never,
          });
          return {
            revision: receipt.revision,
            drawing: next,
            drawing_url: drawingRef.drawingUrl,
            image_url: imageUrl,
            merged: before !== body.base_version,
          };
        } catch (error) {
          if (!(error instanceof CanvasError) || error.code !== 'revision_conflict' || attempt >= WRITE_ATTEMPTS)
            throw error;
          // Another write landed first: the assets of this attempt are never referenced; try again on the newest.
        }
      }
    },
  };
}

export type Drawings = ReturnType<typeof createDrawings>;
