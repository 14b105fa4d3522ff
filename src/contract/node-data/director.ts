import { z } from 'zod';
import { PositiveNumber, Vector3 } from './common.js';

/**
 * Spec section "Director control bundle": a field of image-type node data. Every object here refuses unknown
 * properties. Shapes the spec leaves "not given" (camera, placement, beat_context, record values) are decided in
 * docs/contract.md.
 */

const StringRecord = z.record(z.string(), z.string());

export const FrameSourceType = z.enum(['sog', 'pano360']);
export const FrameSourceKind = z.enum(['master', 'reverse', 'pano', 'uploaded', 'custom']);
export const SourceSlotKind = z.enum(['scene_director_pano_360', 'scene_360_candidate']);

export const FrameSource = z
  .strictObject({
    source_id: z.string(),
    source_type: FrameSourceType,
    source_kind: FrameSourceKind,
    label: z.string().optional(),
    ply_url: z.string().optional(),
    url: z.string().optional(),
    pano_url: z.string().optional(),
    pano_fs: z.string().optional(),
    collision_glb_url: z.string().optional(),
    fs: z.string().optional(),
    slot_kind: SourceSlotKind.optional(),
  })
  .meta({ id: 'FrameSource' });

/** Decided shape (spec: "camera (shape not given)"): a pinhole camera in the scene's world coordinates. */
export const FrameCamera = z
  .strictObject({
    position: Vector3.meta({ description: 'Camera position [x, y, z] in world units.' }),
    rotation_deg: Vector3.optional().meta({ description: 'Camera rotation [pitch, yaw, roll] in degrees.' }),
    target: Vector3.optional().meta({ description: 'Point the camera looks at [x, y, z], when known.' }),
    fov_deg: PositiveNumber.optional(),
    focal_length_mm: PositiveNumber.optional(),
    near: PositiveNumber.optional(),
    far: PositiveNumber.optional(),
  })
  .meta({ id: 'FrameCamera' });

/**
 * Decided shapes (spec: "one of two placement shapes, not given"): an object is either placed in the 3D world
 * or pinned to a point of the frame image (normalized 0..1 coordinates).
 */
export const WorldPlacement = z.strictObject({
  mode: z.literal('world'),
  position: Vector3,
  rotation_deg: Vector3.optional(),
});
export const FramePlacement = z.strictObject({
  mode: z.literal('frame'),
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  depth: PositiveNumber.optional(),
});
export const Placement = z.discriminatedUnion('mode', [WorldPlacement, FramePlacement]).meta({ id: 'Placement' });

const layerObjectFields = {
  id: z.string(),
  label: z.string(),
  color: z.string(),
  scale: Vector3,
  placement: Placement,
};

export const ActorLayerObject = z.strictObject({
  ...layerObjectFields,
  kind: z.literal('actor'),
  pose: z.string().optional(),
  action_playing: z.boolean().optional(),
});

export const PropLayerObject = z.strictObject({
  ...layerObjectFields,
  kind: z.literal('prop'),
  shape_hint: z.string().optional(),
});

export const StagingLayerObject = z.strictObject({
  ...layerObjectFields,
  kind: z.literal('staging'),
  shape_hint: z.string().optional(),
  name: z.string().optional(),
  marker_color: z.string().optional(),
  semantic_label: z.string().optional(),
});

export const FrameLayer = z
  .strictObject({
    source_id: z.string(),
    actors: z.array(ActorLayerObject),
    props: z.array(PropLayerObject),
    stagings: z.array(StagingLayerObject),
  })
  .meta({ id: 'FrameLayer' });

export const FrameMetaActor = z.strictObject({
  id: z.string(),
  identity_id: z.string(),
  name: z.string(),
  label: z.string(),
  marker_color: z.string(),
  state: z.string().optional(),
  action_playing: z.boolean().optional(),
});

export const FrameMetaPropOrStaging = z.strictObject({
  id: z.string(),
  prop_id: z.string(),
  name: z.string(),
  label: z.string(),
  marker_color: z.string(),
  semantic_label: z.string(),
  type: z.enum(['prop_hero', 'prop_staging']),
  category: z.enum(['staging', 'hero']),
  shape_hint: z.string().optional(),
});

/** Decided shape (spec names beat_context without a shape): the beat the frame was made for. */
export const FrameBeatContext = z.strictObject({
  episode: z.number().optional(),
  beat: z.number().optional(),
  content: z.string().optional(),
  source_node_id: z.string().optional(),
});

export const FrameMeta = z
  .strictObject({
    schema_version: z.literal('director_frame_meta_v1'),
    source: FrameSource,
    camera: FrameCamera,
    layer: FrameLayer,
    actors: z.array(FrameMetaActor).optional(),
    props: z.array(FrameMetaPropOrStaging).optional(),
    stagings: z.array(FrameMetaPropOrStaging).optional(),
    beat_context: FrameBeatContext.optional(),
  })
  .meta({ id: 'FrameMeta' });

export const DirectorControlBundle = z
  .strictObject({
    schema_version: z.literal('director_control_bundle_v1'),
    dir: z.string(),
    paths: StringRecord,
    rel_paths: StringRecord,
    urls: StringRecord.optional(),
    source: FrameSource.optional(),
    frame_meta: FrameMeta.optional(),
  })
  .meta({ id: 'DirectorControlBundle' });

export const WorldSourceTransform = z.strictObject({
  xOffset: z.number(),
  yOffset: z.number(),
  zOffset: z.number(),
  yawDeg: z.number(),
  pitchDeg: z.number(),
  rollDeg: z.number(),
  scale: z.number(),
});

/** The spec's "world source shape". It is used by threeDWorldNode.data.sources (decision in docs/contract.md). */
export const WorldSource = z
  .strictObject({
    source_type: z.enum(['sog', 'pano360', 'mesh']),
    id: z.string().optional(),
    source_kind: z.enum(['active', 'master', 'reverse', 'pano', 'uploaded', 'custom']).optional(),
    label: z.string().optional(),
    urls: StringRecord.optional(),
    slot_kind: SourceSlotKind.optional(),
    current: z.boolean().optional(),
    transform: WorldSourceTransform.optional(),
  })
  .meta({ id: 'WorldSource' });

export type DirectorControlBundle = z.infer<typeof DirectorControlBundle>;
export type WorldSource = z.infer<typeof WorldSource>;
