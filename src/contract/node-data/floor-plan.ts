import { z } from 'zod';
import { NodeId } from '../identifiers.js';
import { commonDataFields, List, Str } from './common.js';

/**
 * floorPlanNode: a scene seen from above (docs/storyboards.md, "Floor plans"; docs/contract.md). A shape the spec
 * does not have: a node type of ours, closed like every data shape. Coordinates are metres on the plan (x right,
 * y down, as the canvas draws it); directions are degrees clockwise from +x. A point is {x, y}.
 */

/** The sensor formats a plan's camera may have; their widths are in src/shared/lens.ts. */
export const SENSOR_FORMAT_IDS = ['super35', 'full_frame', 'alexa35', 'super16', 'micro_four_thirds'] as const;
export const SensorFormatId = z.enum(SENSOR_FORMAT_IDS);
export type SensorFormatId = z.infer<typeof SensorFormatId>;

export const FLOOR_PLAN_BOUNDS = {
  /** Half the plan's side in metres: every coordinate is within ±extent. */
  extent: 1000,
  walls: 200,
  /** Points of one wall. */
  wallPoints: 100,
  doors: 100,
  props: 200,
  characters: 50,
  beats: 100,
  cameras: 50,
} as const;

const PlanCoordinate = z.number().min(-FLOOR_PLAN_BOUNDS.extent).max(FLOOR_PLAN_BOUNDS.extent);
const Degrees = z.number().min(-360).max(360);
/** A point on the plan (an object, not an [x, y] tuple: some MCP clients cannot read tuple schemas). */
export const PlanPoint = z.strictObject({ x: PlanCoordinate, y: PlanCoordinate });
const PlanId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, { error: 'must be 1 to 40 letters, digits, _ or -' });

/** A wall: an open polyline of at least two points. */
export const PlanWall = z.strictObject({
  id: PlanId,
  points: List(PlanPoint, FLOOR_PLAN_BOUNDS.wallPoints).min(2, { error: 'must hold at least two points' }),
});

/** A door in a wall: its hinge at (x, y), its leaf `width` metres long, opening towards `angleDeg`. */
export const PlanDoor = z.strictObject({
  id: PlanId,
  x: PlanCoordinate,
  y: PlanCoordinate,
  width: z.number().positive().max(20),
  angleDeg: Degrees,
});

/** A prop: a named rectangle centred on (x, y). */
export const PlanProp = z.strictObject({
  id: PlanId,
  name: Str,
  x: PlanCoordinate,
  y: PlanCoordinate,
  width: z.number().positive().max(100),
  depth: z.number().positive().max(100),
  rotationDeg: Degrees.optional(),
});

export const PlanCharacter = z.strictObject({ id: PlanId, name: Str });

/** Where a character stands in a beat (the character named by its id in `characters`). */
export const PlanPosition = z.strictObject({
  character_id: PlanId,
  x: PlanCoordinate,
  y: PlanCoordinate,
  facingDeg: Degrees.optional(),
});

/** One beat of the scene: the characters' positions at that moment. */
export const PlanBeat = z.strictObject({
  id: PlanId,
  label: Str.optional(),
  positions: List(PlanPosition, FLOOR_PLAN_BOUNDS.characters),
});

/** The shot a camera films: a board node and the shot's stable id (never its number, which renumbering changes). */
export const PlanShotLink = z.strictObject({ board_node_id: NodeId, shot_id: Str });

/** A camera: where it stands, where it looks, its sensor format and lens, and the shot it films. */
export const PlanCamera = z.strictObject({
  id: PlanId,
  name: Str,
  x: PlanCoordinate,
  y: PlanCoordinate,
  directionDeg: Degrees,
  sensor: SensorFormatId,
  lensMm: z.number().min(1).max(2000),
  shot: PlanShotLink.nullable().optional(),
});

export const FloorPlanNodeData = z.strictObject({
  ...commonDataFields,
  title: Str.optional(),
  walls: List(PlanWall, FLOOR_PLAN_BOUNDS.walls),
  doors: List(PlanDoor, FLOOR_PLAN_BOUNDS.doors).optional(),
  props: List(PlanProp, FLOOR_PLAN_BOUNDS.props).optional(),
  characters: List(PlanCharacter, FLOOR_PLAN_BOUNDS.characters).optional(),
  beats: List(PlanBeat, FLOOR_PLAN_BOUNDS.beats).optional(),
  cameras: List(PlanCamera, FLOOR_PLAN_BOUNDS.cameras),
});

export type FloorPlanNodeData = z.infer<typeof FloorPlanNodeData>;
export type PlanCamera = z.infer<typeof PlanCamera>;
export type PlanShotLink = z.infer<typeof PlanShotLink>;
