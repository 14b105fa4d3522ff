import { z } from 'zod';
import { Str } from './node-data/common.js';

/**
 * Drawings on a shot (docs/drawing.md; the shape in docs/contract.md, "Drawings"). A drawing is the artist's strokes,
 * kept as the input points with pressure, per layer, in coordinates of the frame (0 to 1 of its width and height, so a
 * drawing survives any display size and frame shape). The strokes live in an asset the shot names (`drawing.url`), so a
 * board never grows past the node limit with its drawings; the shot's picture (`imageUrl`) is the drawing rendered
 * over the picture under it. The notes layer's marks (camera arrows, circles, a word) live on the shot itself
 * (`marks`), where an agent adds them with the edit-in-place tool and a person undoes them like any edit.
 *
 * Everything here is untrusted input: every number is finite and bounded, colours have one form, counts are bounded
 * (the counts a server takes are settings, checked beside these shapes: `checkDrawingLimits`).
 */

/** The layers artists keep (Storyboarder's), bottom to top. The picture under them is not a layer: it is the reference. */
export const DRAWING_LAYERS = ['rough', 'tone', 'ink', 'notes'] as const;
export const DrawingLayerName = z.enum(DRAWING_LAYERS);
export type DrawingLayerName = z.infer<typeof DrawingLayerName>;

/** Tools whose strokes are kept. Pencil, pen and brush follow pressure; the eraser removes what is under it on its layer. */
export const DRAWING_TOOLS = [
  'pencil',
  'pen',
  'brush',
  'eraser',
  'line',
  'arrow',
  'rect',
  'ellipse',
  'text',
  'fill',
] as const;
export const DrawingTool = z.enum(DRAWING_TOOLS);
export type DrawingTool = z.infer<typeof DrawingTool>;

/** `#rrggbb`, lower case: the one colour form a drawing takes (never a CSS expression). */
export const DrawingColour = z.string().regex(/^#[0-9a-f]{6}$/, { error: 'must be a colour written #rrggbb' });

/** A coordinate of the frame: 0 to 1 of its width or height, with room for a stroke that runs past the edge. */
const FrameCoordinate = z.number().min(-0.5).max(1.5);

/** One input point: x and y of the frame, and the pen's pressure (0 to 1; a mouse reports 0.5). */
export const DrawingPoint = z.tuple([FrameCoordinate, FrameCoordinate, z.number().min(0).max(1)]);
export type DrawingPoint = z.infer<typeof DrawingPoint>;

export const StrokeId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, { error: 'must be 1 to 40 letters, digits, _ or -' });

/** The bounds every drawing obeys whatever a server's settings say (a server may set tighter ones). */
export const DRAWING_BOUNDS = {
  /** Points of one stroke. */
  strokePoints: 20_000,
  /** Strokes of one drawing, all layers together. */
  strokes: 20_000,
  /** Characters of a text stroke. */
  text: 500,
  /** Marks on one shot's notes layer (on the shot itself). */
  marks: 50,
  /** Points of one mark. */
  markPoints: 200,
} as const;

export const Stroke = z.strictObject({
  id: StrokeId,
  tool: DrawingTool,
  colour: DrawingColour,
  /** Width in thousandths of the frame's width (1 to 100). */
  size: z.number().min(1).max(100),
  /** The stroke's own opacity (a tone wash is translucent). */
  opacity: z.number().min(0).max(1).optional(),
  points: z.array(DrawingPoint).min(1).max(DRAWING_BOUNDS.strokePoints),
  /** The words of a text stroke, drawn as text (never read as markup). */
  text: z.string().max(DRAWING_BOUNDS.text).optional(),
});
export type Stroke = z.infer<typeof Stroke>;

export const DrawingLayer = z.strictObject({
  name: DrawingLayerName,
  opacity: z.number().min(0).max(1),
  visible: z.boolean(),
  locked: z.boolean(),
  strokes: z.array(Stroke).max(DRAWING_BOUNDS.strokes),
});
export type DrawingLayer = z.infer<typeof DrawingLayer>;

/** The document kept in a drawing's asset. */
export const Drawing = z.strictObject({
  format: z.literal('canvas-mcp.drawing/1'),
  /** Counts the saves of this shot's drawing: 1 for the first; 0 for a shot not drawn on yet. */
  version: z.int().min(0),
  /** The picture the drawing is over (a photo, a generated picture, a reference), or null on a blank frame. */
  pictureUnderUrl: z.string().max(2048).nullable(),
  layers: z.array(DrawingLayer).max(DRAWING_LAYERS.length),
});
export type Drawing = z.infer<typeof Drawing>;

/**
 * A shot's reference to its drawing, on the frame: `drawingUrl`, the asset of its newest version (a plain field rather
 * than an object: every agent's tools/list carries the frame's schema, 40 KB in all: docs/contract.md, "Schema form").
 */
export interface ShotDrawingRef {
  drawingUrl: string;
}

/**
 * A mark on a shot's notes layer: a tool, a colour, its points as x, y pairs in one flat list of frame coordinates
 * ([x0, y0, x1, y1, …]: a line or arrow from the first to the last, a box or ellipse across them), and for text its
 * words. Agents add them. Deliberately small: every agent's tools/list carries this shape (docs/contract.md, "Drawings").
 */
export const ShotMark = z
  .strictObject({
    tool: z.enum(['line', 'arrow', 'rect', 'ellipse', 'pen', 'text']),
    colour: DrawingColour,
    points: z
      .array(FrameCoordinate)
      .min(2)
      .max(DRAWING_BOUNDS.markPoints * 2),
    text: Str.optional(),
  })
  .meta({ id: 'ShotMark' });
export type ShotMark = z.infer<typeof ShotMark>;

/** A mark's points as [x, y] pairs (an odd last number is ignored). */
export function markPoints(mark: ShotMark): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index + 1 < mark.points.length; index += 2)
    pairs.push([mark.points[index]!, mark.points[index + 1]!]);
  return pairs;
}

/** One change to a shot's drawing; a save carries the changes of one gesture (a stroke ends, an undo, a layer toggled). */
export const DrawingChange = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add_stroke'), layer: DrawingLayerName, stroke: Stroke }),
  z.strictObject({ op: z.literal('remove_stroke'), stroke_id: StrokeId }),
  z.strictObject({
    op: z.literal('set_layer'),
    layer: DrawingLayerName,
    opacity: z.number().min(0).max(1).optional(),
    visible: z.boolean().optional(),
    locked: z.boolean().optional(),
  }),
  z.strictObject({ op: z.literal('set_picture_under'), url: z.string().max(2048).nullable() }),
  z.strictObject({ op: z.literal('clear') }),
]);
export type DrawingChange = z.infer<typeof DrawingChange>;

export const SaveDrawingBody = z.strictObject({
  /** The drawing version the changes were made on (null for a frame with none yet). Older is merged, never lost. */
  base_version: z.int().min(1).nullable(),
  changes: z.array(DrawingChange).min(1).max(1_000),
  client_save_id: z.string().max(100).optional(),
});
export type SaveDrawingBody = z.infer<typeof SaveDrawingBody>;

export const DrawingReceipt = z.strictObject({
  revision: z.int(),
  drawing: Drawing,
  drawing_url: z.string(),
  image_url: z.string(),
  /** True when another save came in since `base_version`: the editor shows that it merged with someone's strokes. */
  merged: z.boolean(),
});
export type DrawingReceipt = z.infer<typeof DrawingReceipt>;

/** A blank drawing (version 0: never saved): every layer, empty, visible and unlocked. */
export function emptyDrawing(pictureUnderUrl: string | null): Drawing {
  return {
    format: 'canvas-mcp.drawing/1',
    version: 0,
    pictureUnderUrl,
    layers: DRAWING_LAYERS.map((name) => ({
      name,
      opacity: name === 'rough' ? 0.6 : 1,
      visible: true,
      locked: false,
      strokes: [],
    })),
  };
}

/** Every stroke of a drawing, on every layer. */
export function strokeCount(drawing: Drawing): number {
  return drawing.layers.reduce((sum, layer) => sum + layer.strokes.length, 0);
}
