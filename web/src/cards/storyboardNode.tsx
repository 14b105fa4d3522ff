import type { CSSProperties, DragEvent } from 'react';
import { useCanvas, useCanvasState, useEditable, useMediaOrigin } from '../ui/canvas-context.js';
import { moveShot, SHOT_DRAG, shotPicture, type Shot } from '../model/shots.js';
import { safeThumbnailUrl } from './media-url.js';
import { CardShell, type CardProps } from './parts.js';
import { BoardReviewState, FrameMarks } from './review-marks.js';
import { recordOf, formatMs, list, num, text } from '../model/values.js';

/**
 * storyboardNode: its shots as a grid of thumbnails, each with its number, size and description. An editor reorders
 * shots by dragging a frame onto another: it takes that frame's place, and the numbers follow in the same revision. A
 * shot without a picture of its own shows the latest picture of the card that generates it.
 */
export function StoryboardNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const frames = list(data.frames).map(recordOf);
  const origin = useMediaOrigin();
  const editable = useEditable();
  const { controller } = useCanvas();
  const states = useCanvasState((state) => state.states);
  const boardId = card.data.node.id;
  const dropOn = (event: DragEvent, index: number) => {
    const shotId = event.dataTransfer.getData(SHOT_DRAG);
    if (!shotId || shotId === text(frames[index]?.id)) return;
    event.preventDefault();
    event.stopPropagation();
    void controller.submit(moveShot(boardId, shotId, index, () => controller.store.getState().lastAuthor));
  };
  return (
    <CardShell card={card} className="card-wide">
      <BoardReviewState nodeId={boardId} />
      {frames.length === 0 ? <div className="media-empty">No frames yet</div> : null}
      <div
        className="frames"
        style={
          {
            gridTemplateColumns: `repeat(${Math.min(num(data.columns) ?? 3, 6)}, 1fr)`,
            '--frame-aspect': cssAspect(text(data.aspectRatio)),
          } as CSSProperties
        }
      >
        {frames.slice(0, 24).map((frame, index) => (
          <figure
            key={text(frame.id) ?? index}
            data-shot-id={text(frame.id)}
            // nodrag: dragging a frame moves the shot, not the card.
            className={`${text(frame.status) === 'omitted' ? 'frame frame-omitted' : 'frame'}${editable ? ' nodrag' : ''}`}
            draggable={editable}
            onDragStart={(event) => {
              event.dataTransfer.setData(SHOT_DRAG, text(frame.id) ?? '');
              event.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(event) => {
              if (editable && event.dataTransfer.types.includes(SHOT_DRAG)) event.preventDefault();
            }}
            onDrop={(event) => dropOn(event, index)}
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
    </CardShell>
  );
}

/** The board's frame shape for CSS: 2.39:1 → 2.39 / 1; anything else leaves the 16:9 default. */
function cssAspect(ratio: string | undefined): string | undefined {
  const match = ratio ? /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio) : null;
  return match ? `${match[1]} / ${match[2]}` : undefined;
}
