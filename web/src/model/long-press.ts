/**
 * A long press (docs/ui.md, "Tablet and pen"): a finger held still for about half a second. A tablet has no right
 * button and no double-click a person can rely on, so a long press on a frame of a board's card does what a
 * double-click does with a mouse: it opens the shot's frame editor. Only a touch counts (a pen held down is drawing, a
 * mouse has its buttons); moving more than a few pixels, lifting, or a second finger (a pinch) cancels it.
 */

export const LONG_PRESS_MS = 500;
/** How far a finger may wander (CSS pixels) and still be held still: a fingertip is never perfectly steady. */
export const LONG_PRESS_SLOP = 10;

interface PointerLike {
  pointerId: number;
  pointerType: string;
  clientX: number;
  clientY: number;
}

export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const WINDOW_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class LongPress {
  private held: { pointerId: number; x: number; y: number; timer: unknown } | null = null;
  private readonly fingers = new Set<number>();

  constructor(
    private readonly fire: () => void,
    private readonly timers: Timers = WINDOW_TIMERS,
  ) {}

  down(pointer: PointerLike): void {
    if (pointer.pointerType !== 'touch') return;
    this.fingers.add(pointer.pointerId);
    this.cancel();
    if (this.fingers.size > 1) return;
    const timer = this.timers.set(() => {
      this.held = null;
      this.fire();
    }, LONG_PRESS_MS);
    this.held = { pointerId: pointer.pointerId, x: pointer.clientX, y: pointer.clientY, timer };
  }

  move(pointer: PointerLike): void {
    const held = this.held;
    if (!held || held.pointerId !== pointer.pointerId) return;
    if (Math.hypot(pointer.clientX - held.x, pointer.clientY - held.y) > LONG_PRESS_SLOP) this.cancel();
  }

  up(pointer: { pointerId: number }): void {
    this.fingers.delete(pointer.pointerId);
    if (this.held?.pointerId === pointer.pointerId) this.cancel();
  }

  /** Whether a press is being held now (a test's and the page's way to know a timer runs). */
  get pending(): boolean {
    return this.held !== null;
  }

  cancel(): void {
    if (this.held) this.timers.clear(this.held.timer);
    this.held = null;
  }
}
