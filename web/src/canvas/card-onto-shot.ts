import { cardPicture } from '../cards/card-picture.js';
import type { CanvasController } from '../model/canvas-state.js';
import { setShotPicture } from '../model/shots.js';
import { titleOf, recordOf } from '../model/values.js';

/**
 * A card of the canvas dragged onto a board's frame (docs/storyboards.md, "Pictures on shots"). React Flow moves cards
 * with pointer events, not HTML5 drags, so no frame hears a drop: when the drag stops, the elements under the pointer
 * say whether it was let go over a frame (a `[data-shot-id][data-board-id]`, on the board's card or a row of the shot
 * list), and that shot takes the card's picture in one revision while the card goes back where it was.
 */

export interface ShotPlace {
  boardId: string;
  shotId: string;
}

/** The frame under the pointer where a drag stopped, on another card than the one dragged; null over none. */
export function shotUnderPointer(event: MouseEvent | TouchEvent, draggedId: string): ShotPlace | null {
  const point = pointOf(event);
  if (!point) return null;
  for (const element of document.elementsFromPoint(point.x, point.y)) {
    const frame = element.closest<HTMLElement>('[data-shot-id][data-board-id]');
    if (!frame) continue;
    const boardId = frame.dataset.boardId!;
    if (boardId === draggedId) return null;
    return { boardId, shotId: frame.dataset.shotId! };
  }
  return null;
}

/** Where a mouse or touch drag stopped, in the page. */
function pointOf(event: MouseEvent | TouchEvent): { x: number; y: number } | null {
  if ('clientX' in event) return { x: event.clientX, y: event.clientY };
  const touch = event.changedTouches[0];
  return touch ? { x: touch.clientX, y: touch.clientY } : null;
}

/**
 * Gives the shot the card's picture (one revision). Answers false when the card shows no picture (a note, a film):
 * then the drag is an ordinary move.
 */
export function cardOntoShot(controller: CanvasController, cardId: string, place: ShotPlace): boolean {
  const { layout, states } = controller.store.getState();
  const node = layout.nodes.find((candidate) => candidate.id === cardId);
  const picture = node ? cardPicture(node, states[cardId]) : undefined;
  if (!node || !picture) return false;
  const name = titleOf(node.type, recordOf(node.data), node.id);
  void controller.submit(
    setShotPicture(
      place.boardId,
      place.shotId,
      picture,
      `Picture from ${name}`,
      () => controller.store.getState().lastAuthor,
      () => controller.store.getState().states,
    ),
  );
  return true;
}
