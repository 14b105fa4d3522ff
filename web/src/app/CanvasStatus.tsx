import { useCanvas, useCanvasState, useEditable } from '../ui/canvas-context.js';
import { Tooltip } from '../ui/tooltip.js';

/** What every page of an open canvas says in its top bar: the revision it shows, the feed, whether it is saving. */

const FEED_LABEL = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  closed: 'Offline',
} as const;

export function CanvasStatus() {
  const revision = useCanvasState((state) => state.layout.revision);
  const feed = useCanvasState((state) => state.feed);
  const saving = useCanvasState((state) => state.saving);
  return (
    <>
      <span
        className="chip"
        title="The canvas revision this screen shows: every change you make is checked against it."
      >
        revision {revision}
      </span>
      <span className={`feed feed-${feed}`} data-feed={feed}>
        {FEED_LABEL[feed]}
      </span>
      {saving > 0 ? <span className="muted">Saving…</span> : null}
    </>
  );
}

/** Undo of the person's own last change (Ctrl+Z), and "View only" for a viewer. */
export function UndoButton() {
  const { controller } = useCanvas();
  const editable = useEditable();
  const role = useCanvasState((state) => state.role);
  const canUndo = useCanvasState((state) => state.undo.length > 0);
  return (
    <>
      {role === 'viewer' ? <span className="chip chip-warning">View only</span> : null}
      <Tooltip content="Undo your last change (Ctrl+Z)">
        <button
          type="button"
          className="button-small"
          disabled={!editable || !canUndo}
          onClick={() => void controller.undoLast()}
        >
          Undo
        </button>
      </Tooltip>
    </>
  );
}
