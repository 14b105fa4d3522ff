import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  dataFieldOf,
  type Drawing,
  type DrawingChange,
  type DrawingLayerName,
  type DrawingPoint,
  type Stroke,
} from '../../../src/contract/index.js';
import { drawingSvg, isPressureTool, pressureStrokePath, StrokeCache } from '../../../src/shared/drawing-svg.js';
import { aspectOf, type GuideName } from '../../../src/shared/frame-shape.js';
import { FrameGuides } from '../cards/frame-guides.js';
import { safeMediaUrl } from '../cards/media-url.js';
import { api } from '../model/api.js';
import { boardOf, editShot, shotPicture, type Shot } from '../model/shots.js';
import { useFrameEditor } from '../model/frame-editor.js';
import { useCanvas, useCanvasState, useEditable, useMediaOrigin } from '../ui/canvas-context.js';
import { COLOURS, EditorTools, TOOLS } from './EditorTools.js';
import { LayersPanel } from './LayersPanel.js';
import { MoveOverlay, MovePanel, useMoveDraft } from './MoveLayer.js';
import {
  applyGesture,
  EMPTY_HISTORY,
  finishStroke,
  framePoint,
  layerRefusal,
  newStrokeId,
  PalmGuard,
  stepHistory,
  type EditorHistory,
} from './stroke-model.js';

/**
 * The frame editor (docs/drawing.md): one shot's frame at the board's shape, as large as the screen allows, to sketch
 * on with a pen, a finger or a mouse. Strokes follow pressure (Pointer Events, with the points the browser coalesced);
 * each stroke is saved as it ends (closing the tab loses nothing), and a save made while someone else drew on the same
 * shot is merged and said. Layers (rough, tone, ink, notes) have opacity, visibility and a lock; the picture under the
 * drawing works as a light table; onion skin shows the previous and next shots; the framing guides are drawn from the
 * same fractions as the PDF's and the board picture's. In camera move mode the person draws the shot's start and end
 * framings on the frame instead (MoveLayer.tsx), saved as the shot's `move`.
 */

/** Width of the drawing as the editor draws it (the server renders the same strokes at its own width). */
const STAGE_WIDTH = 1280;

export function FrameEditorHost() {
  const open = useFrameEditor((state) => state.open);
  if (!open) return null;
  return <FrameEditor key={`${open.boardId}/${open.shotId}`} boardId={open.boardId} shotId={open.shotId} />;
}

function FrameEditor({ boardId, shotId }: { boardId: string; shotId: string }) {
  const close = useFrameEditor((state) => state.closeEditor);
  const address = useCanvasState((state) => state.address);
  const person = useCanvasState((state) => state.person);
  const states = useCanvasState((state) => state.states);
  const boardNode = useCanvasState((state) => state.layout.nodes.find((node) => node.id === boardId));
  const origin = useMediaOrigin();
  const board = boardNode ? boardOf(boardNode) : null;
  const index = board?.shots.findIndex((shot) => shot.id === shotId) ?? -1;
  const shot = index >= 0 ? board!.shots[index]! : null;
  // The asset of the shot's newest drawing: it changes with every save, ours or anyone's.
  const remoteUrl = typeof shot?.drawingUrl === 'string' ? shot.drawingUrl.split('?')[0]! : null;
  const aspect = aspectOf(dataFieldOf(boardNode, 'aspectRatio'));
  const stageHeight = Math.round(STAGE_WIDTH / aspect);

  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const [history, setHistory] = useState<EditorHistory>(EMPTY_HISTORY);
  const [tool, setTool] = useState<Stroke['tool']>('pencil');
  const [colour, setColour] = useState(COLOURS[0]!);
  const [size, setSize] = useState(4);
  const [layer, setLayer] = useState<DrawingLayerName>('rough');
  const [guides, setGuides] = useState<GuideName[]>([]);
  const [onion, setOnion] = useState({ previous: false, next: false });
  const [underOpacity, setUnderOpacity] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(0);
  const [textAt, setTextAt] = useState<DrawingPoint | null>(null);
  const [view, setView] = useState({ scale: 1, x: 0, y: 0 });
  const [mode, setMode] = useState<'draw' | 'move'>('draw');
  const { controller } = useCanvas();
  const editable = useEditable();
  const moveDraft = useMoveDraft(shot?.move);
  const saveMove = useCallback(
    (move: unknown) => {
      const authors = () => controller.store.getState().lastAuthor;
      void controller.submit(editShot(boardId, shotId, { move }, authors));
    },
    [controller, boardId, shotId],
  );

  const version = useRef<number | null>(null);
  /** The drawing asset our last save or read made current: a different one on the shot is someone else's save. */
  const ownUrl = useRef<string | null>(null);
  const saves = useRef<Promise<void>>(Promise.resolve());
  const live = useRef<HTMLCanvasElement>(null);
  const surface = useRef<HTMLDivElement>(null);
  const draft = useRef<{ pointerId: number; points: DrawingPoint[]; id: string } | null>(null);
  const guard = useRef(new PalmGuard());
  const pinch = useRef<Map<number, { x: number; y: number }>>(new Map());
  const outlines = useRef(new StrokeCache());
  const drawingRef = useRef<Drawing | null>(null);
  const remoteUrlRef = useRef(remoteUrl);
  remoteUrlRef.current = remoteUrl;
  drawingRef.current = drawing;

  const load = useCallback(async () => {
    try {
      const read = await api.drawing(address, boardId, shotId);
      // Version 0: the shot has no drawing yet, and the first save says so.
      version.current = read.version > 0 ? read.version : null;
      ownUrl.current = remoteUrlRef.current;
      setDrawing(read);
    } catch (error) {
      setMessage(`The drawing could not be opened: ${(error as Error).message}`);
    }
  }, [address, boardId, shotId]);

  useEffect(() => {
    void load();
  }, [load]);

  // Someone else saved a stroke on this shot: read it again once our own saves are in.
  useEffect(() => {
    if (remoteUrl !== null && remoteUrl !== ownUrl.current && pending === 0) void load();
  }, [remoteUrl, pending, load]);

  /** Saves one gesture's changes after those before it, keeping their order. */
  const save = useCallback(
    (changes: DrawingChange[]) => {
      setPending((count) => count + 1);
      saves.current = saves.current.then(async () => {
        try {
          const receipt = await api.saveDrawing(address, boardId, shotId, {
            base_version: version.current,
            changes,
          });
          version.current = receipt.drawing.version;
          ownUrl.current = receipt.drawing_url;
          if (receipt.merged) {
            setMessage('Someone else drew on this shot meanwhile: their strokes and yours are both kept.');
            setDrawing(receipt.drawing);
          }
        } catch (error) {
          setMessage(`Not saved: ${(error as Error).message}`);
          void load();
        } finally {
          setPending((count) => count - 1);
        }
      });
    },
    [address, boardId, shotId, load],
  );

  const gesture = useCallback(
    (changes: DrawingChange[]) => {
      const current = drawingRef.current;
      if (!current) return;
      const next = applyGesture(current, history, changes);
      setDrawing(next.drawing);
      setHistory(next.history);
      save(changes);
    },
    [history, save],
  );

  const step = useCallback(
    (direction: 'undo' | 'redo') => {
      const current = drawingRef.current;
      if (!current) return;
      try {
        const stepped = stepHistory(current, history, direction);
        if (!stepped) return;
        setDrawing(stepped.drawing);
        setHistory(stepped.history);
        save(stepped.changes);
      } catch (error) {
        setMessage((error as Error).message);
      }
    },
    [history, save],
  );

  // Keys inside the editor are the editor's: Ctrl+Z undoes a stroke, not a change of the canvas behind it.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const typing = event.target instanceof HTMLInputElement && event.target.type === 'text';
      if (event.key === 'Escape') {
        if (textAt) setTextAt(null);
        else if (mode === 'move') setMode('draw');
        else close();
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
        event.preventDefault();
        // A saved move is a change of the board, taken back by the canvas's undo; strokes are the editor's.
        if (mode === 'move') {
          if (!event.shiftKey && editable) void controller.undoLast();
        } else step(event.shiftKey ? 'redo' : 'undo');
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'y') {
        event.preventDefault();
        step('redo');
      } else if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const picked = TOOLS.find((candidate) => candidate.key === event.key);
        if (picked) {
          setTool(picked.tool);
          setMode('draw');
        } else if (event.key === 'm') setMode((now) => (now === 'move' ? 'draw' : 'move'));
        else return;
      } else return;
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [close, step, textAt, mode, editable, controller]);

  // The drawing as the server renders it, without paper: the picture under it and the onion skin show beneath.
  const drawingUrl = useMemo(() => {
    if (!drawing) return null;
    const svg = drawingSvg(drawing, {
      width: STAGE_WIDTH,
      height: stageHeight,
      paper: false,
      marks: (shot?.marks as never) ?? [],
      cache: outlines.current,
    });
    return URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  }, [drawing, stageHeight, shot?.marks]);
  useEffect(() => () => (drawingUrl ? URL.revokeObjectURL(drawingUrl) : undefined), [drawingUrl]);

  const clearLive = () => {
    const context = live.current?.getContext('2d');
    context?.clearRect(0, 0, STAGE_WIDTH, stageHeight);
  };

  /** The stroke being drawn, on the live layer: the same outline the saved drawing will have. */
  const drawLive = (points: DrawingPoint[]) => {
    const context = live.current?.getContext('2d');
    if (!context || points.length === 0) return;
    context.clearRect(0, 0, STAGE_WIDTH, stageHeight);
    const stroke = finishStroke({ id: 'live', tool, colour, size, points });
    context.fillStyle = tool === 'eraser' ? 'rgba(255,255,255,0.9)' : colour;
    context.strokeStyle = colour;
    context.lineWidth = (size / 1000) * STAGE_WIDTH;
    context.lineCap = 'round';
    if (isPressureTool(tool)) {
      context.fill(new Path2D(pressureStrokePath(stroke, STAGE_WIDTH, stageHeight)));
      return;
    }
    const [x0, y0] = [stroke.points[0]![0] * STAGE_WIDTH, stroke.points[0]![1] * stageHeight];
    const [x1, y1] = [stroke.points.at(-1)![0] * STAGE_WIDTH, stroke.points.at(-1)![1] * stageHeight];
    context.beginPath();
    if (tool === 'rect') context.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    else if (tool === 'ellipse')
      context.ellipse((x0 + x1) / 2, (y0 + y1) / 2, Math.abs(x1 - x0) / 2, Math.abs(y1 - y0) / 2, 0, 0, Math.PI * 2);
    else if (tool === 'fill') {
      for (const [index, [x, y]] of stroke.points.entries()) {
        if (index === 0) context.moveTo(x * STAGE_WIDTH, y * stageHeight);
        else context.lineTo(x * STAGE_WIDTH, y * stageHeight);
      }
      context.closePath();
      context.globalAlpha = 0.5;
      context.fill();
      context.globalAlpha = 1;
      return;
    } else {
      context.moveTo(x0, y0);
      context.lineTo(x1, y1);
    }
    context.stroke();
  };

  const box = () => surface.current!.getBoundingClientRect();

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const decision = guard.current.down(event);
    if (event.pointerType === 'touch') pinch.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (decision === 'gesture') {
      // A second finger: the stroke the first one began is a pan, not a line.
      draft.current = null;
      clearLive();
      return;
    }
    if (decision === 'ignore' || (event.pointerType === 'mouse' && event.button !== 0) || !drawing) return;
    const refusal = layerRefusal(drawing, layer);
    if (refusal) {
      setMessage(refusal);
      return;
    }
    try {
      // The stroke goes on when the pen leaves the frame; a pointer the browser no longer knows cannot be captured.
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // Drawn all the same, inside the frame.
    }
    const point = framePoint(event, box(), tool === 'pencil' || tool === 'brush');
    if (tool === 'text') {
      setTextAt(point);
      return;
    }
    draft.current = { pointerId: event.pointerId, points: [point], id: newStrokeId(person?.subject ?? 'me') };
    drawLive(draft.current.points);
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (event.pointerType === 'touch' && pinch.current.has(event.pointerId) && guard.current.fingers > 1) {
      const before = [...pinch.current.values()];
      pinch.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
      const after = [...pinch.current.values()];
      if (before.length >= 2 && after.length >= 2) {
        const spread = (points: Array<{ x: number; y: number }>) =>
          Math.hypot(points[0]!.x - points[1]!.x, points[0]!.y - points[1]!.y) || 1;
        const centre = (points: Array<{ x: number; y: number }>) => ({
          x: (points[0]!.x + points[1]!.x) / 2,
          y: (points[0]!.y + points[1]!.y) / 2,
        });
        const ratio = spread(after) / spread(before);
        const moved = { x: centre(after).x - centre(before).x, y: centre(after).y - centre(before).y };
        setView((now) => ({
          scale: Math.max(0.5, Math.min(6, now.scale * ratio)),
          x: now.x + moved.x,
          y: now.y + moved.y,
        }));
      }
      return;
    }
    const current = draft.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const native = event.nativeEvent;
    // The points the browser merged into this event (a pen reports more often than the screen paints).
    const merged = typeof native.getCoalescedEvents === 'function' ? native.getCoalescedEvents() : [];
    const rect = box();
    for (const point of merged.length > 0 ? merged : [native])
      current.points.push(framePoint(point, rect, tool === 'pencil' || tool === 'brush'));
    drawLive(current.points);
  };

  const onPointerUp = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    guard.current.up(event);
    pinch.current.delete(event.pointerId);
    const current = draft.current;
    if (!current || current.pointerId !== event.pointerId) return;
    draft.current = null;
    clearLive();
    const stroke = finishStroke({ id: current.id, tool, colour, size, points: current.points });
    gesture([{ op: 'add_stroke', layer, stroke }]);
  };

  const commitText = (words: string) => {
    const at = textAt;
    setTextAt(null);
    if (!at || !words.trim()) return;
    const stroke = finishStroke({
      id: newStrokeId(person?.subject ?? 'me'),
      tool: 'text',
      colour,
      size,
      points: [at],
      text: words.slice(0, 500),
    });
    gesture([{ op: 'add_stroke', layer, stroke }]);
  };

  const neighbour = (offset: number): string | undefined => {
    const other = board?.shots[index + offset];
    return other ? safeMediaUrl(shotPicture(other as Shot, states), origin) : undefined;
  };
  const under = drawing?.pictureUnderUrl ? safeMediaUrl(drawing.pictureUnderUrl, origin) : undefined;
  const strokes = drawing ? drawing.layers.reduce((sum, each) => sum + each.strokes.length, 0) : 0;

  if (!board || !shot)
    return (
      <div className="frame-editor" role="dialog" aria-modal="true" aria-label="Frame editor">
        <p className="screen-message">This shot is no longer on the board.</p>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    );

  return (
    <div
      className="frame-editor"
      role="dialog"
      aria-modal="true"
      aria-label={`Draw shot ${shot.number ?? index + 1}`}
      data-drawing-version={drawing ? (version.current ?? 0) : undefined}
      data-saving={pending > 0 ? 'true' : 'false'}
    >
      <header className="frame-editor-bar">
        <strong>Shot {shot.number ?? index + 1}</strong>
        <span className="muted">
          {strokes} strokes · {pending > 0 ? 'Saving…' : 'Saved'}
        </span>
        <span className="spacer" />
        <button
          type="button"
          className="button-small"
          aria-pressed={mode === 'move'}
          title="Camera move (M): draw the start and end framings on the frame"
          onClick={() => setMode((now) => (now === 'move' ? 'draw' : 'move'))}
        >
          Camera move
        </button>
        <button type="button" className="button-small" onClick={() => step('undo')} disabled={!history.done.length}>
          Undo
        </button>
        <button type="button" className="button-small" onClick={() => step('redo')} disabled={!history.undone.length}>
          Redo
        </button>
        <button type="button" className="button-small" onClick={close}>
          Done
        </button>
      </header>
      <div className="frame-editor-body">
        {mode === 'move' ? (
          <MovePanel state={moveDraft} stored={shot.move} editable={editable} onSave={saveMove} />
        ) : (
          <EditorTools
            tool={tool}
            onTool={setTool}
            colour={colour}
            onColour={setColour}
            size={size}
            onSize={setSize}
            guides={guides}
            onGuides={setGuides}
            onion={onion}
            onOnion={setOnion}
            underOpacity={underOpacity}
            onUnderOpacity={setUnderOpacity}
            hasPrevious={index > 0}
            hasNext={index < board.shots.length - 1}
          />
        )}
        <div className="frame-editor-stage-area">
          <div
            className="frame-editor-stage"
            ref={surface}
            style={{
              aspectRatio: `${aspect}`,
              ['--stage-aspect' as string]: `${aspect}`,
              transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
            }}
          >
            {under ? (
              <img
                className="frame-editor-under"
                src={under}
                alt=""
                style={{ opacity: underOpacity }}
                draggable={false}
              />
            ) : null}
            {onion.previous && neighbour(-1) ? (
              <img className="frame-editor-onion onion-previous" src={neighbour(-1)} alt="" draggable={false} />
            ) : null}
            {onion.next && neighbour(1) ? (
              <img className="frame-editor-onion onion-next" src={neighbour(1)} alt="" draggable={false} />
            ) : null}
            {drawingUrl ? <img className="frame-editor-drawing" src={drawingUrl} alt="" draggable={false} /> : null}
            <FrameGuides guides={guides} aspect={aspect} width={STAGE_WIDTH} className="frame-editor-guides" />
            <canvas
              ref={live}
              className="frame-editor-live"
              width={STAGE_WIDTH}
              height={stageHeight}
              aria-label={`Drawing surface of shot ${shot.number ?? index + 1}: draw with a pen, a finger or the mouse`}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onContextMenu={(event) => event.preventDefault()}
            />
            {mode === 'move' ? (
              <MoveOverlay
                state={moveDraft}
                width={STAGE_WIDTH}
                height={stageHeight}
                shotLabel={`shot ${shot.number ?? index + 1}`}
                editable={editable}
              />
            ) : null}
            {textAt ? (
              <input
                className="frame-editor-text"
                type="text"
                autoFocus
                aria-label="Words to put on the frame"
                maxLength={500}
                style={{ left: `${textAt[0] * 100}%`, top: `${textAt[1] * 100}%` }}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') commitText(event.currentTarget.value);
                }}
                onBlur={(event) => commitText(event.currentTarget.value)}
              />
            ) : null}
          </div>
        </div>
        <LayersPanel drawing={drawing} active={layer} onActive={setLayer} onChange={gesture} />
      </div>
      {message ? (
        <div className="notice notice-warning frame-editor-message" role="status">
          {message}{' '}
          <button type="button" className="button-small" onClick={() => setMessage(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
