import { z } from 'zod';
import { List, ObjectKey, Str, UnspecifiedObject, Vector3 } from './common.js';

/**
 * Spec section "Director control bundle": a field of image-type node data. Every object the spec shapes refuses
 * unknown properties, except the layer objects, whose extras the spec lists only "such as". Shapes the spec leaves
 * "not given" (camera, placement, beat_context, record values) accept any JSON object or value; the shape we
 * recommend is in their description (docs/contract.md).
 */

/** A string-keyed record whose values the spec does not give: any JSON value (strings recommended). */
const NamedValues = z.record(ObjectKey, z.unknown()).meta({
  description: 'String-keyed record; any values (the spec gives no shape; strings suggested: paths or URLs).',
});

export const FrameSourceType = z.enum(['sog', 'pano360']);
export const FrameSourceKind = z.enum(['master', 'reverse', 'pano', 'uploaded', 'custom']);
export const SourceSlotKind = z.enum(['scene_director_pano_360', 'scene_360_candidate']);

export const FrameSource = z
  .strictObject({
    source_id: Str,
    source_type: FrameSourceType,
    source_kind: FrameSourceKind,
    label: Str.optional(),
    ply_url: Str.optional(),
    url: Str.optional(),
    pano_url: Str.optional(),
    pano_fs: Str.optional(),
    collision_glb_url: Str.optional(),
    fs: Str.optional(),
    slot_kind: SourceSlotKind.optional(),
  })
  .meta({ id: 'FrameSource' });

/** Spec: "camera (shape not given)". */
export const FrameCamera = UnspecifiedObject(
  'a pinhole camera in world units: {position: [x, y, z], rotation_deg?: [pitch, yaw, roll], target?: [x, y, z], ' +
    'fov_deg?: number > 0, focal_length_mm?: number > 0, near?: number > 0, far?: number > 0}.',
);

/** Spec: "placement (one of two placement shapes, not given)". */
export const Placement = UnspecifiedObject(
  'either {mode: "world", position: [x, y, z], rotation_deg?: [x, y, z]} or {mode: "frame", x: 0..1, y: 0..1, depth?: number > 0}.',
);

const layerObjectFields = {
  id: Str,
  label: Str,
  color: Str,
  scale: Vector3,
  placement: Placement,
};

// The spec lists the extras "such as" pose, action_playing, shape_hint, …: the ones it names are typed, others pass.
export const ActorLayerObject = z.looseObject({
  ...layerObjectFields,
  kind: z.literal('actor'),
  pose: Str.optional(),
  action_playing: z.boolean().optional(),
});

export const PropLayerObject = z.looseObject({
  ...layerObjectFields,
  kind: z.literal('prop'),
  pose: Str.optional(),
  action_playing: z.boolean().optional(),
  shape_hint: Str.optional(),
});

export const StagingLayerObject = z.looseObject({
  ...layerObjectFields,
  kind: z.literal('staging'),
  pose: Str.optional(),
  action_playing: z.boolean().optional(),
  shape_hint: Str.optional(),
  name: Str.optional(),
  marker_color: Str.optional(),
  semantic_label: Str.optional(),
});

export const FrameLayer = z
  .strictObject({
    source_id: Str,
    actors: List(ActorLayerObject),
    props: List(PropLayerObject),
    stagings: List(StagingLayerObject),
  })
  .meta({ id: 'FrameLayer' });

export const FrameMetaActor = z.strictObject({
  id: Str,
  identity_id: Str,
  name: Str,
  label: Str,
  marker_color: Str,
  state: Str.optional(),
  action_playing: z.boolean().optional(),
});

export const FrameMetaPropOrStaging = z.strictObject({
  id: Str,
  prop_id: Str,
  name: Str,
  label: Str,
  marker_color: Str,
  semantic_label: Str,
  type: z.enum(['prop_hero', 'prop_staging']),
  category: z.enum(['staging', 'hero']),
  shape_hint: Str.optional(),
});

export const FrameMeta = z
  .strictObject({
    schema_version: z.literal('director_frame_meta_v1'),
    source: FrameSource,
    camera: FrameCamera,
    layer: FrameLayer,
    actors: List(FrameMetaActor).optional(),
    props: List(FrameMetaPropOrStaging).optional(),
    stagings: List(FrameMetaPropOrStaging).optional(),
    // Spec: named without a shape.
    beat_context: z.unknown().optional().meta({
      description:
        'Shape not given by the spec: any JSON value. Recommended: {episode?, beat?, content?, source_node_id?}.',
    }),
  })
  .meta({ id: 'FrameMeta' });

export const DirectorControlBundle = z
  .strictObject({
    schema_version: z.literal('director_control_bundle_v1'),
    dir: Str,
    paths: NamedValues,
    rel_paths: NamedValues,
    urls: NamedValues.optional(),
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
    id: Str.optional(),
    source_kind: z.enum(['active', 'master', 'reverse', 'pano', 'uploaded', 'custom']).optional(),
    label: Str.optional(),
    urls: NamedValues.optional(),
    slot_kind: SourceSlotKind.optional(),
    current: z.boolean().optional(),
    transform: WorldSourceTransform.optional(),
  })
  .meta({ id: 'WorldSource' });

export type DirectorControlBundle = z.infer<typeof DirectorControlBundle>;
export type WorldSource = z.infer<typeof WorldSource>;
