import {
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import {
  dataOf,
  SENSOR_FORMAT_IDS,
  type FloorPlanNodeData,
  type PlanCamera,
  type SensorFormatId,
} from '../../../src/contract/index.js';
import { horizontalFovDeg, SENSOR_FORMATS } from '../../../src/shared/lens.js';
import type { Intent } from '../model/canvas-state.js';
import {
  addCamera,
  addCharacter,
  addDoor,
  addProp,
  addWall,
  editCamera,
  hasItem,
  linkedShot,
  moveItem,
  moveWallPoint,
  newPlanId,
  onPlan,
  removeCamera,
  removeItem,
  renameItem,
  wallPoints,
  type CameraPatch,
  type PlanItem,
  type PlanXY,
} from '../model/floor-plan.js';
import { boardsOf } from '../model/shots.js';
import { useCanvas, useCanvasState, useEditable } from '../ui/canvas-context.js';
import { FloorPlanTools, PlanSelection } from './floor-plan-tools.js';
import { CardShell, type CardProps } from './parts.js';
import { Select } from '../ui/select.js';

/**
 * floorPlanNode: the scene from above (docs/storyboards.md, "Floor plans"): walls, doors, props, the characters where
 * the first beat puts them, and each camera with its field-of-view wedge (from its sensor format and lens) and the
 * number of the shot it films. Cameras are added, set and linked below the drawing, and moved by dragging them. Above
 * the drawing a person picks a tool to draw walls (points clicked, a double-click or Enter ends), put doors in walls,
 * place props and characters; with Select an item is picked, dragged, renamed or deleted, and a selected wall's points
 * dragged. Every edit is one write through the page's intents (web/src/model/floor-plan.ts): one Ctrl+Z takes it back.
 */

const EMPTY: FloorPlanNodeData = { walls: [], cameras: [] };
const MARGIN = 1;

/** The plan's extent in metres: every drawn point, with a margin; a 10 m square when the plan is empty. */
function boundsOf(plan: FloorPlanNodeData): { x: number; y: number; width: number; height: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  const add = (x: number, y: number) => {
    xs.push(x);
    ys.push(y);
  };
  for (const wall of plan.walls) for (const { x, y } of wall.points) add(x, y);
  for (const door of plan.doors ?? []) add(door.x, door.y);
  for (const prop of plan.props ?? []) add(prop.x, prop.y);
  for (const position of plan.beats?.[0]?.positions ?? []) add(position.x, position.y);
  for (const camera of plan.cameras) add(camera.x, camera.y);
  if (xs.length === 0) return { x: -5, y: -5, width: 10, height: 10 };
  const minX = Math.min(...xs) - MARGIN;
  const minY = Math.min(...ys) - MARGIN;
  return {
    x: minX,
    y: minY,
    width: Math.max(Math.max(...xs) + MARGIN - minX, 4),
    height: Math.max(Math.max(...ys) + MARGIN - minY, 4),
  };
}

const radians = (deg: number) => (deg * Math.PI) / 180;

/** The wedge of a camera's horizontal field of view: two rays `reach` metres long and the arc between them. */
export function wedgePath(camera: PlanCamera, reach: number): string {
  const half = horizontalFovDeg(camera.sensor, camera.lensMm) / 2;
  const ray = (deg: number) =>
    `${camera.x + reach * Math.cos(radians(deg))} ${camera.y + reach * Math.sin(radians(deg))}`;
  const large = half * 2 > 180 ? 1 : 0;
  return `M ${camera.x} ${camera.y} L ${ray(camera.directionDeg - half)} A ${reach} ${reach} 0 ${large} 1 ${ray(camera.directionDeg + half)} Z`;
}

type Tool = 'select' | 'wall' | 'door' | 'prop' | 'character';

const TOOLS: Array<{ tool: Tool; label: string; hint: string }> = [
  { tool: 'select', label: 'Select', hint: 'Click an item to select it, drag it to move it; Delete removes it.' },
  { tool: 'wall', label: 'Wall', hint: 'Click the wall’s points; double-click or Enter ends it, Escape drops it.' },
  { tool: 'door', label: 'Door', hint: 'Click on a wall to put a door in it.' },
  { tool: 'prop', label: 'Prop', hint: 'Click where the prop stands (named by the field beside).' },
  { tool: 'character', label: 'Character', hint: 'Click where the character stands in the first beat.' },
];

/** What is being dragged: a camera, an item, or a point of the selected wall; where it is now. */
type Drag =
  | { what: 'camera'; id: string; x: number; y: number }
  | { what: 'item'; item: PlanItem; x: number; y: number; moved: boolean; offset: PlanXY }
  | { what: 'wall-point'; wallId: string; index: number; x: number; y: number };

const sameItem = (a: PlanItem | null, b: PlanItem) => a !== null && a.kind === b.kind && a.id === b.id;

export function FloorPlanNodeCard(card: CardProps) {
  const { node } = card.data;
  const plan = dataOf(node, 'floorPlanNode') ?? EMPTY;
  const editable = useEditable();
  const { controller } = useCanvas();
  const layout = useCanvasState((state) => state.layout);
  const authors = () => controller.store.getState().lastAuthor;
  const submit = (intent: Intent) => void controller.submit(intent);
  const submitCamera = (cameraId: string, patch: CameraPatch) => submit(editCamera(node.id, cameraId, patch, authors));
  const [drag, setDrag] = useState<Drag | null>(null);
  const [tool, setTool] = useState<Tool>('select');
  const [picked, setSelected] = useState<PlanItem | null>(null);
  const [draftWall, setDraftWall] = useState<PlanXY[]>([]);
  const [newName, setNewName] = useState('');
  const svg = useRef<SVGSVGElement>(null);
  // Selected while it is on the plan: an item someone else removed is no longer selected.
  const selected = picked && hasItem(plan, picked) ? picked : null;
  // The extent follows what is stored, not what is being drawn or dragged: the drawing holds still under the pointer.
  const box = boundsOf(plan);
  const reach = Math.max(box.width, box.height) * 0.3;
  const unit = Math.max(box.width, box.height) / 100;
  const cameras = plan.cameras.map((camera) =>
    drag?.what === 'camera' && drag.id === camera.id ? { ...camera, x: drag.x, y: drag.y } : camera,
  );
  const at = (item: PlanItem, x: number, y: number) =>
    drag?.what === 'item' && sameItem(drag.item, item) ? { x: drag.x, y: drag.y } : { x, y };
  const boards = boardsOf(layout);

  function planPoint(event: { clientX: number; clientY: number }): { x: number; y: number } | null {
    const matrix = svg.current?.getScreenCTM();
    if (!svg.current || !matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: onPlan(point.x), y: onPlan(point.y) };
  }

  const finishWall = () => {
    const points = wallPoints(draftWall);
    setDraftWall([]);
    if (points.length < 2) return;
    const id = newPlanId('wall', plan);
    submit(addWall(node.id, id, points, authors));
    setSelected({ kind: 'wall', id });
  };

  const pickTool = (next: Tool) => {
    if (tool === 'wall' && next !== 'wall') finishWall();
    setTool(next);
  };

  /** A click on the plan itself (not on an item): what the tool makes there. */
  const onPlanDown = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (!editable || (event.pointerType === 'mouse' && event.button !== 0)) return;
    svg.current?.focus({ preventScroll: true });
    const point = planPoint(event);
    if (!point) return;
    if (tool === 'select') setSelected(null);
    else if (tool === 'wall') setDraftWall((points) => [...points, point]);
    else if (tool === 'door') {
      const id = newPlanId('door', plan);
      submit(addDoor(node.id, id, point, unit * 6, authors));
      setSelected({ kind: 'door', id });
    } else {
      const id = newPlanId(tool, plan);
      const name = newName.trim() || (tool === 'prop' ? 'Prop' : 'Character');
      submit(
        tool === 'prop' ? addProp(node.id, id, name, point, authors) : addCharacter(node.id, id, name, point, authors),
      );
      setSelected({ kind: tool, id });
    }
  };

  /** Pressing on an item with the Select tool: selects it, and a drag moves it (one write when it is let go). */
  const grab = (item: PlanItem, x: number, y: number) => (event: ReactPointerEvent<SVGElement>) => {
    if (!editable || tool !== 'select' || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.stopPropagation();
    svg.current?.focus({ preventScroll: true });
    setSelected(item);
    if (item.kind === 'wall') return;
    svg.current?.setPointerCapture(event.pointerId);
    // Held where it was taken: the item does not jump to put its centre under the pointer.
    const point = planPoint(event);
    setDrag({
      what: 'item',
      item,
      x,
      y,
      moved: false,
      offset: point ? { x: point.x - x, y: point.y - y } : { x: 0, y: 0 },
    });
  };

  const onMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const point = planPoint(event);
    if (!point) return;
    setDrag(
      drag.what === 'item'
        ? { ...drag, x: onPlan(point.x - drag.offset.x), y: onPlan(point.y - drag.offset.y), moved: true }
        : { ...drag, ...point },
    );
  };
  const onUp = () => {
    if (!drag) return;
    setDrag(null);
    if (drag.what === 'camera') submitCamera(drag.id, { x: drag.x, y: drag.y });
    else if (drag.what === 'wall-point')
      submit(moveWallPoint(node.id, drag.wallId, drag.index, { x: drag.x, y: drag.y }, authors));
    else if (drag.moved) submit(moveItem(node.id, drag.item, { x: drag.x, y: drag.y }, authors));
  };

  const onKeyDown = (event: ReactKeyboardEvent<SVGSVGElement>) => {
    if (!editable) return;
    if (event.key === 'Enter' && tool === 'wall') finishWall();
    else if (event.key === 'Escape' && draftWall.length > 0) setDraftWall([]);
    else if (event.key === 'Escape' && selected) setSelected(null);
    else if ((event.key === 'Delete' || event.key === 'Backspace') && selected) {
      submit(removeItem(node.id, selected, authors));
      setSelected(null);
    } else return;
    // The plan's keys, not the canvas's: Delete removes the wall, never the card.
    event.preventDefault();
    event.stopPropagation();
  };

  const selectedWall = selected?.kind === 'wall' ? plan.walls.find((wall) => wall.id === selected.id) : undefined;
  const wallShown = (wall: FloorPlanNodeData['walls'][number]) =>
    drag?.what === 'wall-point' && drag.wallId === wall.id
      ? wall.points.map((point, index) => (index === drag.index ? { x: drag.x, y: drag.y } : point))
      : wall.points;
  const highlight = (item: PlanItem) => (sameItem(selected, item) ? '#f59e0b' : undefined);
  const grabbing = editable && tool === 'select' ? { cursor: 'grab' } : undefined;

  return (
    <CardShell card={card} className="card-wide">
      {editable ? (
        <FloorPlanTools tool={tool} tools={TOOLS} onTool={pickTool} newName={newName} onNewName={setNewName} />
      ) : null}
      <svg
        ref={svg}
        className="floor-plan nodrag nowheel"
        viewBox={`${box.x} ${box.y} ${box.width} ${box.height}`}
        role="img"
        aria-label="Floor plan"
        tabIndex={editable ? 0 : undefined}
        data-tool={tool}
        style={{
          width: '100%',
          aspectRatio: `${box.width} / ${box.height}`,
          background: '#fff',
          cursor: editable && tool !== 'select' ? 'crosshair' : undefined,
        }}
        onPointerDown={onPlanDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={() => setDrag(null)}
        onDoubleClick={() => {
          if (tool === 'wall') finishWall();
        }}
        onKeyDown={onKeyDown}
      >
        {plan.walls.map((wall) => (
          <g key={wall.id}>
            <polyline
              data-wall={wall.id}
              points={wallShown(wall)
                .map(({ x, y }) => `${x},${y}`)
                .join(' ')}
              fill="none"
              stroke={highlight({ kind: 'wall', id: wall.id }) ?? '#111'}
              strokeWidth={unit * 1.2}
            />
            {/* A wider, unseen line to click: a wall is thin. */}
            <polyline
              data-wall-hit={wall.id}
              points={wallShown(wall)
                .map(({ x, y }) => `${x},${y}`)
                .join(' ')}
              fill="none"
              stroke="transparent"
              strokeWidth={unit * 4}
              style={grabbing}
              pointerEvents={tool === 'select' ? 'stroke' : 'none'}
              onPointerDown={grab({ kind: 'wall', id: wall.id }, 0, 0)}
            />
          </g>
        ))}
        {(plan.doors ?? []).map((door) => {
          const item: PlanItem = { kind: 'door', id: door.id };
          const place = at(item, door.x, door.y);
          return (
            <path
              key={door.id}
              data-door={door.id}
              d={`M ${place.x} ${place.y} l ${door.width * Math.cos(radians(door.angleDeg))} ${door.width * Math.sin(radians(door.angleDeg))}`}
              stroke={highlight(item) ?? '#8a5a00'}
              strokeWidth={unit * 1.6}
              style={grabbing}
              onPointerDown={grab(item, door.x, door.y)}
            />
          );
        })}
        {(plan.props ?? []).map((prop) => {
          const item: PlanItem = { kind: 'prop', id: prop.id };
          const place = at(item, prop.x, prop.y);
          return (
            <g
              key={prop.id}
              data-prop={prop.id}
              transform={`rotate(${prop.rotationDeg ?? 0} ${place.x} ${place.y})`}
              style={grabbing}
              onPointerDown={grab(item, prop.x, prop.y)}
            >
              <rect
                x={place.x - prop.width / 2}
                y={place.y - prop.depth / 2}
                width={prop.width}
                height={prop.depth}
                fill="#e2e8f0"
                stroke={highlight(item) ?? '#475569'}
                strokeWidth={unit * (highlight(item) ? 0.9 : 0.4)}
              />
              <text x={place.x} y={place.y} fontSize={unit * 3} textAnchor="middle" dominantBaseline="middle">
                {prop.name}
              </text>
            </g>
          );
        })}
        {(plan.beats?.[0]?.positions ?? []).map((position) => {
          const item: PlanItem = { kind: 'character', id: position.character_id };
          const place = at(item, position.x, position.y);
          return (
            <g
              key={position.character_id}
              data-character={position.character_id}
              style={grabbing}
              onPointerDown={grab(item, position.x, position.y)}
            >
              <circle
                cx={place.x}
                cy={place.y}
                r={unit * 2}
                fill="#7c3aed"
                stroke={highlight(item)}
                strokeWidth={unit * 0.8}
              />
              <text x={place.x + unit * 2.5} y={place.y} fontSize={unit * 3} dominantBaseline="middle">
                {plan.characters?.find((character) => character.id === position.character_id)?.name ??
                  position.character_id}
              </text>
            </g>
          );
        })}
        {selectedWall && editable
          ? wallShown(selectedWall).map((point, index) => (
              <circle
                key={index}
                data-wall-point={index}
                cx={point.x}
                cy={point.y}
                r={unit * 1.8}
                fill="#f59e0b"
                style={{ cursor: 'grab' }}
                onPointerDown={(event) => {
                  if (tool !== 'select') return;
                  event.stopPropagation();
                  svg.current?.setPointerCapture(event.pointerId);
                  setDrag({ what: 'wall-point', wallId: selectedWall.id, index, x: point.x, y: point.y });
                }}
              />
            ))
          : null}
        {draftWall.length > 0 ? (
          <g data-wall-draft>
            <polyline
              points={draftWall.map(({ x, y }) => `${x},${y}`).join(' ')}
              fill="none"
              stroke="#2563eb"
              strokeDasharray={`${unit * 2} ${unit}`}
              strokeWidth={unit * 1.2}
            />
            {draftWall.map((point, index) => (
              <circle key={index} cx={point.x} cy={point.y} r={unit * 1.2} fill="#2563eb" />
            ))}
          </g>
        ) : null}
        {cameras.map((camera) => {
          const linked = linkedShot(layout, camera.shot);
          const number = linked ? (linked.shot.number ?? String(linked.index + 1)) : null;
          return (
            <g key={camera.id} data-camera={camera.id}>
              <path
                data-fov-wedge={camera.id}
                d={wedgePath(camera, reach)}
                fill="rgba(37, 99, 235, 0.18)"
                stroke="#2563eb"
                strokeWidth={unit * 0.4}
                pointerEvents="none"
              />
              <circle
                data-camera-handle={camera.id}
                cx={camera.x}
                cy={camera.y}
                r={unit * 2.5}
                fill="#2563eb"
                style={editable ? { cursor: 'grab' } : undefined}
                onPointerDown={(event) => {
                  if (!editable || tool !== 'select') return;
                  event.stopPropagation();
                  svg.current?.setPointerCapture(event.pointerId);
                  const point = planPoint(event);
                  if (point) setDrag({ what: 'camera', id: camera.id, ...point });
                }}
              />
              <text
                x={camera.x + unit * 3}
                y={camera.y - unit * 3}
                fontSize={unit * 3.5}
                fill="#1e3a8a"
                data-camera-label={camera.id}
                pointerEvents="none"
              >
                {camera.name}
                {number !== null ? ` · shot ${number}` : ''}
              </text>
            </g>
          );
        })}
      </svg>
      {editable && selected ? (
        <div className="floor-plan-tools nodrag nowheel">
          <PlanSelection
            selected={selected}
            plan={plan}
            onRename={(item, name) => submit(renameItem(node.id, item, name, authors))}
            onDelete={(item) => {
              submit(removeItem(node.id, item, authors));
              setSelected(null);
            }}
          />
        </div>
      ) : null}
      <div className="floor-plan-cameras nodrag nowheel">
        {plan.cameras.map((camera) => (
          <div key={camera.id} className="floor-plan-camera" data-camera-row={camera.id}>
            <strong>{camera.name}</strong>{' '}
            <Select
              label={`Camera ${camera.name} sensor format`}
              value={camera.sensor}
              disabled={!editable}
              onChange={(next) => submitCamera(camera.id, { sensor: next as SensorFormatId })}
              options={SENSOR_FORMAT_IDS.map((id) => ({ value: id, label: SENSOR_FORMATS[id].label }))}
            />{' '}
            <LensInput camera={camera} disabled={!editable} onSave={(lensMm) => submitCamera(camera.id, { lensMm })} />{' '}
            <span className="muted" data-camera-fov={camera.id}>
              {horizontalFovDeg(camera.sensor, camera.lensMm).toFixed(1)}°
            </span>{' '}
            <Select
              label={`Camera ${camera.name} shot`}
              value={camera.shot ? `${camera.shot.board_node_id}\n${camera.shot.shot_id}` : ''}
              disabled={!editable}
              onChange={(next) => {
                const [board_node_id, shot_id] = next.split('\n');
                submitCamera(camera.id, { shot: board_node_id && shot_id ? { board_node_id, shot_id } : null });
              }}
              options={[
                { value: '', label: 'No shot' },
                ...boards.flatMap((board) =>
                  board.shots.map((shot, index) => ({
                    value: `${board.node.id}\n${shot.id}`,
                    label: `${String(board.node.data.displayName ?? board.node.id)} · shot ${shot.number ?? index + 1}`,
                  })),
                ),
              ]}
            />{' '}
            {editable ? (
              <button
                type="button"
                onClick={() => void controller.submit(removeCamera(node.id, camera.id, authors))}
                aria-label={`Remove camera ${camera.name}`}
              >
                ×
              </button>
            ) : null}
          </div>
        ))}
        {editable ? (
          <button type="button" onClick={() => void controller.submit(addCamera(node.id, authors))}>
            Add camera
          </button>
        ) : null}
      </div>
    </CardShell>
  );
}

/** The lens in mm, saved when the person leaves the field or presses Enter, if it is a lens the contract allows. */
function LensInput({
  camera,
  disabled,
  onSave,
}: {
  camera: PlanCamera;
  disabled: boolean;
  onSave: (lensMm: number) => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const save = () => {
    if (typed === null) return;
    const lens = Number(typed);
    setTyped(null);
    if (Number.isFinite(lens) && lens >= 1 && lens <= 2000 && lens !== camera.lensMm) onSave(lens);
  };
  return (
    <label>
      <input
        aria-label={`Camera ${camera.name} lens (mm)`}
        type="number"
        min={1}
        max={2000}
        step="any"
        style={{ width: '4.5em' }}
        disabled={disabled}
        value={typed ?? String(camera.lensMm)}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save();
        }}
      />{' '}
      mm
    </label>
  );
}
