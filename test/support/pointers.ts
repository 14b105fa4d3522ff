import type { Page } from 'playwright-core';

/**
 * Synthetic pointer events for the drawing tests (Chromium carries pointerType and pressure on them): a pen, a finger
 * or a mouse, positioned in fractions of an element's box.
 */

export interface Touch {
  type: 'pointerdown' | 'pointermove' | 'pointerup';
  pointerId: number;
  pointerType: 'pen' | 'touch';
  /** In fractions of the element's box. */
  x: number;
  y: number;
  pressure?: number;
}

export type Box = { x: number; y: number; width: number; height: number };

/**
 * Dispatches pointer events on an element in order, positioned in fractions of its box as it is now, or of `fixed`
 * (a gesture that goes on after the element moved under the fingers stays where the fingers are).
 */
export async function pointers(page: Page, selector: string, events: Touch[], fixed?: Box) {
  await page.locator(selector).evaluate(
    (element, { events, fixed }) => {
      const Pointer = (globalThis as unknown as { PointerEvent: new (type: string, init: object) => Event })
        .PointerEvent;
      const now = element.getBoundingClientRect();
      const box = fixed ? { left: fixed.x, top: fixed.y, width: fixed.width, height: fixed.height } : now;
      for (const event of events)
        element.dispatchEvent(
          new Pointer(event.type, {
            clientX: box.left + event.x * box.width,
            clientY: box.top + event.y * box.height,
            pressure: event.type === 'pointerup' ? 0 : (event.pressure ?? 0.5),
            pointerType: event.pointerType,
            pointerId: event.pointerId,
            isPrimary: event.pointerId % 2 === 1,
            bubbles: true,
            cancelable: true,
            button: 0,
            buttons: event.type === 'pointerup' ? 0 : 1,
          }),
        );
    },
    { events, fixed },
  );
}

/** A pointer's stroke through `points` (fractions of the element), pressure going from `pressure[0]` to `[1]`. */
export function strokeThrough(
  points: ReadonlyArray<readonly [number, number]>,
  options: { pointerType?: Touch['pointerType']; pointerId?: number; pressure?: [number, number] } = {},
): Touch[] {
  const pointerType = options.pointerType ?? 'pen';
  const pointerId = options.pointerId ?? 7;
  const [from, to] = options.pressure ?? [0.2, 0.9];
  return points.map(([x, y], index): Touch => {
    const share = points.length > 1 ? index / (points.length - 1) : 0;
    const type = index === 0 ? 'pointerdown' : index === points.length - 1 ? 'pointerup' : 'pointermove';
    return { type, pointerId, pointerType, x, y, pressure: from + (to - from) * share };
  });
}

/** A straight line across the frame at height `y`, as `steps` + 1 points. */
export const line = (y: number, from = 0.2, to = 0.8, steps = 24): Array<[number, number]> =>
  Array.from({ length: steps + 1 }, (_, step) => [from + ((to - from) * step) / steps, y]);
