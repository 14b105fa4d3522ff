import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  dataOf,
  SENSOR_FORMAT_IDS,
  type FloorPlanNodeData,
  type PlanCamera,
  type SensorFormatId,
} from '../../../src/contract/index.js';
import { horizontalFovDeg, SENSOR_FORMATS } from '../../../src/shared/lens.js';
import { addCamera, editCamera, linkedShot, removeCamera, type CameraPatch } from '../model/floor-plan.js';
import { boardsOf } from '../model/shots.js';
import { useCanvas, useCanvasState, useEditable } from '../ui/canvas-context.js';
import { CardShell, type CardProps } from './parts.js';
import { Select } from '../ui/select.js';

/**
 * floorPlanNode: the scene from above (docs/storyboards.md, "Floor plans"): walls, doors, props, the characters where
 * the first beat puts them, and each camera with its field-of-view wedge (from its sensor format and lens) and the
 * number of the shot it films. Cameras are added, set and linked below the drawing, and moved by dragging them.
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

export function FloorPlanNodeCard(card: CardProps) {
  const { node } = card.data;
  const plan = dataOf(node, 'floorPlanNode') ?? EMPTY;
  const editable = useEditable();
  const { controller } = useCanvas();
  const layout = useCanvasState((state) => state.layout);
  const authors = () => controller.store.getState().lastAuthor;
  const submitCamera = (cameraId: string, patch: CameraPatch) =>
    void controller.submit(editCamera(node.id, cameraId, patch, authors));
  const [dragged, setDragged] = useState<{ id: string; x: number; y: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const box = boundsOf(plan);
  const reach = Math.max(box.width, box.height) * 0.3;
  const unit = Math.max(box.width, box.height) / 100;
  const cameras = plan.cameras.map((camera) =>
    dragged?.id === camera.id ? { ...camera, x: dragged.x, y: dragged.y } : camera,
  );
  const boards = boardsOf(layout);

  function planPoint(event: ReactPointerEvent): { x: number; y: number } | null {
    const matrix = svg.current?.getScreenCTM();
    if (!svg.current || !matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: Math.round(point.x * 100) / 100, y: Math.round(point.y * 100) / 100 };
  }

  return (
    <CardShell card={card} className="card-wide">
      <svg
        ref={svg}
        className="floor-plan nodrag nowheel"
        viewBox={`${box.x} ${box.y} ${box.width} ${box.height}`}
        role="img"
        aria-label="Floor plan"
        style={{ width: '100%', aspectRatio: `${box.width} / ${box.height}`, background: '#fff' }}
      >
        {plan.walls.map((wall) => (
          <polyline
            key={wall.id}
            data-wall={wall.id}
            points={wall.points.map(({ x, y }) => `${x},${y}`).join(' ')}
            fill="none"
            stroke="#111"
            strokeWidth={unit * 1.2}
          />
        ))}
        {(plan.doors ?? []).map((door) => (
          <path
            key={door.id}
            data-door={door.id}
            d={`M ${door.x} ${door.y} l ${door.width * Math.cos(radians(door.angleDeg))} ${door.width * Math.sin(radians(door.angleDeg))}`}
            stroke="#8a5a00"
            strokeWidth={unit * 0.8}
          />
        ))}
        {(plan.props ?? []).map((prop) => (
          <g key={prop.id} data-prop={prop.id} transform={`rotate(${prop.rotationDeg ?? 0} ${prop.x} ${prop.y})`}>
            <rect
              x={prop.x - prop.width / 2}
              y={prop.y - prop.depth / 2}
              width={prop.width}
              height={prop.depth}
              fill="#e2e8f0"
              stroke="#475569"
              strokeWidth={unit * 0.4}
            />
            <text x={prop.x} y={prop.y} fontSize={unit * 3} textAnchor="middle" dominantBaseline="middle">
              {prop.name}
            </text>
          </g>
        ))}
        {(plan.beats?.[0]?.positions ?? []).map((position) => (
          <g key={position.character_id} data-character={position.character_id}>
            <circle cx={position.x} cy={position.y} r={unit * 2} fill="#7c3aed" />
            <text x={position.x + unit * 2.5} y={position.y} fontSize={unit * 3} dominantBaseline="middle">
              {plan.characters?.find((character) => character.id === position.character_id)?.name ??
                position.character_id}
            </text>
          </g>
        ))}
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
              />
              <circle
                data-camera-handle={camera.id}
                cx={camera.x}
                cy={camera.y}
                r={unit * 2.5}
                fill="#2563eb"
                style={editable ? { cursor: 'grab' } : undefined}
                onPointerDown={(event) => {
                  if (!editable) return;
                  event.currentTarget.setPointerCapture(event.pointerId);
                  const point = planPoint(event);
                  if (point) setDragged({ id: camera.id, ...point });
                }}
                onPointerMove={(event) => {
                  if (dragged?.id !== camera.id) return;
                  const point = planPoint(event);
                  if (point) setDragged({ id: camera.id, ...point });
                }}
                onPointerUp={() => {
                  if (dragged?.id !== camera.id) return;
                  setDragged(null);
                  submitCamera(camera.id, { x: dragged.x, y: dragged.y });
                }}
              />
              <text
                x={camera.x + unit * 3}
                y={camera.y - unit * 3}
                fontSize={unit * 3.5}
                fill="#1e3a8a"
                data-camera-label={camera.id}
              >
                {camera.name}
                {number !== null ? ` · shot ${number}` : ''}
              </text>
            </g>
          );
        })}
      </svg>
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
