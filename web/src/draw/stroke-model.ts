import type { Drawing, DrawingChange, DrawingLayerName, DrawingPoint, Stroke } from '../../../src/contract/index.js';
import { applyDrawingChanges } from '../../../src/shared/drawing-changes.js';

/**
 * The frame editor's model, without a browser (docs/drawing.md): input points as the frame takes them, which pointer
 * draws (a pen draws, a resting palm does not), and the editor's own undo and redo as changes to save. Every gesture
 * is a list of changes the server applies (src/shared/drawing-changes.ts); its undo is the list that takes it back.
 */

/**
 * A point of the frame from a pointer position over the drawing surface's box, rounded to what a save keeps. With
 * `tiltShades` (the pencil and the brush), a pen laid over broadens the line as the side of a lead or a brush does:
 * the tilt (0 upright to 90 flat, the larger of tiltX and tiltY) raises the pressure kept by up to its own share, so
 * every renderer draws the broader line from the same [x, y, pressure] points.
 */
export function framePoint(
  at: { clientX: number; clientY: number; pressure: number; pointerType: string; tiltX?: number; tiltY?: number },
  box: { left: number; top: number; width: number; height: number },
  tiltShades = false,
): DrawingPoint {
  const x = (at.clientX - box.left) / box.width;
  const y = (at.clientY - box.top) / box.height;
  // A mouse reports 0.5 while a button is down, a pen its pressure; a pen touching lightly can report 0.
  const pressed = at.pointerType === 'mouse' ? 0.5 : Math.max(0.05, Math.min(1, at.pressure || 0.5));
  const tilt = at.pointerType === 'pen' ? Math.min(90, Math.max(Math.abs(at.tiltX ?? 0), Math.abs(at.tiltY ?? 0))) : 0;
  const pressure = tiltShades ? Math.min(1, pressed * (1 + tilt / 90)) : pressed;
  const clamp = (value: number) => Math.max(-0.5, Math.min(1.5, value));
  return [round(clamp(x), 4), round(clamp(y), 4), round(pressure, 3)];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Which pointers draw: a pen or a mouse always; a finger only until a pen has been used in this editor (an artist with
 * a stylus rests their palm on the screen), and never while another finger is down (two fingers pinch and pan).
 */
export class PalmGuard {
  private penSeen = false;
  private readonly touches = new Set<number>();

  down(pointer: { pointerId: number; pointerType: string }): 'draw' | 'gesture' | 'ignore' {
    if (pointer.pointerType === 'pen') {
      this.penSeen = true;
      return 'draw';
    }
    if (pointer.pointerType !== 'touch') return 'draw';
    this.touches.add(pointer.pointerId);
    if (this.touches.size > 1) return 'gesture';
    return this.penSeen ? 'ignore' : 'draw';
  }

  up(pointer: { pointerId: number }): void {
    this.touches.delete(pointer.pointerId);
  }

  get fingers(): number {
    return this.touches.size;
  }
}

/** The changes that take `changes` back, on the drawing they were applied to. */
export function inverseOf(drawing: Drawing, changes: readonly DrawingChange[]): DrawingChange[] {
  const inverse: DrawingChange[] = [];
  for (const change of changes) {
    switch (change.op) {
      case 'add_stroke':
        inverse.unshift({ op: 'remove_stroke', stroke_id: change.stroke.id });
        break;
      case 'remove_stroke': {
        const layer = drawing.layers.find((candidate) =>
          candidate.strokes.some((stroke) => stroke.id === change.stroke_id),
        );
        const stroke = layer?.strokes.find((candidate) => candidate.id === change.stroke_id);
        if (layer && stroke) inverse.unshift({ op: 'add_stroke', layer: layer.name, stroke });
        break;
      }
      case 'set_layer': {
        const layer = drawing.layers.find((candidate) => candidate.name === change.layer);
        if (layer)
          inverse.unshift({
            op: 'set_layer',
            layer: layer.name,
            ...(change.opacity !== undefined ? { opacity: layer.opacity } : {}),
            ...(change.visible !== undefined ? { visible: layer.visible } : {}),
            ...(change.locked !== undefined ? { locked: layer.locked } : {}),
          });
        break;
      }
      case 'set_picture_under':
        inverse.unshift({ op: 'set_picture_under', url: drawing.pictureUnderUrl });
        break;
      case 'clear':
        for (const layer of drawing.layers)
          if (!layer.locked)
            for (const stroke of layer.strokes) inverse.push({ op: 'add_stroke', layer: layer.name, stroke });
        break;
    }
  }
  return inverse;
}

export interface EditorHistory {
  done: DrawingChange[][];
  undone: DrawingChange[][];
}

export const EMPTY_HISTORY: EditorHistory = { done: [], undone: [] };

/** A gesture applied: the drawing after it, and the history that can take it back (redo is forgotten). */
export function applyGesture(
  drawing: Drawing,
  history: EditorHistory,
  changes: DrawingChange[],
): { drawing: Drawing; history: EditorHistory } {
  const inverse = inverseOf(drawing, changes);
  return {
    drawing: applyDrawingChanges(drawing, changes),
    history: { done: [...history.done, inverse].slice(-200), undone: [] },
  };
}

/** Undo (or redo): the changes to save, the drawing after them and the history after; null when there is nothing. */
export function stepHistory(
  drawing: Drawing,
  history: EditorHistory,
  direction: 'undo' | 'redo',
): { changes: DrawingChange[]; drawing: Drawing; history: EditorHistory } | null {
  const from = direction === 'undo' ? history.done : history.undone;
  const changes = from.at(-1);
  if (!changes) return null;
  const back = inverseOf(drawing, changes);
  const rest = from.slice(0, -1);
  return {
    changes,
    drawing: applyDrawingChanges(drawing, changes),
    history:
      direction === 'undo'
        ? { done: rest, undone: [...history.undone, back] }
        : { done: [...history.done, back], undone: rest },
  };
}

let strokeCounter = 0;

/** A stroke id no other stroke of the shot has: the author's key, the time and a counter. */
export function newStrokeId(author: string): string {
  strokeCounter += 1;
  const who = author.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'anon';
  return `${who}-${Date.now().toString(36)}-${strokeCounter.toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** A finished stroke as kept: shapes keep only their first and last points. */
export function finishStroke(draft: {
  id: string;
  tool: Stroke['tool'];
  colour: string;
  size: number;
  points: DrawingPoint[];
  text?: string;
}): Stroke {
  const shape = draft.tool === 'line' || draft.tool === 'arrow' || draft.tool === 'rect' || draft.tool === 'ellipse';
  const points = shape ? [draft.points[0]!, draft.points.at(-1)!] : draft.points;
  return {
    id: draft.id,
    tool: draft.tool,
    colour: draft.colour,
    size: draft.size,
    points,
    ...(draft.tool === 'brush' ? { opacity: 0.85 } : {}),
    ...(draft.text !== undefined ? { text: draft.text } : {}),
  };
}

/** The layer a stroke lands on, and whether it may (a hidden or locked layer takes none). */
export function layerRefusal(drawing: Drawing, layer: DrawingLayerName): string | null {
  const found = drawing.layers.find((candidate) => candidate.name === layer);
  if (!found) return `There is no ${layer} layer.`;
  if (found.locked) return `The ${layer} layer is locked: unlock it to draw on it.`;
  if (!found.visible) return `The ${layer} layer is hidden: show it to draw on it.`;
  return null;
}
