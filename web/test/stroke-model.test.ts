import { describe, expect, it } from 'vitest';
import { emptyDrawing, type Drawing, type DrawingChange, type Stroke } from '../../src/contract/index.js';
import {
  applyGesture,
  EMPTY_HISTORY,
  finishStroke,
  framePoint,
  inverseOf,
  layerRefusal,
  newStrokeId,
  PalmGuard,
  stepHistory,
} from '../src/draw/stroke-model.js';

/**
 * The frame editor's model without a browser (web/src/draw/stroke-model.ts): where a pointer lands on the frame,
 * which pointers draw (a pen draws, a resting palm does not, two fingers pinch), and undo and redo as changes to save.
 */

const BOX = { left: 100, top: 50, width: 800, height: 450 };
const at = (clientX: number, clientY: number, pointerType = 'pen', pressure = 0.5) => ({
  clientX,
  clientY,
  pressure,
  pointerType,
});

const stroke = (id: string, overrides: Partial<Stroke> = {}): Stroke => ({
  id,
  tool: 'pencil',
  colour: '#111111',
  size: 4,
  points: [
    [0.1, 0.1, 0.5],
    [0.2, 0.2, 0.6],
  ],
  ...overrides,
});

describe('framePoint', () => {
  it('answers frame fractions of the surface box, rounded to what a save keeps', () => {
    expect(framePoint(at(500, 275, 'pen', 0.73219), BOX)).toEqual([0.5, 0.5, 0.732]);
    expect(framePoint(at(100 + 800 / 3, 50), BOX)).toEqual([0.3333, 0, 0.5]);
  });

  it('gives a mouse half pressure, keeps a light pen above zero and clamps a point far off the frame', () => {
    expect(framePoint(at(500, 275, 'mouse', 0), BOX)[2]).toBe(0.5);
    expect(framePoint(at(500, 275, 'pen', 0.001), BOX)[2]).toBe(0.05);
    // A pen reporting 0 (no pressure sensor) draws at half.
    expect(framePoint(at(500, 275, 'pen', 0), BOX)[2]).toBe(0.5);
    expect(framePoint(at(100 + 800 * 3, 50 - 450 * 2), BOX)).toEqual([1.5, -0.5, 0.5]);
  });
});

describe('PalmGuard', () => {
  it('lets a finger draw while no pen has been used', () => {
    const guard = new PalmGuard();
    expect(guard.down({ pointerId: 1, pointerType: 'touch' })).toBe('draw');
    guard.up({ pointerId: 1 });
    expect(guard.fingers).toBe(0);
    expect(guard.down({ pointerId: 2, pointerType: 'mouse' })).toBe('draw');
  });

  it('ignores a resting palm once a pen has drawn, and the pen still draws with the palm down', () => {
    const guard = new PalmGuard();
    expect(guard.down({ pointerId: 5, pointerType: 'pen' })).toBe('draw');
    guard.up({ pointerId: 5 });
    expect(guard.down({ pointerId: 9, pointerType: 'touch' })).toBe('ignore');
    expect(guard.down({ pointerId: 5, pointerType: 'pen' })).toBe('draw');
    expect(guard.fingers).toBe(1);
  });

  it('makes a second finger a gesture (pinch and pan), and counts fingers as they lift', () => {
    const guard = new PalmGuard();
    expect(guard.down({ pointerId: 1, pointerType: 'touch' })).toBe('draw');
    expect(guard.down({ pointerId: 2, pointerType: 'touch' })).toBe('gesture');
    expect(guard.fingers).toBe(2);
    guard.up({ pointerId: 2 });
    guard.up({ pointerId: 1 });
    expect(guard.fingers).toBe(0);
    // After a pen, two fingers still pinch.
    guard.down({ pointerId: 3, pointerType: 'pen' });
    expect(guard.down({ pointerId: 4, pointerType: 'touch' })).toBe('ignore');
    expect(guard.down({ pointerId: 6, pointerType: 'touch' })).toBe('gesture');
  });
});

describe('finishStroke', () => {
  it('keeps every point of a freehand stroke, only the ends of a shape, and a brush translucent', () => {
    const points: Array<[number, number, number]> = [
      [0.1, 0.1, 0.5],
      [0.3, 0.2, 0.5],
      [0.6, 0.4, 0.5],
    ];
    expect(finishStroke({ id: 'a', tool: 'pencil', colour: '#111111', size: 4, points }).points).toHaveLength(3);
    expect(finishStroke({ id: 'b', tool: 'arrow', colour: '#111111', size: 4, points }).points).toEqual([
      points[0],
      points[2],
    ]);
    expect(finishStroke({ id: 'c', tool: 'brush', colour: '#111111', size: 4, points }).opacity).toBe(0.85);
    expect(finishStroke({ id: 'd', tool: 'pen', colour: '#111111', size: 4, points })).not.toHaveProperty('opacity');
    expect(finishStroke({ id: 'e', tool: 'text', colour: '#111111', size: 4, points, text: 'Pan' }).text).toBe('Pan');
  });
});

describe('undo and redo', () => {
  const drawn = (changes: DrawingChange[], drawing: Drawing = emptyDrawing(null)) =>
    applyGesture(drawing, EMPTY_HISTORY, changes);

  it('undoes a stroke by removing it, and redoes it by adding it back, each as changes to save', () => {
    const first = drawn([{ op: 'add_stroke', layer: 'ink', stroke: stroke('s1') }]);
    expect(first.drawing.layers.find((layer) => layer.name === 'ink')!.strokes).toHaveLength(1);
    const undone = stepHistory(first.drawing, first.history, 'undo')!;
    expect(undone.changes).toEqual([{ op: 'remove_stroke', stroke_id: 's1' }]);
    expect(undone.drawing.layers.find((layer) => layer.name === 'ink')!.strokes).toHaveLength(0);
    const redone = stepHistory(undone.drawing, undone.history, 'redo')!;
    expect(redone.changes).toEqual([{ op: 'add_stroke', layer: 'ink', stroke: stroke('s1') }]);
    expect(redone.history.undone).toEqual([]);
    expect(stepHistory(redone.drawing, redone.history, 'redo')).toBeNull();
  });

  it('takes back a layer setting to what it was, and a clear by adding every unlocked stroke back', () => {
    const base = drawn([
      { op: 'add_stroke', layer: 'rough', stroke: stroke('r1') },
      { op: 'add_stroke', layer: 'ink', stroke: stroke('i1') },
    ]).drawing;
    expect(inverseOf(base, [{ op: 'set_layer', layer: 'rough', opacity: 0.2 }])).toEqual([
      { op: 'set_layer', layer: 'rough', opacity: 0.6 },
    ]);
    expect(inverseOf(base, [{ op: 'clear' }])).toEqual([
      { op: 'add_stroke', layer: 'rough', stroke: stroke('r1') },
      { op: 'add_stroke', layer: 'ink', stroke: stroke('i1') },
    ]);
    expect(inverseOf(base, [{ op: 'set_picture_under', url: '/assets/x' }])).toEqual([
      { op: 'set_picture_under', url: null },
    ]);
  });

  it('forgets what was undone once a new gesture is made', () => {
    const first = drawn([{ op: 'add_stroke', layer: 'ink', stroke: stroke('s1') }]);
    const undone = stepHistory(first.drawing, first.history, 'undo')!;
    const next = applyGesture(undone.drawing, undone.history, [
      { op: 'add_stroke', layer: 'ink', stroke: stroke('s2') },
    ]);
    expect(next.history.undone).toEqual([]);
    expect(next.history.done).toHaveLength(1);
  });
});

describe('layerRefusal and newStrokeId', () => {
  it('refuses a locked or hidden layer, naming it', () => {
    const drawing = emptyDrawing(null);
    expect(layerRefusal(drawing, 'ink')).toBeNull();
    const locked = applyGesture(drawing, EMPTY_HISTORY, [{ op: 'set_layer', layer: 'ink', locked: true }]).drawing;
    expect(layerRefusal(locked, 'ink')).toMatch(/ink layer is locked/);
    const hidden = applyGesture(drawing, EMPTY_HISTORY, [{ op: 'set_layer', layer: 'tone', visible: false }]).drawing;
    expect(layerRefusal(hidden, 'tone')).toMatch(/tone layer is hidden/);
  });

  it('makes stroke ids the contract takes, different each time', () => {
    const ids = Array.from({ length: 50 }, () => newStrokeId('https://idp.example|ana.müller'));
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
  });
});

describe('tilt', () => {
  const box = { left: 0, top: 0, width: 100, height: 100 };
  it('broadens a pencil or brush laid over: the tilt raises the pressure kept, up to its own share', () => {
    const upright = framePoint(
      { clientX: 50, clientY: 50, pressure: 0.4, pointerType: 'pen', tiltX: 0, tiltY: 0 },
      box,
      true,
    );
    const laid = framePoint(
      { clientX: 50, clientY: 50, pressure: 0.4, pointerType: 'pen', tiltX: 45, tiltY: -10 },
      box,
      true,
    );
    const flat = framePoint(
      { clientX: 50, clientY: 50, pressure: 0.8, pointerType: 'pen', tiltX: 0, tiltY: 90 },
      box,
      true,
    );
    expect([upright[2], laid[2], flat[2]]).toEqual([0.4, 0.6, 1]);
  });

  it('leaves the pen, a finger and a tool without shading as pressed', () => {
    const at = { clientX: 50, clientY: 50, pressure: 0.4, tiltX: 60, tiltY: 0 };
    expect(framePoint({ ...at, pointerType: 'pen' }, box, false)[2]).toBe(0.4);
    expect(framePoint({ ...at, pointerType: 'touch' }, box, true)[2]).toBe(0.4);
  });
});
