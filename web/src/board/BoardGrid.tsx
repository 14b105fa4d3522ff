import {
  DndContext,
  DragOverlay,
  MeasuringStrategy,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { dataOf } from '../../../src/contract/index.js';
import { aspectOf } from '../../../src/shared/frame-shape.js';
import { BOARD_FIELDS, FRAME_WIDTH, useBoardPageChoice } from '../model/board-page.js';
import {
  clickSelection,
  dropAnchor,
  focusAfterKey,
  gridColumns,
  NO_SELECTION,
  selectedInOrder,
  stepAnchor,
  type Selection,
} from '../model/board-view.js';
import { useFrameEditor } from '../model/frame-editor.js';
import { useShownGuides } from '../model/guides.js';
import { picturesOntoShots } from '../model/shot-pictures.js';
import {
  addShot,
  boardOf,
  duplicateShots,
  editShot,
  moveShots,
  newShotId,
  removeShots,
  shotPicture,
  type Shot,
} from '../model/shots.js';
import type { Intent } from '../model/canvas-state.js';
import { useCanvas, useCanvasState, useEditable, useMediaOrigin } from '../ui/canvas-context.js';
import { CheckMenu } from '../ui/check-menu.js';
import { BoardCell } from './BoardCell.js';
import { useElementWidth } from './use-element-width.js';

/**
 * The board page's Grid (docs/ui.md, "The board page"): the board's shots as large frames in its shape, in a grid
 * that fills the width (the frame-size slider sets how large), each with the fields the person chose, edited in place.
 * Only the rows on screen are in the page (a board of 300 shots draws a few dozen frames), so scrolling and every
 * edit stay quick. Shots are selected (click, Shift and Ctrl click, the arrow keys), moved by dragging (the selected
 * ones as a block) or with Alt+arrows, inserted, duplicated and deleted; each change is one revision of the board,
 * numbers following in it, through the shot model's intents (model/shots.ts), so the canvas's undo takes it back.
 */

const GAP = 16;
const PADDING = 16;
/** Height of one field's line under a frame, and of the number line: a first guess the rows then measure. */
const FIELD_HEIGHT = 58;
const CAPTION_HEIGHT = 26;

export function BoardGrid({ boardId, title }: { boardId: string; title: string }) {
  const { controller } = useCanvas();
  const editable = useEditable();
  const origin = useMediaOrigin();
  const node = useCanvasState((state) =>
    state.layout.nodes.find((each) => each.id === boardId && each.type === 'storyboardNode'),
  );
  const states = useCanvasState((state) => state.states);
  const shots = useMemo(() => (node ? boardOf(node).shots : []), [node]);
  const order = useMemo(() => shots.map((shot) => shot.id), [shots]);
  const aspect = aspectOf(dataOf(node, 'storyboardNode')?.aspectRatio);
  const guides = useShownGuides();
  const { fields, frameWidth, setFields, setFrameWidth } = useBoardPageChoice();
  const openEditor = useFrameEditor((state) => state.openEditor);

  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [focusId, setFocusId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const focusIndex = focusId !== null && order.includes(focusId) ? order.indexOf(focusId) : -1;
  if (focusIndex >= 0) lastIndex.current = focusIndex;
  // The frame Tab reaches: the focused one, or where the focused one was (it was deleted), or the first.
  const tabbable = focusIndex >= 0 ? focusIndex : Math.min(lastIndex.current, order.length - 1);
  const focusedId = order[tabbable] ?? null;

  const scroller = useRef<HTMLDivElement>(null);
  const width = useElementWidth(scroller);
  const inner = Math.max(0, width - 2 * PADDING);
  const columns = gridColumns(inner, frameWidth, GAP);
  const cellWidth = (inner - (columns - 1) * GAP) / columns;
  const rows = Math.ceil(shots.length / columns);
  const estimate = cellWidth / aspect + CAPTION_HEIGHT + FIELD_HEIGHT * fields.length + GAP;
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimate,
    overscan: 1,
    paddingStart: PADDING,
    paddingEnd: PADDING,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, columns, fields.length, frameWidth]);

  const authors = useCallback(() => controller.store.getState().lastAuthor, [controller]);
  const submit = useCallback((intent: Intent) => void controller.submit(intent), [controller]);

  // Focus follows the shot, not its place: a frame made again elsewhere (moved, or scrolled back) takes it back.
  const pendingFocus = useRef<string | null>(null);
  const gridHasFocus = useRef(false);
  useLayoutEffect(() => {
    const wanted =
      pendingFocus.current ??
      (gridHasFocus.current && !scroller.current?.contains(document.activeElement) ? focusedId : null);
    if (!wanted) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-frame-id="${CSS.escape(wanted)}"]`);
    if (!element) return;
    element.focus({ preventScroll: true });
    pendingFocus.current = null;
  });
  useEffect(() => {
    const away = (event: PointerEvent) => {
      if (!scroller.current?.contains(event.target as Node)) gridHasFocus.current = false;
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, []);

  /** Moves the focus to a shot, scrolling its row into view. */
  const focusShot = (shotId: string) => {
    setFocusId(shotId);
    pendingFocus.current = shotId;
    const index = order.indexOf(shotId);
    if (index >= 0) virtualizer.scrollToIndex(Math.floor(index / columns), { align: 'auto' });
  };

  const chosen = () => selectedInOrder(order, selection, focusedId);
  const insertAfter = useCallback(
    (index: number) => {
      const id = newShotId();
      setFocusId(id);
      pendingFocus.current = id;
      setSelection({ ids: [id], anchor: id });
      submit(addShot(boardId, authors, index, id));
    },
    [boardId, authors, submit],
  );
  const duplicate = () => {
    const ids = chosen();
    if (ids.length > 0) submit(duplicateShots(boardId, ids, authors));
  };
  const remove = () => {
    const ids = chosen();
    if (ids.length === 0) return;
    setSelection(NO_SELECTION);
    submit(removeShots(boardId, ids, authors));
  };
  const moveBy = (step: -1 | 1) => {
    const ids = chosen();
    const anchor = stepAnchor(order, ids, step);
    if (anchor === undefined) return;
    submit(moveShots(boardId, ids, anchor, authors));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // The frames' keys; a field, a button or a menu keeps its own.
    if (target.dataset.frameIndex === undefined) return;
    const index = Number(target.dataset.frameIndex);
    const shotId = order[index];
    if (shotId === undefined) return;
    const toggle = event.ctrlKey || event.metaKey;
    if (event.altKey && ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown'].includes(event.key)) {
      if (editable) moveBy(event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 1);
      event.preventDefault();
      return;
    }
    const next = focusAfterKey(event.key, index, order.length, columns);
    if (next !== null) {
      event.preventDefault();
      const nextId = order[next]!;
      focusShot(nextId);
      if (event.shiftKey)
        setSelection((now) =>
          clickSelection(now.anchor ? now : { ids: [], anchor: shotId }, order, nextId, { shift: true, toggle: false }),
        );
      else if (!toggle) setSelection({ ids: [nextId], anchor: nextId });
      return;
    }
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (toggle && key === 'a') {
      setSelection({ ids: [...order], anchor: shotId });
    } else if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    } else if (key === ' ') {
      setSelection((now) => clickSelection(now, order, shotId, { shift: false, toggle: true }));
    } else if (key === 'Enter') {
      if (editable) openEditor({ boardId, shotId });
    } else if (key === 'Escape') {
      setSelection(NO_SELECTION);
    } else if (key === 'i' && editable) {
      insertAfter(event.shiftKey ? index - 1 : index);
    } else if (key === 'd' && editable) {
      duplicate();
    } else if ((key === 'Delete' || key === 'Backspace') && editable) {
      remove();
    } else if (key === '+' || key === '=') {
      setFrameWidth(frameWidth + FRAME_WIDTH.step);
    } else if (key === '-') {
      setFrameWidth(frameWidth - FRAME_WIDTH.step);
    } else return;
    event.preventDefault();
  };

  // Dragging: the frame held and, when it is selected, the other selected shots with it, as one block.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const [drag, setDrag] = useState<{ moving: string[]; overId: string | null; after: boolean } | null>(null);
  const dragRef = useRef(drag);
  dragRef.current = drag;
  const sideOf = (event: DragMoveEvent | DragEndEvent): { overId: string; after: boolean } | null => {
    const { over, activatorEvent, delta } = event;
    if (!over) return null;
    const x = (activatorEvent as PointerEvent).clientX + delta.x;
    return { overId: String(over.id), after: x > over.rect.left + over.rect.width / 2 };
  };
  const onDragStart = ({ active }: DragStartEvent) => {
    const id = String(active.id);
    const moving = selection.ids.includes(id) ? selectedInOrder(order, selection, id) : [id];
    if (!selection.ids.includes(id)) setSelection({ ids: [id], anchor: id });
    setFocusId(id);
    setDrag({ moving, overId: null, after: false });
  };
  const onDragMove = (event: DragMoveEvent) => {
    const side = sideOf(event);
    setDrag((now) =>
      now && (now.overId !== (side?.overId ?? null) || now.after !== (side?.after ?? false))
        ? { ...now, overId: side?.overId ?? null, after: side?.after ?? false }
        : now,
    );
  };
  const onDragEnd = (event: DragEndEvent) => {
    const moving = dragRef.current?.moving ?? [];
    setDrag(null);
    const side = sideOf(event);
    if (!side || moving.length === 0) return;
    const anchor = dropAnchor(order, moving, side.overId, side.after);
    // Where the block would land: nothing is written when that is where it is.
    const rest = order.filter((id) => !moving.includes(id));
    const at = anchor === null ? rest.length : rest.indexOf(anchor);
    const landed = [...rest.slice(0, at), ...moving, ...rest.slice(at)];
    if (landed.join('\u0000') === order.join('\u0000')) return;
    submit(moveShots(boardId, moving, anchor, authors));
  };

  const onFrameClick = useCallback(
    (shotId: string, event: MouseEvent) => {
      setFocusId(shotId);
      setSelection((now) =>
        clickSelection(now, order, shotId, { shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey }),
      );
    },
    [order],
  );
  const onFrameFocus = useCallback((shotId: string) => {
    gridHasFocus.current = true;
    setFocusId(shotId);
  }, []);
  const onOpen = useCallback(
    (shotId: string) => {
      if (editable) openEditor({ boardId, shotId });
    },
    [editable, openEditor, boardId],
  );
  const save = useCallback(
    (shotId: string, changed: Record<string, unknown>) => submit(editShot(boardId, shotId, changed, authors)),
    [boardId, authors, submit],
  );
  const onFiles = useCallback(
    (shotId: string, number: string, files: File[]) =>
      void picturesOntoShots(
        controller,
        { boardId, shotId: files.length === 1 ? shotId : null, where: `Shot ${number} of ${title}` },
        files,
      ),
    [controller, boardId, title],
  );

  const selectedCount = selection.ids.filter((id) => order.includes(id)).length;
  const moving = new Set(drag?.moving ?? []);
  const numberOf = (shot: Shot, index: number) => shot.number ?? String(index + 1);

  return (
    <section className="board-grid" aria-label="Grid">
      <div className="board-toolbar">
        <CheckMenu label="Fields" options={BOARD_FIELDS} checked={fields} onChange={setFields} />
        <label className="board-size">
          Frame size{' '}
          <input
            type="range"
            min={FRAME_WIDTH.min}
            max={FRAME_WIDTH.max}
            step={FRAME_WIDTH.step}
            value={frameWidth}
            onChange={(event) => setFrameWidth(Number(event.target.value))}
          />
        </label>
        <span className="muted" aria-live="polite">
          {shots.length} {shots.length === 1 ? 'shot' : 'shots'}
          {selectedCount > 0 ? ` · ${selectedCount} selected` : ''}
        </span>
        <span className="spacer" />
        <button
          type="button"
          className="button-small"
          disabled={!editable}
          onClick={() => insertAfter(focusIndex >= 0 ? focusIndex : order.length - 1)}
          title="A new shot after the focused one (I; Shift+I before it)"
        >
          Insert shot
        </button>
        <button
          type="button"
          className="button-small"
          disabled={!editable || shots.length === 0}
          onClick={duplicate}
          title="A copy of each selected shot, after the last of them (D)"
        >
          Duplicate
        </button>
        <button
          type="button"
          className="button-small"
          disabled={!editable || shots.length === 0}
          onClick={remove}
          title="Delete the selected shots (Delete); Ctrl+Z brings them back"
        >
          Delete
        </button>
      </div>
      {shots.length === 0 ? <p className="muted board-empty">This board has no shots yet: insert one.</p> : null}
      <DndContext
        sensors={sensors}
        collisionDetection={pointerWithin}
        measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
        onDragStart={onDragStart}
        onDragMove={onDragMove}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDrag(null)}
      >
        <div
          ref={scroller}
          className="board-grid-scroll"
          onKeyDown={onKeyDown}
          onFocus={() => {
            gridHasFocus.current = true;
          }}
        >
          <div
            role="list"
            aria-label={`Shots of ${title}`}
            className="board-grid-list"
            style={{ height: virtualizer.getTotalSize() }}
          >
            {virtualizer.getVirtualItems().map((row) => (
              <div
                key={row.key}
                role="none"
                data-index={row.index}
                ref={virtualizer.measureElement}
                className="board-row"
                style={{
                  transform: `translateY(${row.start}px)`,
                  gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                  padding: `0 ${PADDING}px ${GAP}px`,
                  columnGap: GAP,
                }}
              >
                {shots.slice(row.index * columns, (row.index + 1) * columns).map((shot, column) => {
                  const index = row.index * columns + column;
                  return (
                    <BoardCell
                      key={shot.id}
                      boardId={boardId}
                      shot={shot}
                      index={index}
                      count={shots.length}
                      number={numberOf(shot, index)}
                      picture={shotPicture(shot, states)}
                      origin={origin}
                      aspect={aspect}
                      guides={guides}
                      fields={fields}
                      editable={editable}
                      selected={selection.ids.includes(shot.id)}
                      tabbable={index === tabbable}
                      moving={moving.has(shot.id)}
                      drop={drag?.overId === shot.id && !moving.has(shot.id) ? (drag.after ? 'after' : 'before') : null}
                      onFrameClick={onFrameClick}
                      onFrameFocus={onFrameFocus}
                      onOpen={onOpen}
                      onInsertAfter={insertAfter}
                      onFiles={onFiles}
                      save={save}
                    />
                  );
                })}
              </div>
            ))}
          </div>
        </div>
        <DragOverlay dropAnimation={null}>
          {drag ? (
            <div className="board-drag-chip">
              {drag.moving.length === 1
                ? `Shot ${numberOf(shots[order.indexOf(drag.moving[0]!)] ?? { id: '' }, order.indexOf(drag.moving[0]!))}`
                : `${drag.moving.length} shots`}
            </div>
          ) : null}
        </DragOverlay>
      </DndContext>
    </section>
  );
}
