import { Select } from '../ui/select.js';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { CAMERA_EASINGS, CameraMove, type Framing } from '../../../src/contract/shots.js';
import { moveKindOf } from '../../../src/shared/camera-move.js';
import {
  dragFraming,
  draftOf,
  fitted,
  keyedFraming,
  moveArrows,
  movedFraming,
  moveToSave,
  WHOLE_FRAME,
  type MoveDraft,
  type Which,
} from '../model/move-drawing.js';

/**
 * The frame editor's camera move (docs/deliverables.md, "Camera moves"): the start and end framings drawn as
 * rectangles on the frame (Start and End, an arrow from one to the other), dragged to move, resized by their corner,
 * moved with the arrow keys and resized with Shift and the arrows; the easing picked beside them. Saving writes the
 * shot's `move` as the shot list's fields write it: one change of the board through the page's intents, one
 * revision, which the canvas's undo takes back.
 */

const LABELS: Record<Which, string> = { start: 'Start', end: 'End' };
const COLOURS: Record<Which, string> = { start: '#22c55e', end: '#f43f5e' };

export interface MoveDraftState {
  draft: MoveDraft;
  setDraft: (change: (draft: MoveDraft) => MoveDraft) => void;
  selected: Which;
  select: (which: Which) => void;
  /** Whether the draft is the stored move (nothing to save). */
  saved: boolean;
}

/** The draft of the shot's move: the stored one when the editor opens, and again whenever the stored one changes. */
export function useMoveDraft(stored: unknown): MoveDraftState {
  const key = stored ? JSON.stringify(stored) : '';
  const [draft, setDraftState] = useState<MoveDraft>(() => draftOf(stored));
  const [selected, select] = useState<Which>(() => (draftOf(stored).start ? 'end' : 'start'));
  useEffect(() => {
    // Saved here or anywhere (the shot list, an agent, an undo): the editor shows the move the shot now has.
    setDraftState(draftOf(stored));
  }, [key]); // `stored` is read through its key
  const before = draftOf(stored);
  const saved = JSON.stringify(before) === JSON.stringify(draft);
  return { draft, setDraft: (change) => setDraftState(change), selected, select, saved };
}

type GestureKind =
  | { kind: 'draw'; which: Which; anchor: { x: number; y: number } }
  | { kind: 'move'; which: Which; from: { x: number; y: number }; framing: Framing }
  | { kind: 'resize'; which: Which; anchor: { x: number; y: number } };
type Gesture = GestureKind & { pointerId: number };

export function MoveOverlay({
  state,
  width,
  height,
  shotLabel,
  editable,
}: {
  state: MoveDraftState;
  width: number;
  height: number;
  shotLabel: string;
  editable: boolean;
}) {
  const { draft, setDraft, selected, select } = state;
  const surface = useRef<SVGSVGElement>(null);
  const gesture = useRef<Gesture | null>(null);

  const pointOf = (event: ReactPointerEvent): { x: number; y: number } => {
    const box = surface.current!.getBoundingClientRect();
    const clamp = (value: number) => Math.min(1, Math.max(0, value));
    return { x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) };
  };
  const setFraming = (which: Which, framing: Framing) => setDraft((now) => ({ ...now, [which]: framing }));

  const begin = (event: ReactPointerEvent, next: GestureKind) => {
    if (!editable || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.stopPropagation();
    event.preventDefault();
    try {
      surface.current?.setPointerCapture(event.pointerId);
    } catch {
      // The drag still works while the pointer stays on the frame.
    }
    surface.current?.focus({ preventScroll: true });
    gesture.current = { ...next, pointerId: event.pointerId };
    select(next.which);
  };

  const onPointerMove = (event: ReactPointerEvent) => {
    const now = gesture.current;
    if (!now || now.pointerId !== event.pointerId) return;
    const point = pointOf(event);
    if (now.kind === 'move')
      setFraming(now.which, movedFraming(now.framing, point.x - now.from.x, point.y - now.from.y));
    else setFraming(now.which, dragFraming(now.anchor, point));
  };
  const onPointerUp = (event: ReactPointerEvent) => {
    const now = gesture.current;
    if (!now || now.pointerId !== event.pointerId) return;
    gesture.current = null;
    // A start just drawn: the end is drawn next.
    if (now.kind === 'draw' && now.which === 'start' && !draft.end) select('end');
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const framing = draft[selected];
    if (!framing || !editable) return;
    const next = keyedFraming(framing, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    // The arrows are the framing's here, never the canvas's behind the editor.
    event.stopPropagation();
    setFraming(selected, next);
  };

  const rect = (which: Which) => {
    const framing = draft[which];
    if (!framing) return null;
    const [x, y, w, h] = [framing.x * width, framing.y * height, framing.width * width, framing.height * height];
    const chosen = selected === which;
    const handle = Math.max(14, width / 60);
    return (
      <g key={which} data-framing={which} data-selected={chosen ? 'true' : undefined}>
        <rect
          x={x}
          y={y}
          width={w}
          height={h}
          fill={chosen ? 'rgba(255,255,255,0.08)' : 'transparent'}
          stroke={COLOURS[which]}
          strokeWidth={chosen ? 5 : 3}
          strokeDasharray={which === 'start' ? undefined : '14 8'}
          // Inside the chosen framing a drag moves it; inside the other one it draws the chosen one anew (a close
          // end framing is drawn inside the wide start).
          style={{ cursor: editable && chosen ? 'move' : undefined }}
          pointerEvents={chosen ? undefined : 'none'}
          onPointerDown={(event) => begin(event, { kind: 'move', which, from: pointOf(event), framing })}
        />
        <rect
          data-framing-label={which}
          x={x}
          y={y}
          width={Math.min(w, 110)}
          height={34}
          fill={COLOURS[which]}
          style={{ cursor: editable ? 'move' : undefined }}
          onPointerDown={(event) => begin(event, { kind: 'move', which, from: pointOf(event), framing })}
        />
        <text x={x + 10} y={y + 25} fontSize={22} fontWeight={700} fill="#ffffff" pointerEvents="none">
          {LABELS[which]}
        </text>
        {chosen ? (
          <rect
            data-framing-corner={which}
            x={x + w - handle}
            y={y + h - handle}
            width={handle}
            height={handle}
            fill={COLOURS[which]}
            style={{ cursor: editable ? 'nwse-resize' : undefined }}
            onPointerDown={(event) => begin(event, { kind: 'resize', which, anchor: { x: framing.x, y: framing.y } })}
          />
        ) : null}
      </g>
    );
  };

  const arrows = draft.start && draft.end ? moveArrows(draft.start, draft.end) : [];
  return (
    <svg
      ref={surface}
      className="frame-editor-move"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      tabIndex={0}
      role="application"
      aria-label={`Camera move of ${shotLabel}: drag on the frame to draw the ${LABELS[selected].toLowerCase()} framing; arrow keys move it, Shift and the arrow keys resize it`}
      data-selected-framing={selected}
      onPointerDown={(event) => begin(event, { kind: 'draw', which: selected, anchor: pointOf(event) })}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    >
      <defs>
        <marker
          id="move-arrow-head"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#fde047" />
        </marker>
      </defs>
      {rect('start')}
      {rect('end')}
      {arrows.map(([x1, y1, x2, y2], index) => (
        <line
          key={index}
          data-move-arrow={index}
          x1={x1 * width}
          y1={y1 * height}
          x2={x2 * width}
          y2={y2 * height}
          stroke="#fde047"
          strokeWidth={4}
          markerEnd="url(#move-arrow-head)"
          pointerEvents="none"
        />
      ))}
    </svg>
  );
}

/** The controls beside the frame: which framing is drawn, the whole frame, the easing, save and remove. */
export function MovePanel({
  state,
  stored,
  editable,
  onSave,
}: {
  state: MoveDraftState;
  stored: unknown;
  editable: boolean;
  onSave: (move: CameraMove | undefined) => void;
}) {
  const { draft, setDraft, selected, select, saved } = state;
  const [refusal, setRefusal] = useState<string | null>(null);
  const candidate = moveToSave(draft, stored);
  const kind = 'refused' in candidate ? null : moveKindOf(candidate);
  const hasStored = Boolean(stored) && CameraMove.safeParse(stored).success;
  return (
    <aside className="frame-editor-tools" aria-label="Camera move">
      <fieldset>
        <legend>Draw the framing</legend>
        {(['start', 'end'] as const).map((which) => (
          <button
            key={which}
            type="button"
            className="button-small"
            aria-pressed={selected === which}
            onClick={() => select(which)}
          >
            {LABELS[which]}
            {draft[which] ? '' : ' (not drawn)'}
          </button>
        ))}
        <button
          type="button"
          className="button-small"
          disabled={!editable}
          onClick={() => setDraft((now) => ({ ...now, [selected]: fitted(WHOLE_FRAME) }))}
        >
          Whole frame
        </button>
      </fieldset>
      <fieldset>
        <legend>Easing</legend>
        <Select
          label="Easing of the move"
          value={draft.easing}
          disabled={!editable}
          options={CAMERA_EASINGS.map((easing) => ({ value: easing, label: easing }))}
          onChange={(easing) => setDraft((now) => ({ ...now, easing: easing as MoveDraft['easing'] }))}
        />
      </fieldset>
      <p className="muted" data-move-summary>
        {kind ? `A ${kind}` : 'No move yet'}
        {draft[selected]
          ? ` · ${LABELS[selected]}: left ${draft[selected].x}, top ${draft[selected].y}, size ${draft[selected].width}`
          : ''}
      </p>
      <fieldset>
        <legend>Save</legend>
        <button
          type="button"
          className="button-small"
          disabled={!editable || saved}
          onClick={() => {
            if ('refused' in candidate) {
              setRefusal(candidate.refused);
              return;
            }
            setRefusal(null);
            onSave(candidate);
          }}
        >
          Save move
        </button>
        <button
          type="button"
          className="button-small"
          disabled={!editable || !hasStored}
          onClick={() => onSave(undefined)}
        >
          Remove move
        </button>
        <span className="muted" role="status">
          {saved ? (hasStored ? 'Saved' : '') : 'Not saved yet'}
        </span>
      </fieldset>
      {refusal ? <p role="alert">{refusal}</p> : null}
      <p className="muted">
        Drag on the frame to draw the chosen framing, inside it to move it, by its corner to resize it; its label picks
        it. Arrow keys move it, Shift and the arrow keys resize it. Ctrl+Z takes back the last saved move.
      </p>
    </aside>
  );
}
