import { useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { BubbleIcon } from '../../ui/icons.js';
import { safeThumbnailUrl } from '../../cards/media-url.js';
import { useMediaOrigin } from '../../ui/canvas-context.js';
import { ShotField, type ShotFieldName } from '../../ui/shot-fields.js';
import { earlierPicturesOf, type Shot } from '../../model/shots.js';
import { filesIn } from '../../model/shot-pictures.js';
import { useFrameEditor } from '../../model/frame-editor.js';
import { openThreadCount, threadCountLabel, useReview } from '../../model/review.js';
import { CompareDialog } from '../../ui/compare-dialog.js';
import { Tooltip } from '../../ui/tooltip.js';
import { ReviewStateControl } from '../review/ReviewControls.js';
import { ShotMove } from './ShotMove.js';
import type { ShotColumn } from './shot-columns.js';

/**
 * One shot of the shot list (ShotList.tsx): its number (with the script's flag), picture and fields, each
 * saved when left; dragged onto another row to take its place, or moved with its buttons. Its picture comes from a
 * file dropped on the row or pasted while the row has focus, or from the Picture cell: Upload, Pick from the canvas,
 * Draw, Generate, and its earlier pictures to pick back (docs/storyboards.md, "Pictures on shots").
 */

const text = (value: unknown) => (typeof value === 'string' ? value : '');

const DRAG_TYPE = 'application/x-canvas-mcp-shot';

export function ShotRow({
  shot,
  flag,
  index,
  count,
  editable,
  reorderable,
  save,
  move,
  dropHere,
  remove,
  continueFromPrevious,
  picture: pictureUrl,
  elements,
  generate,
  boardId,
  comment,
  putFiles,
  pick,
  pickEarlier,
  sending,
  columns,
}: {
  boardId: string;
  /** The columns shown (the Columns menu): the number and the order buttons always are. */
  columns: ReadonlySet<ShotColumn>;
  /** Opens the Comments tab on this shot. */
  comment: () => void;
  shot: Shot;
  flag: string | null;
  index: number;
  count: number;
  editable: boolean;
  reorderable: boolean;
  save: (fields: Record<string, unknown>) => void;
  move: (toIndex: number) => void;
  dropHere: (draggedId: string) => void;
  remove: () => void;
  /** Takes the cast, location, lens and look of the shot before (docs/storyboards.md, "Continuity"). */
  continueFromPrevious: () => void;
  /** The shot's picture: its own, or its generation card's latest. */
  picture: string | undefined;
  /** The names of the elements in the shot (its cast, location and mentions). */
  elements: string[];
  generate: () => void;
  /** Files dropped, pasted or uploaded onto this shot (one becomes its picture; several fill the board). */
  putFiles: (files: File[]) => void;
  /** Opens "Pick from the canvas" for this shot. */
  pick: () => void;
  /** Makes an earlier picture the shot's picture again. */
  pickEarlier: (url: string) => void;
  /** Its files are on their way. */
  sending: boolean;
}) {
  const origin = useMediaOrigin();
  const picture = safeThumbnailUrl(pictureUrl, origin);
  const number = shot.number ?? String(index + 1);
  const threads = useReview((data) => openThreadCount(data.threads, boardId, shot.id), 0);
  const openEditor = useFrameEditor((state) => state.openEditor);
  const uploader = useRef<HTMLInputElement>(null);
  const earlier = earlierPicturesOf(shot);
  const [comparing, setComparing] = useState<{ url: string; position: number } | null>(null);
  const field = (name: ShotFieldName) =>
    columns.has(name) ? (
      <td className={`shot-cell-${name}`}>
        <ShotField shot={shot} field={name} number={number} editable={editable} save={save} />
      </td>
    ) : null;
  /** Files a drop or paste carries become the shot's picture, and go nowhere else (no loose card on the canvas). */
  const takeFiles = (event: DragEvent | ClipboardEvent) => {
    const files = filesIn('dataTransfer' in event ? event.dataTransfer : event.clipboardData);
    if (!editable || files.length === 0) return false;
    event.preventDefault();
    event.stopPropagation();
    putFiles(files);
    return true;
  };
  return (
    <tr
      data-shot-id={shot.id}
      data-board-id={boardId}
      draggable={reorderable}
      // Focusable: a focused row is the selected shot a pasted picture goes to.
      tabIndex={editable ? -1 : undefined}
      aria-busy={sending || undefined}
      onDragStart={(event: DragEvent) => event.dataTransfer.setData(DRAG_TYPE, shot.id)}
      onDragOver={(event: DragEvent) => {
        if (reorderable && event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault();
        else if (editable && event.dataTransfer.types.includes('Files')) {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }
      }}
      onPaste={(event: ClipboardEvent) => void takeFiles(event)}
      onDrop={(event: DragEvent) => {
        if (takeFiles(event)) return;
        if (!reorderable || !event.dataTransfer.types.includes(DRAG_TYPE)) return;
        event.preventDefault();
        const dragged = event.dataTransfer.getData(DRAG_TYPE);
        if (dragged && dragged !== shot.id) dropHere(dragged);
      }}
      className={text(shot.status) === 'omitted' ? 'shot-omitted' : undefined}
    >
      <th scope="row" className="shot-number">
        {number}
        {flag ? (
          <span className="shot-flag" role="img" aria-label={`Script changed: ${flag}`} title={flag}>
            {' '}
            ⚠
          </span>
        ) : null}
      </th>
      {columns.has('review') ? (
        <td className="shot-review">
          <ReviewStateControl nodeId={boardId} shotId={shot.id} name={`shot ${number}`} />
          <Tooltip content="Comment on this shot">
            <button
              type="button"
              className={threads > 0 ? 'button-small thread-count thread-count-open' : 'button-small thread-count'}
              onClick={comment}
            >
              <BubbleIcon />
              <span aria-hidden="true">{threads}</span>
              <span className="visually-hidden">
                Comment on shot {number} ({threadCountLabel(threads)})
              </span>
            </button>
          </Tooltip>
        </td>
      ) : null}
      {columns.has('picture') ? (
        <td className="shot-picture">
          {picture ? (
            <img className="shot-thumb" src={picture} alt="" loading="lazy" />
          ) : (
            <span className="muted">{sending ? 'Uploading…' : '–'}</span>
          )}
          {editable ? (
            <span className="shot-picture-actions">
              <button
                type="button"
                className="button-small"
                aria-label={`Upload a picture for shot ${number}`}
                title="A picture from your computer (or drop one on the row, or paste one)"
                onClick={() => uploader.current?.click()}
              >
                Upload
              </button>
              <input
                ref={uploader}
                type="file"
                hidden
                accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
                aria-label={`Picture for shot ${number}`}
                onChange={(event) => {
                  const files = [...(event.target.files ?? [])];
                  event.target.value = '';
                  if (files.length > 0) putFiles(files);
                }}
              />
              <button
                type="button"
                className="button-small"
                aria-label={`Pick from the canvas for shot ${number}`}
                title="One of the canvas's pictures: an upload, an image, a run's result"
                onClick={pick}
              >
                Pick
              </button>
              <button
                type="button"
                className="button-small"
                aria-label={`Draw shot ${number}`}
                title="Open the frame editor on this shot"
                onClick={() => openEditor({ boardId, shotId: shot.id })}
              >
                Draw
              </button>
              <button
                type="button"
                className="button-small"
                aria-label={`Generate a picture for shot ${number}`}
                title="Make the shot's picture from its words, with the pictures of its elements"
                onClick={generate}
              >
                Generate
              </button>
            </span>
          ) : null}
          {earlier.length > 0 ? (
            <details className="earlier-pictures">
              <summary>Earlier pictures ({earlier.length})</summary>
              <ul>
                {earlier.map((url, position) => (
                  <li key={url}>
                    <button
                      type="button"
                      className="earlier-picture"
                      disabled={!editable}
                      aria-label={`Use earlier picture ${position + 1} of shot ${number}`}
                      onClick={() => pickEarlier(url)}
                    >
                      <img className="shot-thumb" src={safeThumbnailUrl(url, origin)} alt="" loading="lazy" />
                    </button>
                    {picture ? (
                      <button
                        type="button"
                        className="button-small"
                        aria-label={`Compare earlier picture ${position + 1} with shot ${number}'s picture`}
                        onClick={() => setComparing({ url: safeThumbnailUrl(url, origin) ?? '', position })}
                      >
                        Compare
                      </button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {comparing && picture ? (
            <CompareDialog
              a={{ url: picture, label: `Shot ${number} now`, kind: 'image' }}
              b={{ url: comparing.url, label: `Earlier picture ${comparing.position + 1}`, kind: 'image' }}
              onClose={() => setComparing(null)}
            />
          ) : null}
        </td>
      ) : null}
      {field('scene')}
      {field('shotSize')}
      {field('angle')}
      {field('movement')}
      {field('lensMm')}
      {columns.has('move') ? (
        <ShotMove move={shot.move} number={number} editable={editable} save={(move) => save({ move })} />
      ) : null}
      {field('durationMs')}
      {field('caption')}
      {field('action')}
      {field('dialogue')}
      {field('cast')}
      {field('location')}
      {field('look')}
      {columns.has('elements') ? (
        <td className="shot-elements" aria-label={`Elements of shot ${number}`}>
          {elements.length > 0 ? (
            elements.map((name) => (
              <span key={name} className="chip">
                {name}
              </span>
            ))
          ) : (
            <span className="muted">–</span>
          )}
        </td>
      ) : null}
      {field('status')}
      {field('notes')}
      <td className="shot-order">
        <button
          type="button"
          className="button-small"
          aria-label={`Continue shot ${number} from the shot before`}
          title="Take the cast, location, lens and look of the shot before"
          disabled={!editable || index === 0}
          onClick={continueFromPrevious}
        >
          Continue
        </button>
        <button
          type="button"
          className="button-small"
          aria-label={`Move shot ${number} up`}
          disabled={!reorderable || index === 0}
          onClick={() => move(index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="button-small"
          aria-label={`Move shot ${number} down`}
          disabled={!reorderable || index === count - 1}
          onClick={() => move(index + 1)}
        >
          ↓
        </button>
        <button
          type="button"
          className="button-small"
          aria-label={`Remove shot ${number}`}
          disabled={!editable}
          onClick={remove}
        >
          ✕
        </button>
      </td>
    </tr>
  );
}
