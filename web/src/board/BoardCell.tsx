import { useDraggable, useDroppable } from '@dnd-kit/core';
import { memo, type CSSProperties, type DragEvent, type MouseEvent } from 'react';
import type { GuideName } from '../../../src/shared/frame-shape.js';
import { FrameGuides } from '../cards/frame-guides.js';
import { safeThumbnailUrl } from '../cards/media-url.js';
import { FrameMarks } from '../cards/review-marks.js';
import { ShotMarks } from '../cards/shot-marks.js';
import type { BoardField } from '../model/board-page.js';
import { filesIn } from '../model/shot-pictures.js';
import type { Shot } from '../model/shots.js';
import { formatMs, num } from '../model/values.js';
import { ShotField, shotFieldLabel, type ShotFieldName } from '../ui/shot-fields.js';
import { Tooltip } from '../ui/tooltip.js';

/**
 * One shot of the board page's grid (BoardGrid.tsx): its frame, large, in the board's shape, with its number, picture
 * and marks drawn over it as on the board's card (the notes layer, review pins, the framing guides chosen), and under it
 * the fields the person chose, edited in place. The frame is the shot's handle: a click selects it, a drag moves it
 * (with the other selected shots), a double-click or Enter opens the frame editor, a picture file dropped on it
 * becomes its picture.
 */

export interface CellProps {
  boardId: string;
  shot: Shot;
  index: number;
  count: number;
  number: string;
  /** The shot's picture: its own, else its generation card's latest. */
  picture: string | undefined;
  origin: string | null;
  aspect: number;
  guides: readonly GuideName[];
  fields: readonly BoardField[];
  editable: boolean;
  selected: boolean;
  /** The one frame Tab reaches (a roving focus: the arrow keys move it). */
  tabbable: boolean;
  /** Part of the block being dragged. */
  moving: boolean;
  /** Where the dragged block would land: before or after this shot. */
  drop: 'before' | 'after' | null;
  onFrameClick: (shotId: string, event: MouseEvent) => void;
  onFrameFocus: (shotId: string) => void;
  onOpen: (shotId: string) => void;
  onInsertAfter: (index: number) => void;
  onFiles: (shotId: string, number: string, files: File[]) => void;
  save: (shotId: string, fields: Record<string, unknown>) => void;
}

const CAMERA: readonly ShotFieldName[] = ['shotSize', 'angle', 'movement'];

export const BoardCell = memo(function BoardCell(props: CellProps) {
  const { shot, number, editable, fields } = props;
  const draggable = useDraggable({ id: shot.id, disabled: !editable });
  const droppable = useDroppable({ id: shot.id, disabled: !editable });
  const picture = safeThumbnailUrl(props.picture, props.origin);
  const duration = formatMs(num(shot.durationMs));
  const save = (changed: Record<string, unknown>) => props.save(shot.id, changed);
  const acceptFiles = (event: DragEvent) => {
    if (!editable || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const field = (name: ShotFieldName) => (
    <ShotField shot={shot} field={name} number={number} editable={editable} save={save} className="board-field" />
  );
  return (
    <div
      role="listitem"
      aria-setsize={props.count}
      aria-posinset={props.index + 1}
      className={`board-cell${props.drop ? ` board-drop-${props.drop}` : ''}`}
      data-shot-id={shot.id}
      // A field of this shot being edited makes it the focused shot: the focus comes back to its frame after.
      onFocus={() => props.onFrameFocus(shot.id)}
    >
      <figure
        ref={(element) => {
          draggable.setNodeRef(element);
          droppable.setNodeRef(element);
        }}
        {...(editable ? draggable.listeners : {})}
        role="button"
        aria-pressed={props.selected}
        tabIndex={props.tabbable ? 0 : -1}
        data-frame-index={props.index}
        data-frame-id={shot.id}
        className={`board-frame${props.selected ? ' board-frame-selected' : ''}${props.moving ? ' board-frame-moving' : ''}${shot.status === 'omitted' ? ' frame-omitted' : ''}`}
        onClick={(event) => props.onFrameClick(shot.id, event)}
        onDoubleClick={() => props.onOpen(shot.id)}
        onDragOver={acceptFiles}
        onDrop={(event) => {
          const files = filesIn(event.dataTransfer);
          if (!editable || files.length === 0) return;
          event.preventDefault();
          props.onFiles(shot.id, number, files);
        }}
      >
        <div
          className="frame-picture board-picture"
          style={{ '--frame-aspect': String(props.aspect) } as CSSProperties}
        >
          {picture ? (
            <img src={picture} alt="" loading="lazy" draggable={false} />
          ) : (
            <div className="frame-empty" aria-hidden="true">
              {number}
            </div>
          )}
          <ShotMarks marks={shot.marks} aspect={props.aspect} />
          {props.guides.length > 0 ? <FrameGuides guides={props.guides} aspect={props.aspect} /> : null}
          <FrameMarks nodeId={props.boardId} shotId={shot.id} />
        </div>
        <figcaption>
          <strong className="board-number">
            <span className="visually-hidden">Shot </span>
            {number}
          </strong>
          {duration ? <span className="muted"> · {duration}</span> : null}
        </figcaption>
      </figure>
      {editable ? (
        <Tooltip content="Insert a shot here (I)">
          <button
            type="button"
            className="board-insert"
            tabIndex={-1}
            aria-label={`Insert a shot after shot ${number}`}
            onClick={() => props.onInsertAfter(props.index)}
          >
            +
          </button>
        </Tooltip>
      ) : null}
      {fields.length > 0 ? (
        <div className="board-fields">
          {fields.map((name) =>
            name === 'camera' ? (
              <div key={name} className="board-field-row board-field-camera">
                <span className="board-field-label" aria-hidden="true">
                  Camera
                </span>
                {CAMERA.map((part) => (
                  <span key={part}>{field(part)}</span>
                ))}
              </div>
            ) : (
              <label key={name} className="board-field-row">
                <span className="board-field-label" aria-hidden="true">
                  {shotFieldLabel(name)}
                  {name === 'durationMs' ? ' (s)' : ''}
                </span>
                {field(name)}
              </label>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
});
