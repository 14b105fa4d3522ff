import type { DragEvent } from 'react';
import { BubbleIcon } from '../../ui/icons.js';
import { SHOT_ANGLES, SHOT_MOVEMENTS, SHOT_SIZES, SHOT_STATUSES } from '../../../../src/contract/index.js';
import { safeThumbnailUrl } from '../../cards/media-url.js';
import { useCanvas, useMediaOrigin } from '../../ui/canvas-context.js';
import type { Shot } from '../../model/shots.js';
import { openThreadCount, threadCountLabel, useReview } from '../../model/review.js';
import { ReviewStateControl } from '../review/ReviewControls.js';

/**
 * One shot of the shot list (ShotList.tsx): its number (with the script's flag), picture and fields, each
 * saved when left; dragged onto another row to take its place, or moved with its buttons.
 */

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const numberOr = (value: unknown) => (typeof value === 'number' ? String(value) : '');
const NOT_A_NUMBER = Symbol('not a number');

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
  picture: pictureUrl,
  elements,
  generate,
  boardId,
  comment,
}: {
  boardId: string;
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
  /** The shot's picture: its own, or its generation card's latest. */
  picture: string | undefined;
  /** The names of the elements in the shot (its cast, location and mentions). */
  elements: string[];
  generate: () => void;
}) {
  const origin = useMediaOrigin();
  const { controller } = useCanvas();
  const picture = safeThumbnailUrl(pictureUrl, origin);
  const number = shot.number ?? String(index + 1);
  const threads = useReview((data) => openThreadCount(data.threads, boardId, shot.id), 0);
  const input = (
    field: string,
    label: string,
    value: string,
    parse: (raw: string) => unknown = (raw) => raw.trim(),
  ) => (
    <td>
      <input
        aria-label={`${label} of shot ${number}`}
        defaultValue={value}
        key={value}
        disabled={!editable}
        onBlur={(event) => {
          if (event.target.value === value) return;
          const parsed = parse(event.target.value);
          if (parsed === NOT_A_NUMBER) {
            controller.notify(
              'warning',
              `${label} of shot ${number}: "${event.target.value}" is not a number; it was not saved.`,
            );
            event.target.value = value;
            return;
          }
          save({ [field]: parsed });
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') (event.target as HTMLInputElement).blur();
        }}
      />
    </td>
  );
  const choice = (field: string, label: string, labels: Record<string, string>) => (
    <td>
      <select
        aria-label={`${label} of shot ${number}`}
        value={text(shot[field])}
        disabled={!editable}
        onChange={(event) => save({ [field]: event.target.value })}
      >
        <option value="">–</option>
        {Object.entries(labels).map(([key, name]) => (
          <option key={key} value={key}>
            {key === name ? key : field === 'shotSize' ? key : name}
          </option>
        ))}
      </select>
    </td>
  );
  // A number field left empty clears it; anything else that is not a number is refused, saying so (never cleared).
  const number_ = (raw: string): number | undefined | typeof NOT_A_NUMBER => {
    if (raw.trim() === '') return undefined;
    const value = Number(raw.trim().replace(',', '.'));
    return Number.isFinite(value) ? value : NOT_A_NUMBER;
  };
  return (
    <tr
      data-shot-id={shot.id}
      draggable={reorderable}
      onDragStart={(event: DragEvent) => event.dataTransfer.setData(DRAG_TYPE, shot.id)}
      onDragOver={(event: DragEvent) => {
        if (reorderable && event.dataTransfer.types.includes(DRAG_TYPE)) event.preventDefault();
      }}
      onDrop={(event: DragEvent) => {
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
      <td className="shot-review">
        <ReviewStateControl nodeId={boardId} shotId={shot.id} name={`shot ${number}`} />
        <button
          type="button"
          className={threads > 0 ? 'button-small thread-count thread-count-open' : 'button-small thread-count'}
          title="Comment on this shot"
          onClick={comment}
        >
          <BubbleIcon />
          <span aria-hidden="true">{threads}</span>
          <span className="visually-hidden">
            Comment on shot {number} ({threadCountLabel(threads)})
          </span>
        </button>
      </td>
      <td>
        {picture ? (
          <img className="shot-thumb" src={picture} alt="" loading="lazy" />
        ) : (
          <span className="muted">–</span>
        )}
        {editable ? (
          <button
            type="button"
            className="button-small"
            aria-label={`Generate a picture for shot ${number}`}
            title="Make the shot's picture from its words, with the pictures of its elements"
            onClick={generate}
          >
            Generate
          </button>
        ) : null}
      </td>
      {input('scene', 'Scene', text(shot.scene))}
      {choice('shotSize', 'Shot size', SHOT_SIZES)}
      {choice('angle', 'Angle', SHOT_ANGLES)}
      {choice('movement', 'Movement', SHOT_MOVEMENTS)}
      {input('lensMm', 'Lens', numberOr(shot.lensMm), number_)}
      {input(
        'durationMs',
        'Duration',
        typeof shot.durationMs === 'number' ? String(shot.durationMs / 1000) : '',
        (raw) => {
          const seconds = number_(raw);
          return typeof seconds === 'number' ? Math.round(seconds * 1000) : seconds;
        },
      )}
      {input('caption', 'Description', text(shot.caption))}
      {input('action', 'Action', text(shot.action))}
      {input('dialogue', 'Dialogue', text(shot.dialogue))}
      {input('cast', 'Cast', Array.isArray(shot.cast) ? shot.cast.map(text).join(', ') : '', (raw) =>
        raw
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      )}
      {input('location', 'Location', text(shot.location))}
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
      {choice('status', 'Status', SHOT_STATUSES)}
      {input('notes', 'Notes', text(shot.notes))}
      <td className="shot-order">
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
