import { useEffect, useMemo, useRef } from 'react';
import { cardPicture } from '../../cards/card-picture.js';
import { safeThumbnailUrl } from '../../cards/media-url.js';
import { useCanvasState, useMediaOrigin } from '../../ui/canvas-context.js';
import { recordOf, titleOf } from '../../model/values.js';

/**
 * "Pick from the canvas" (docs/storyboards.md, "Pictures on shots"): the canvas's pictures (uploads, image cards, runs'
 * latest results) as a list of buttons, each named by its card; picking one makes it the shot's picture. A modal
 * dialog: focus starts on the first picture, Tab stays inside, Escape or Cancel closes it and gives focus back.
 */
export function PicturePicker({
  shotLabel,
  onPick,
  onClose,
}: {
  /** "shot 2": the dialog says which shot it picks for. */
  shotLabel: string;
  onPick: (url: string, cardTitle: string) => void;
  onClose: () => void;
}) {
  const layout = useCanvasState((state) => state.layout);
  const states = useCanvasState((state) => state.states);
  const origin = useMediaOrigin();
  const dialog = useRef<HTMLDivElement>(null);
  const pictures = useMemo(
    () =>
      layout.nodes.flatMap((node) => {
        const url = cardPicture(node, states[node.id]);
        return url ? [{ id: node.id, url, title: titleOf(node.type, recordOf(node.data), node.id) }] : [];
      }),
    [layout.nodes, states],
  );

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>('button')?.focus();
    return () => opener?.focus();
  }, []);

  return (
    <div className="picture-picker-backdrop">
      <div
        ref={dialog}
        className="picture-picker"
        role="dialog"
        aria-modal="true"
        aria-labelledby="picture-picker-title"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onClose();
          } else if (event.key === 'Tab') {
            // Focus stays in the dialog: past the last button it comes back to the first, and the other way.
            const buttons = [...(dialog.current?.querySelectorAll<HTMLElement>('button') ?? [])];
            const at = buttons.indexOf(document.activeElement as HTMLElement);
            const next = event.shiftKey ? (at <= 0 ? buttons.length - 1 : at - 1) : (at + 1) % buttons.length;
            event.preventDefault();
            buttons[next]?.focus();
          }
        }}
      >
        <h2 id="picture-picker-title">Pick a picture for {shotLabel}</h2>
        {pictures.length === 0 ? (
          <p className="muted">This canvas has no pictures yet: upload one, or generate one.</p>
        ) : (
          <ul className="picture-picker-list">
            {pictures.map((picture) => (
              <li key={picture.id}>
                <button type="button" onClick={() => onPick(picture.url, picture.title)}>
                  <img src={safeThumbnailUrl(picture.url, origin)} alt="" loading="lazy" />
                  <span>{picture.title}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="button-small" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
