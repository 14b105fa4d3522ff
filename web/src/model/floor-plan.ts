import {
  dataOf,
  type CanvasNode,
  type FloorPlanNodeData,
  type LayoutOperation,
  type PlanCamera,
} from '../../../src/contract/index.js';
import type { Intent } from './canvas-state.js';
import { authorLabel, type Author, type Layout } from './layout.js';
import { boardOf, type Shot } from './shots.js';

/**
 * Changes to a floor plan's cameras (docs/storyboards.md, "Floor plans"). A camera linked to a shot and that shot's
 * `lensMm` follow each other: a change of the camera's lens or link writes the shot's lens in the same batch, so
 * one revision (one Ctrl+Z) holds both. The link names the shot by id, so renumbering the board never breaks it.
 */

type Authors = () => Record<string, Author | null>;

export type CameraPatch = Partial<Omit<PlanCamera, 'id'>>;

function planOf(layout: Layout, planId: string): { node: CanvasNode; data: FloorPlanNodeData } | undefined {
  const node = layout.nodes.find((candidate) => candidate.id === planId);
  const data = dataOf(node, 'floorPlanNode');
  return node && data ? { node, data } : undefined;
}

/** The shot a link names, with its board, or undefined when either is gone. */
export function linkedShot(
  layout: Layout,
  link: PlanCamera['shot'],
): { board: CanvasNode; shot: Shot; index: number } | undefined {
  if (!link) return undefined;
  const node = layout.nodes.find((candidate) => candidate.id === link.board_node_id);
  if (!node || node.type !== 'storyboardNode') return undefined;
  const shots = boardOf(node).shots;
  const index = shots.findIndex((shot) => shot.id === link.shot_id);
  return index < 0 ? undefined : { board: node, shot: shots[index]!, index };
}

/** The update that gives the linked shot the camera's lens, or nothing when it already has it. */
function shotLensUpdate(layout: Layout, camera: PlanCamera): LayoutOperation[] {
  const linked = linkedShot(layout, camera.shot);
  if (!linked || linked.shot.lensMm === camera.lensMm) return [];
  const data = linked.board.data as Record<string, unknown>;
  const frames = boardOf(linked.board).shots.map((shot) =>
    shot.id === linked.shot.id ? { ...shot, lensMm: camera.lensMm } : shot,
  );
  return [{ op: 'update_node', node_id: linked.board.id, set: { data: { ...data, frames } } }];
}

function planChange(
  planId: string,
  label: string,
  authors: Authors,
  change: (cameras: PlanCamera[], layout: Layout) => PlanCamera[] | { notApplicable: string },
  follow?: (cameras: PlanCamera[]) => PlanCamera | undefined,
): Intent {
  return {
    label,
    build(layout) {
      const plan = planOf(layout, planId);
      if (!plan)
        return {
          notApplicable: `${label}: the plan was deleted by ${authorLabel(authors()[planId])} meanwhile, so your change was not applied.`,
        };
      const cameras = change(plan.data.cameras, layout);
      if ('notApplicable' in cameras) return cameras;
      const data = { ...(plan.node.data as Record<string, unknown>), cameras };
      const followed = follow?.(cameras);
      return [
        { op: 'update_node', node_id: planId, set: { data } },
        ...(followed ? shotLensUpdate(layout, followed) : []),
      ];
    },
  };
}

/** A camera letter nobody on the plan uses yet: A, B, C, … then A2, B2, … */
export function nextCameraName(cameras: readonly PlanCamera[]): string {
  const taken = new Set(cameras.map((camera) => camera.name));
  for (let round = 1; ; round += 1)
    for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
      const name = round === 1 ? letter : `${letter}${round}`;
      if (!taken.has(name)) return name;
    }
}

/** Adds a camera at the plan's origin looking right: Super 35 with a 50 mm lens until someone says otherwise. */
export function addCamera(planId: string, authors: Authors): Intent {
  return planChange(planId, 'Add camera', authors, (cameras) => {
    const name = nextCameraName(cameras);
    const taken = new Set(cameras.map((camera) => camera.id));
    let id = `cam-${name}`;
    for (let index = 2; taken.has(id); index += 1) id = `cam-${name}-${index}`;
    return [...cameras, { id, name, x: 0, y: 0, directionDeg: 0, sensor: 'super35', lensMm: 50, shot: null }];
  });
}

/**
 * Sets fields of one camera. Linking it to a shot, or changing its lens while linked, gives the shot the camera's
 * lens in the same batch (the server does the same for any writer: src/store/layout-writes/lens-links.ts).
 */
export function editCamera(planId: string, cameraId: string, patch: CameraPatch, authors: Authors): Intent {
  const label = `Edit camera ${Object.keys(patch).join(', ')}`;
  let edited: PlanCamera | undefined;
  return planChange(
    planId,
    label,
    authors,
    (cameras) => {
      if (!cameras.some((camera) => camera.id === cameraId))
        return { notApplicable: `${label}: that camera was removed meanwhile, so your change was not applied.` };
      return cameras.map((camera) => {
        if (camera.id !== cameraId) return camera;
        const next: PlanCamera = { ...camera, ...patch };
        edited = next;
        return next;
      });
    },
    () => edited,
  );
}

/** Removes one camera. */
export function removeCamera(planId: string, cameraId: string, authors: Authors): Intent {
  return planChange(planId, 'Remove camera', authors, (cameras) => cameras.filter((camera) => camera.id !== cameraId));
}

/**
 * Editing the rest of the plan on the page: walls, doors, props and the characters where the first beat puts them.
 * Each edit is one intent (one write, one Ctrl+Z), built on the plan as the layout has it when it is sent, so an item
 * someone else changed meanwhile is kept.
 */

export type PlanItem =
  | { kind: 'wall'; id: string }
  | { kind: 'door'; id: string }
  | { kind: 'prop'; id: string }
  | { kind: 'character'; id: string };

export interface PlanXY {
  x: number;
  y: number;
}

/** A door's leaf, a prop's size and a character's place: what the page gives a new one until someone says otherwise. */
export const NEW_DOOR_WIDTH = 0.9;
export const NEW_PROP_SIZE = { width: 1, depth: 0.6 };

/** Metres on the plan to a centimetre: what a click on the card means, and what the contract stores. */
export const onPlan = (value: number) => Math.round(value * 100) / 100;

/** An id for a new item, unused on the plan: `wall-3f9a1c` (the contract's ids are 1 to 40 letters, digits, _ or -). */
export function newPlanId(prefix: string, plan: FloorPlanNodeData): string {
  const taken = new Set([
    ...plan.walls.map((each) => each.id),
    ...(plan.doors ?? []).map((each) => each.id),
    ...(plan.props ?? []).map((each) => each.id),
    ...(plan.characters ?? []).map((each) => each.id),
  ]);
  for (;;) {
    const id = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}

function planDataChange(
  planId: string,
  label: string,
  authors: Authors,
  change: (plan: FloorPlanNodeData) => FloorPlanNodeData | { notApplicable: string },
): Intent {
  return {
    label,
    build(layout) {
      const plan = planOf(layout, planId);
      if (!plan)
        return {
          notApplicable: `${label}: the plan was deleted by ${authorLabel(authors()[planId])} meanwhile, so your change was not applied.`,
        };
      const next = change(plan.data);
      if ('notApplicable' in next) return next;
      return [{ op: 'update_node', node_id: planId, set: { data: { ...(plan.node.data as object), ...next } } }];
    },
  };
}

const removedMeanwhile = (label: string) => ({
  notApplicable: `${label}: that item was removed meanwhile, so your change was not applied.`,
});

/** Whether the item is still on the plan (someone else may have removed it since it was selected). */
export function hasItem(plan: FloorPlanNodeData, item: PlanItem): boolean {
  if (item.kind === 'wall') return plan.walls.some((wall) => wall.id === item.id);
  if (item.kind === 'door') return (plan.doors ?? []).some((door) => door.id === item.id);
  if (item.kind === 'prop') return (plan.props ?? []).some((prop) => prop.id === item.id);
  return (plan.beats?.[0]?.positions ?? []).some((position) => position.character_id === item.id);
}

/** Consecutive points closer than a centimetre are one (a double-click ends a wall on the point it also clicked). */
export function wallPoints(points: readonly PlanXY[]): PlanXY[] {
  const kept: PlanXY[] = [];
  for (const point of points) {
    const last = kept.at(-1);
    if (!last || Math.hypot(point.x - last.x, point.y - last.y) >= 0.01) kept.push({ x: point.x, y: point.y });
  }
  return kept;
}

/** Adds a wall through `points` (at least two distinct ones). */
export function addWall(planId: string, id: string, points: readonly PlanXY[], authors: Authors): Intent {
  return planDataChange(planId, 'Add wall', authors, (plan) => ({
    ...plan,
    walls: [...plan.walls, { id, points: wallPoints(points).map(({ x, y }) => ({ x: onPlan(x), y: onPlan(y) })) }],
  }));
}

/** Moves one point of a wall. */
export function moveWallPoint(planId: string, wallId: string, index: number, to: PlanXY, authors: Authors): Intent {
  const label = 'Move wall point';
  return planDataChange(planId, label, authors, (plan) => {
    const wall = plan.walls.find((each) => each.id === wallId);
    if (!wall || index >= wall.points.length) return removedMeanwhile(label);
    const points = wall.points.map((point, at) => (at === index ? { x: onPlan(to.x), y: onPlan(to.y) } : point));
    return { ...plan, walls: plan.walls.map((each) => (each === wall ? { ...wall, points } : each)) };
  });
}

/** The nearest point on any wall to `at`, with the direction of its segment: where a door goes. */
export function nearestOnWall(
  plan: FloorPlanNodeData,
  at: PlanXY,
): { x: number; y: number; angleDeg: number; distance: number } | null {
  let best: { x: number; y: number; angleDeg: number; distance: number } | null = null;
  for (const wall of plan.walls)
    for (let index = 1; index < wall.points.length; index += 1) {
      const [a, b] = [wall.points[index - 1]!, wall.points[index]!];
      const [dx, dy] = [b.x - a.x, b.y - a.y];
      const length = dx * dx + dy * dy;
      const t = length === 0 ? 0 : Math.min(1, Math.max(0, ((at.x - a.x) * dx + (at.y - a.y) * dy) / length));
      const [x, y] = [a.x + t * dx, a.y + t * dy];
      const distance = Math.hypot(at.x - x, at.y - y);
      if (!best || distance < best.distance)
        best = { x, y, angleDeg: Math.round((Math.atan2(dy, dx) * 180) / Math.PI), distance };
    }
  return best;
}

/** Adds a door on the wall nearest `at` (hinged there, its leaf along the wall), or says there is no wall near. */
export function addDoor(planId: string, id: string, at: PlanXY, reach: number, authors: Authors): Intent {
  const label = 'Add door';
  return planDataChange(planId, label, authors, (plan) => {
    const on = nearestOnWall(plan, at);
    if (!on || on.distance > reach) return { notApplicable: `${label}: click on a wall to put a door in it.` };
    const door = { id, x: onPlan(on.x), y: onPlan(on.y), width: NEW_DOOR_WIDTH, angleDeg: on.angleDeg };
    return { ...plan, doors: [...(plan.doors ?? []), door] };
  });
}

/** Adds a prop named `name` centred on `at`. */
export function addProp(planId: string, id: string, name: string, at: PlanXY, authors: Authors): Intent {
  return planDataChange(planId, 'Add prop', authors, (plan) => ({
    ...plan,
    props: [...(plan.props ?? []), { id, name, x: onPlan(at.x), y: onPlan(at.y), ...NEW_PROP_SIZE }],
  }));
}

/** Adds a character named `name`, standing at `at` in the first beat (a first beat is made when the plan has none). */
export function addCharacter(planId: string, id: string, name: string, at: PlanXY, authors: Authors): Intent {
  return planDataChange(planId, 'Add character', authors, (plan) => {
    const [first, ...rest] = plan.beats ?? [];
    const beat = first ?? { id: 'beat-1', positions: [] };
    const placed = { ...beat, positions: [...beat.positions, { character_id: id, x: onPlan(at.x), y: onPlan(at.y) }] };
    return { ...plan, characters: [...(plan.characters ?? []), { id, name }], beats: [placed, ...rest] };
  });
}

/** Moves a door, a prop, or a character in the first beat, to `to`. */
export function moveItem(planId: string, item: PlanItem, to: PlanXY, authors: Authors): Intent {
  const label = `Move ${item.kind}`;
  const at = { x: onPlan(to.x), y: onPlan(to.y) };
  return planDataChange(planId, label, authors, (plan) => {
    if (item.kind === 'prop') {
      if (!(plan.props ?? []).some((prop) => prop.id === item.id)) return removedMeanwhile(label);
      return { ...plan, props: plan.props!.map((prop) => (prop.id === item.id ? { ...prop, ...at } : prop)) };
    }
    if (item.kind === 'door') {
      if (!(plan.doors ?? []).some((door) => door.id === item.id)) return removedMeanwhile(label);
      return { ...plan, doors: plan.doors!.map((door) => (door.id === item.id ? { ...door, ...at } : door)) };
    }
    if (item.kind === 'character') {
      const [first, ...rest] = plan.beats ?? [];
      if (!first?.positions.some((position) => position.character_id === item.id)) return removedMeanwhile(label);
      const positions = first.positions.map((position) =>
        position.character_id === item.id ? { ...position, ...at } : position,
      );
      return { ...plan, beats: [{ ...first, positions }, ...rest] };
    }
    return { notApplicable: `${label}: a wall moves by its points.` };
  });
}

/** Renames a prop or a character. */
export function renameItem(planId: string, item: PlanItem, name: string, authors: Authors): Intent {
  const label = `Rename ${item.kind}`;
  return planDataChange(planId, label, authors, (plan) => {
    if (item.kind === 'prop' && (plan.props ?? []).some((prop) => prop.id === item.id))
      return { ...plan, props: plan.props!.map((prop) => (prop.id === item.id ? { ...prop, name } : prop)) };
    if (item.kind === 'character' && (plan.characters ?? []).some((character) => character.id === item.id))
      return {
        ...plan,
        characters: plan.characters!.map((character) =>
          character.id === item.id ? { ...character, name } : character,
        ),
      };
    return removedMeanwhile(label);
  });
}

/** Removes a wall, a door, a prop, or a character (with its place in every beat, which would name no one). */
export function removeItem(planId: string, item: PlanItem, authors: Authors): Intent {
  return planDataChange(planId, `Remove ${item.kind}`, authors, (plan) => {
    if (item.kind === 'wall') return { ...plan, walls: plan.walls.filter((wall) => wall.id !== item.id) };
    if (item.kind === 'door') return { ...plan, doors: (plan.doors ?? []).filter((door) => door.id !== item.id) };
    if (item.kind === 'prop') return { ...plan, props: (plan.props ?? []).filter((prop) => prop.id !== item.id) };
    return {
      ...plan,
      characters: (plan.characters ?? []).filter((character) => character.id !== item.id),
      beats: (plan.beats ?? []).map((beat) => ({
        ...beat,
        positions: beat.positions.filter((position) => position.character_id !== item.id),
      })),
    };
  });
}
