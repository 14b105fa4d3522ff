import { useRef, useState, type ClipboardEvent, type CSSProperties, type DragEvent } from 'react';
import { useCanvas, useCanvasState, useEditable, useMediaOrigin, useTakesFiles } from '../ui/canvas-context.js';
import { useFrameEditor } from '../model/frame-editor.js';
import { moveShot, SHOT_DRAG, shotPicture, type Shot } from '../model/shots.js';
import { filesIn, picturesOntoShots } from '../model/shot-pictures.js';
import { safeThumbnailUrl } from './media-url.js';
import { CardShell, type CardProps } from './parts.js';
import { BoardReviewState, FrameMarks } from './review-marks.js';
import { ShotMarks } from './shot-marks.js';
import { FrameGuides, GuidePicker } from './frame-guides.js';
import { aspectOf } from '../../../src/shared/frame-shape.js';
import { useShownGuides } from '../model/guides.js';
import { isShotSelected, useShotSelection } from '../model/shot-selection.js';
import { LongPress } from '../model/long-press.js';
import { navigate } from '../model/navigation.js';
import { recordOf, formatMs, list, num, text } from '../model/values.js';

/**
 * storyboardNode: its shots as a grid of thumbnails, each with its number, size and description. An editor reorders
 * shots by dragging a frame onto another: it takes that frame's place, and the numbers follow in the same revision. A
 * shot without a picture of its own shows the latest picture of the card that generates it.
 *
 * Pictures onto shots (docs/storyboards.md, "Pictures on shots"): a file dropped on a frame, or pasted on a focused
 * one, becomes that shot's picture; several files dropped on the board fill its empty shots, then add shots. The
 * canvas makes no loose upload card of them (the drop stops here). A card of the canvas let go over a frame is the
 * canvas's to handle (CanvasView), found by the frame's `data-board-id` and `data-shot-id`. A double-click or Enter on
 * a frame opens its frame editor, and so does a long press of a finger on it (a tablet's way: docs/ui.md, "Tablet and
 * pen"). The framing guides the person chose (Guides, over the frames) are drawn over every frame. "Open board" opens
 * the board as a page of its own (docs/ui.md, "The board page").
 */
export function StoryboardNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const frames = list(data.frames).map(recordOf);
  const origin = useMediaOrigin();
  const editable = useEditable();
  const { controller, boardHref } = useCanvas();
  const states = useCanvasState((state) => state.states);
  const boardId = card.data.node.id;
  const takesFiles = useTakesFiles();
  const openEditor = useFrameEditor((state) => state.openEditor);
  // The shot (or 'board') whose files are on their way: shown busy until the board changes.
  const [sending, setSending] = useState<string | null>(null);
  const title = text(data.title) ?? text(data.displayName) ?? 'the board';
  const aspect = aspectOf(text(data.aspectRatio));
  const guides = useShownGuides();
  // Shots selected where a view tracks them (the MCP App's): highlighted, and named to the host's model.
  const selectedShots = useShotSelection((state) => state.shots);
  // One long press at a time on this card: the frame a finger is held on opens in the editor.
  const pressed = useRef<string | null>(null);
  const longPress = useRef<LongPress | null>(null);
  longPress.current ??= new LongPress(() => {
    if (pressed.current) openEditor({ boardId, shotId: pressed.current });
  });
  const putFiles = (files: File[], shotId: string | null, number: string | null) => {
    const single = shotId && files.length === 1;
    setSending(single ? shotId : 'board');
    const where = single ? `Shot ${number} of ${title}` : `The board ${title}`;
    void picturesOntoShots(controller, { boardId, shotId: single ? shotId : null, where }, files).finally(() =>
      setSending(null),
    );
  };
  /** Takes the files a drop or a paste carries, and keeps them from the canvas (no loose upload card). */
  const takeFiles = (event: DragEvent | ClipboardEvent, shotId: string | null, number: string | null) => {
    const files = filesIn('dataTransfer' in event ? event.dataTransfer : event.clipboardData);
    if (!takesFiles || files.length === 0) return false;
    event.preventDefault();
    event.stopPropagation();
    putFiles(files, shotId, number);
    return true;
  };
  const acceptFiles = (event: DragEvent) => {
    if (!takesFiles || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'copy';
  };
  const dropOn = (event: DragEvent, index: number) => {
    if (takeFiles(event, text(frames[index]?.id) ?? null, text(frames[index]?.number) ?? String(index + 1))) return;
    const shotId = event.dataTransfer.getData(SHOT_DRAG);
    if (!shotId || shotId === text(frames[index]?.id)) return;
    event.preventDefault();
    event.stopPropagation();
    void controller.submit(moveShot(boardId, shotId, index, () => controller.store.getState().lastAuthor));
  };
  return (
    <CardShell card={card} className="card-wide">
      <div
        className={sending === 'board' ? 'board-drop board-busy' : 'board-drop'}
        aria-busy={sending === 'board' || undefined}
        onDragOver={acceptFiles}
        onDrop={(event) => void takeFiles(event, null, null)}
      >
        <BoardReviewState nodeId={boardId} />
        {boardHref ? (
          <a
            className="button-small board-open nodrag"
            href={boardHref(boardId)}
            title="The board as a page of its own: a grid of large frames, the shot list, the animatic"
            onClick={(event) => {
              if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
              event.preventDefault();
              navigate(boardHref(boardId));
            }}
          >
            Open board<span className="visually-hidden"> {title}</span>
          </a>
        ) : null}
        {frames.length > 0 ? <GuidePicker /> : null}
        {frames.length === 0 ? <div className="media-empty">No frames yet</div> : null}
        <div
          className="frames"
          style={
            {
              gridTemplateColumns: `repeat(${Math.min(num(data.columns) ?? 3, 6)}, 1fr)`,
              // Any W:H the board has (a preset or a custom 1.43:1), read by the one parser every view uses.
              '--frame-aspect': String(aspect),
            } as CSSProperties
          }
        >
          {frames.slice(0, 24).map((frame, index) => (
            <figure
              key={text(frame.id) ?? index}
              data-shot-id={text(frame.id)}
              data-board-id={boardId}
              // nodrag: dragging a frame moves the shot, not the card.
              className={`${text(frame.status) === 'omitted' ? 'frame frame-omitted' : 'frame'}${editable ? ' nodrag' : ''}${sending === text(frame.id) ? ' frame-busy' : ''}${isShotSelected(selectedShots, boardId, text(frame.id)) ? ' frame-selected' : ''}`}
              aria-busy={sending === text(frame.id) || undefined}
              aria-current={isShotSelected(selectedShots, boardId, text(frame.id)) || undefined}
              // Focusable for an editor: a focused frame is the selected shot a paste or Enter acts on.
              tabIndex={editable ? 0 : undefined}
              draggable={editable}
              onDragStart={(event) => {
                event.dataTransfer.setData(SHOT_DRAG, text(frame.id) ?? '');
                event.dataTransfer.effectAllowed = 'move';
              }}
              onDragOver={(event) => {
                if (editable && event.dataTransfer.types.includes(SHOT_DRAG)) event.preventDefault();
                else acceptFiles(event);
              }}
              onDrop={(event) => dropOn(event, index)}
              onPaste={(event) =>
                void takeFiles(event, text(frame.id) ?? null, text(frame.number) ?? String(index + 1))
              }
              onDoubleClick={(event) => {
                if (!editable || !text(frame.id)) return;
                event.stopPropagation();
                openEditor({ boardId, shotId: text(frame.id)! });
              }}
              onPointerDown={(event) => {
                if (!editable || !text(frame.id)) return;
                pressed.current = text(frame.id)!;
                longPress.current!.down(event);
              }}
              onPointerMove={(event) => longPress.current!.move(event)}
              onPointerUp={(event) => longPress.current!.up(event)}
              onPointerCancel={(event) => longPress.current!.up(event)}
              // A finger held on a frame is ours (the editor opens): no browser menu for its picture.
              onContextMenu={(event) => {
                if (editable && (event.nativeEvent as PointerEvent).pointerType === 'touch') event.preventDefault();
              }}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' || !editable || !text(frame.id) || event.target !== event.currentTarget)
                  return;
                // The frame's own Enter: the canvas's Enter (the card's details) is not also asked for.
                event.stopPropagation();
                openEditor({ boardId, shotId: text(frame.id)! });
              }}
            >
              <div className="frame-picture">
                {safeThumbnailUrl(shotPicture(frame as Shot, states), origin) ? (
                  <img
                    src={safeThumbnailUrl(shotPicture(frame as Shot, states), origin)}
                    alt={text(frame.caption) ?? `frame ${index + 1}`}
                    loading="lazy"
                    draggable={false}
                  />
                ) : (
                  <div className="frame-empty">{text(frame.number) ?? index + 1}</div>
                )}
                <ShotMarks marks={frame.marks} aspect={aspect} />
                {guides.length > 0 ? <FrameGuides guides={guides} aspect={aspect} /> : null}
                {text(frame.id) ? <FrameMarks nodeId={boardId} shotId={text(frame.id)!} /> : null}
              </div>
              <figcaption>
                <strong className="shot-label">{text(frame.number) ?? index + 1}</strong>{' '}
                {text(frame.shotSize) ? <span className="muted">{text(frame.shotSize)} </span> : null}
                {text(frame.caption) ?? text(frame.action) ?? text(frame.shotType) ?? ''}
                {formatMs(num(frame.durationMs)) ? (
                  <span className="muted"> · {formatMs(num(frame.durationMs))}</span>
                ) : null}
              </figcaption>
            </figure>
          ))}
        </div>
        {frames.length > 24 ? <div className="muted">and {frames.length - 24} more frames</div> : null}
      </div>
    </CardShell>
  );
}
