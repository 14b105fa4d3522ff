import { useEffect, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { useCanvas, useCanvasState } from '../ui/canvas-context.js';
import { layoutBounds } from '../canvas/fit.js';
import type { FlowNode } from '../cards/card-data.js';

/**
 * What happened to the person's changes that did not go as planned: a conflict that could not be re-applied, a
 * refused write. Text the person typed into such a change is shown here to copy, never silently dropped.
 */
/** How long a plain confirmation stays on screen. */
const INFO_NOTICE_MS = 8_000;

export function Notices({ onShow }: { onShow?: (nodeIds: string[]) => void } = {}) {
  const { controller } = useCanvas();
  const notices = useCanvasState((state) => state.notices);
  const flow = useReactFlow<FlowNode>();
  const show = (ids: string[]) => {
    // A page without the canvas drawn (the board page) shows them where they are: on the canvas.
    if (onShow) return onShow(ids);
    const { nodes } = controller.store.getState().layout;
    const wanted = new Set(ids);
    // Bounds from the layout (a child's position is relative to its parent), so nodes outside the view count too.
    const bounds = layoutBounds(nodes, (node) => wanted.has(node.id));
    if (bounds) void flow.fitBounds(bounds, { padding: 0.3, duration: 300 });
  };
  // A plain confirmation ("Undone: move prop.") goes by itself after a while, unless the pointer or the focus rests on
  // the notices; a warning, an error, or a notice holding what the person typed waits to be dismissed.
  const [held, setHeld] = useState(false);
  const passing = notices.filter((notice) => notice.tone === 'info' && !notice.keep && !notice.nodeIds);
  const passingKey = passing.map((notice) => notice.id).join(' ');
  useEffect(() => {
    if (held || passingKey === '') return;
    const timer = setTimeout(() => {
      for (const id of passingKey.split(' ')) controller.dismiss(Number(id));
    }, INFO_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [held, passingKey, controller]);
  if (notices.length === 0) return null;
  return (
    <div
      className="notices"
      role="status"
      aria-live="polite"
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.tone}`}>
          <div className="notice-text">{notice.text}</div>
          {notice.keep ? (
            <label className="notice-keep">
              What you typed (copy it before closing):
              <textarea readOnly value={notice.keep} rows={3} onFocus={(event) => event.target.select()} />
            </label>
          ) : null}
          <div className="notice-actions">
            {notice.nodeIds ? (
              <button type="button" className="button-small" onClick={() => show(notice.nodeIds!)}>
                Show
              </button>
            ) : null}
            <button
              type="button"
              className="button-small"
              onClick={() => controller.dismiss(notice.id)}
              aria-label="Dismiss"
            >
              Dismiss
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
