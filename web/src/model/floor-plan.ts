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
