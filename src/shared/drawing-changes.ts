import type { Drawing, DrawingChange, DrawingLayer } from '../contract/drawing.js';
import { strokeCount } from '../contract/drawing.js';
import { CanvasError } from './errors.js';

/**
 * A save's changes applied to a shot's drawing (docs/drawing.md, "Saving"). Changes name strokes by id, so two people
 * drawing on one shot at once both keep every stroke: a save made on an older version is applied to the newest one,
 * never instead of it. A locked layer takes no stroke and loses none.
 */

export interface DrawingLimits {
  maxStrokes: number;
  maxStrokePoints: number;
  maxPoints: number;
}

const SETTING = {
  maxStrokes: '--drawing-max-strokes',
  maxStrokePoints: '--drawing-max-stroke-points',
  maxPoints: '--drawing-max-points',
} as const;

function lockedLayer(layer: DrawingLayer, field: string): CanvasError {
  return new CanvasError(
    'invalid_arguments',
    `The ${layer.name} layer is locked: unlock it to change its strokes. Nothing was saved.`,
    { field, layer: layer.name },
  );
}

/** The drawing after `changes`, one version on; the input is not changed. */
export function applyDrawingChanges(drawing: Drawing, changes: readonly DrawingChange[]): Drawing {
  const layers = drawing.layers.map((layer) => ({ ...layer, strokes: [...layer.strokes] }));
  let pictureUnderUrl = drawing.pictureUnderUrl;
  const layerNamed = (name: DrawingLayer['name']) => layers.find((layer) => layer.name === name)!;
  changes.forEach((change, index) => {
    const field = `changes.${index}`;
    switch (change.op) {
      case 'add_stroke': {
        const layer = layerNamed(change.layer);
        if (layer.locked) throw lockedLayer(layer, field);
        // Saved twice (a retry after a lost answer): the stroke is there once.
        if (layers.some((candidate) => candidate.strokes.some((stroke) => stroke.id === change.stroke.id))) return;
        layer.strokes.push(change.stroke);
        return;
      }
      case 'remove_stroke': {
        const layer = layers.find((candidate) => candidate.strokes.some((stroke) => stroke.id === change.stroke_id));
        // Already gone (someone else removed it, or a retry): nothing to do.
        if (!layer) return;
        if (layer.locked) throw lockedLayer(layer, field);
        layer.strokes = layer.strokes.filter((stroke) => stroke.id !== change.stroke_id);
        return;
      }
      case 'set_layer': {
        const layer = layerNamed(change.layer);
        if (change.opacity !== undefined) layer.opacity = change.opacity;
        if (change.visible !== undefined) layer.visible = change.visible;
        if (change.locked !== undefined) layer.locked = change.locked;
        return;
      }
      case 'set_picture_under':
        pictureUnderUrl = change.url;
        return;
      case 'clear':
        for (const layer of layers) if (!layer.locked) layer.strokes = [];
        return;
    }
  });
  return { ...drawing, version: drawing.version + 1, pictureUnderUrl, layers };
}

/** Refuses a drawing past a limit, naming the limit and its setting; nothing is written. */
export function checkDrawingLimits(drawing: Drawing, limits: DrawingLimits): void {
  const strokes = strokeCount(drawing);
  if (strokes > limits.maxStrokes)
    throw overLimit('strokes', strokes, limits.maxStrokes, `strokes (${SETTING.maxStrokes})`);
  let points = 0;
  for (const layer of drawing.layers)
    for (const stroke of layer.strokes) {
      points += stroke.points.length;
      if (stroke.points.length > limits.maxStrokePoints)
        throw overLimit(
          'stroke_points',
          stroke.points.length,
          limits.maxStrokePoints,
          `points in one stroke (${SETTING.maxStrokePoints}); stroke ${stroke.id} has more`,
        );
    }
  if (points > limits.maxPoints) throw overLimit('points', points, limits.maxPoints, `points (${SETTING.maxPoints})`);
}

function overLimit(limit: string, value: number, max: number, words: string): CanvasError {
  return new CanvasError(
    'limit_exceeded',
    `A drawing may hold at most ${max.toLocaleString('en')} ${words}; this one would hold ${value.toLocaleString('en')}. Nothing was saved.`,
    { limit: `drawing_${limit}`, value, max },
  );
}

/**
 * The strokes a save only adds on top of everything drawn, or null when the frame must be drawn whole: every change
 * adds a stroke (no eraser) to one visible layer at full opacity, and no layer above it has a visible stroke. Then the
 * new picture is the previous one with these strokes drawn over it, the same pixels as drawing the whole frame again
 * (a layer at full opacity draws each stroke over the ones before it), at the cost of the new strokes alone.
 */
export function strokesOnTop(
  next: Drawing,
  changes: readonly DrawingChange[],
): Drawing['layers'][number]['strokes'] | null {
  const added = changes.map((change) => (change.op === 'add_stroke' ? change : null));
  if (added.length === 0 || added.some((change) => change === null || change.stroke.tool === 'eraser')) return null;
  const layerName = added[0]!.layer;
  if (added.some((change) => change!.layer !== layerName)) return null;
  const index = next.layers.findIndex((layer) => layer.name === layerName);
  const layer = next.layers[index];
  if (!layer || !layer.visible || layer.opacity !== 1) return null;
  if (next.layers.slice(index + 1).some((above) => above.visible && above.strokes.length > 0)) return null;
  const ids = new Set(added.map((change) => change!.stroke.id));
  // A stroke saved twice is in the drawing once, already drawn: only the ones this save put there.
  const fresh = layer.strokes.slice(layer.strokes.length - ids.size).filter((stroke) => ids.has(stroke.id));
  return fresh.length === ids.size ? fresh : null;
}
