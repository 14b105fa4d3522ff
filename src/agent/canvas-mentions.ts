import type { CanvasRef } from '../contract/index.js';
import type { Actor } from '../store/records.js';
import type { Store } from '../store/store.js';

/**
 * The other canvases a person's message asks about: canvases of their projects that the text names
 * by id or by title. Only those join the turn's reach beside the conversation's own canvas, so text written on one
 * canvas (a prompt injection in a note) cannot make the assistant read another one the person never mentioned.
 */

/** At most this many other canvases join one turn. */
export const MAX_MENTIONED_CANVASES = 5;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the text names `name` as a whole word (or phrase), ignoring case. */
function names(text: string, name: string): boolean {
  const trimmed = name.trim();
  if (trimmed.length < 3) return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}_-])${escape(trimmed)}($|[^\\p{L}\\p{N}_-])`, 'iu').test(text);
}

export async function mentionedCanvases(
  store: Store,
  person: Actor,
  text: string,
  own: CanvasRef,
): Promise<CanvasRef[]> {
  const found: CanvasRef[] = [];
  for (const membership of await store.directory.membershipsOf(person)) {
    for (const canvas of await store.directory.canvases(membership.projectId)) {
      if (canvas.projectId === own.projectId && canvas.canvasId === own.canvasId) continue;
      if (names(text, canvas.canvasId) || (canvas.title !== null && names(text, canvas.title))) {
        found.push({ projectId: canvas.projectId, canvasId: canvas.canvasId });
        if (found.length === MAX_MENTIONED_CANVASES) return found;
      }
    }
  }
  return found;
}
