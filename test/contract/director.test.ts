import { describe, it } from 'vitest';
import { CreateCanvasNodeArgs } from '../../src/contract/index.js';
import { accept, expectVerdict, refuse } from '../support/dual-validator.js';
import {
  ACTOR_LAYER_OBJECT,
  FRAME_META,
  FRAME_SOURCE,
  MINIMAL_DIRECTOR_BUNDLE,
  withData,
} from '../support/node-fixtures.js';

function checkBundle(bundle: unknown, valid: boolean): void {
  const nodeValue = withData('imageGenNode', { director_control_bundle: bundle });
  expectVerdict(CreateCanvasNodeArgs, { project_id: 'p', canvas_id: 'c', base_revision: 0, node: nodeValue }, valid);
}

const withMeta = (patch: Record<string, unknown>) => ({
  ...MINIMAL_DIRECTOR_BUNDLE,
  frame_meta: { ...FRAME_META, ...patch },
});
const withLayer = (patch: Record<string, unknown>) => withMeta({ layer: { ...FRAME_META.layer, ...patch } });

const PROP = { ...ACTOR_LAYER_OBJECT, id: 'p1', kind: 'prop' };
const STAGING = { ...ACTOR_LAYER_OBJECT, id: 's1', kind: 'staging' };
const META_ACTOR = { id: 'a1', identity_id: 'i1', name: 'Mara', label: 'M', marker_color: '#f00' };
const META_PROP = {
  id: 'p1',
  prop_id: 'lantern',
  name: 'Lantern',
  label: 'L',
  marker_color: '#0f0',
  semantic_label: 'light source',
  type: 'prop_hero',
  category: 'hero',
};

describe('director control bundle (spec: Director control bundle)', () => {
  it.each([
    accept('the required fields', MINIMAL_DIRECTOR_BUNDLE),
    accept('urls, source and frame_meta', {
      ...MINIMAL_DIRECTOR_BUNDLE,
      urls: { depth: 'https://cdn.example/d.png' },
      source: {
        ...FRAME_SOURCE,
        label: 'Master',
        ply_url: 'p',
        url: 'u',
        pano_url: 'pu',
        pano_fs: 'pf',
        collision_glb_url: 'c',
        fs: 'f',
        slot_kind: 'scene_director_pano_360',
      },
      frame_meta: FRAME_META,
    }),
    refuse('the wrong schema_version', { ...MINIMAL_DIRECTOR_BUNDLE, schema_version: 'director_control_bundle_v0' }),
    refuse('no schema_version', { dir: 'd', paths: {}, rel_paths: {} }),
    refuse('no dir', { ...MINIMAL_DIRECTOR_BUNDLE, dir: undefined }),
    refuse('no paths', { ...MINIMAL_DIRECTOR_BUNDLE, paths: undefined }),
    refuse('no rel_paths', { ...MINIMAL_DIRECTOR_BUNDLE, rel_paths: undefined }),
    // Spec: paths, rel_paths and urls are records whose values are not given.
    accept('a path value that is not a string', { ...MINIMAL_DIRECTOR_BUNDLE, paths: { depth: 1 } }),
    refuse('paths that are not an object', { ...MINIMAL_DIRECTOR_BUNDLE, paths: ['depth.png'] }),
    refuse('an unknown property', { ...MINIMAL_DIRECTOR_BUNDLE, version: 1 }),
    refuse('a source with source_type "mesh"', {
      ...MINIMAL_DIRECTOR_BUNDLE,
      source: { ...FRAME_SOURCE, source_type: 'mesh' },
    }),
    refuse('a source with source_kind "active"', {
      ...MINIMAL_DIRECTOR_BUNDLE,
      source: { ...FRAME_SOURCE, source_kind: 'active' },
    }),
    refuse('a source without source_id', {
      ...MINIMAL_DIRECTOR_BUNDLE,
      source: { ...FRAME_SOURCE, source_id: undefined },
    }),
    refuse('a source with slot_kind "other"', {
      ...MINIMAL_DIRECTOR_BUNDLE,
      source: { ...FRAME_SOURCE, slot_kind: 'other' },
    }),
    refuse('a source with an unknown key', { ...MINIMAL_DIRECTOR_BUNDLE, source: { ...FRAME_SOURCE, extra: 1 } }),
  ])('$name → valid: $valid', ({ value, valid }) => checkBundle(value, valid));
});

describe('frame meta, layer and layer objects', () => {
  it.each([
    accept(
      'actors, props, stagings and beat_context',
      withMeta({
        actors: [{ ...META_ACTOR, state: 'idle', action_playing: true }],
        props: [META_PROP],
        stagings: [{ ...META_PROP, type: 'prop_staging', category: 'staging', shape_hint: 'box' }],
        beat_context: { episode: 1, beat: 3, content: 'c', source_node_id: 'beat-1' },
      }),
    ),
    accept(
      'a full camera',
      withMeta({
        camera: {
          position: [0, 1, 2],
          rotation_deg: [0, 90, 0],
          target: [0, 0, 0],
          fov_deg: 50,
          focal_length_mm: 35,
          near: 0.1,
          far: 100,
        },
      }),
    ),
    accept(
      'layer objects of each kind with their extras',
      withLayer({
        actors: [{ ...ACTOR_LAYER_OBJECT, pose: 'sitting', action_playing: false }],
        props: [{ ...PROP, shape_hint: 'cylinder' }],
        stagings: [{ ...STAGING, shape_hint: 'plane', name: 'door', marker_color: '#00f', semantic_label: 'exit' }],
      }),
    ),
    accept(
      'a frame placement',
      withLayer({
        actors: [{ ...ACTOR_LAYER_OBJECT, placement: { mode: 'frame', x: 0.5, y: 1, depth: 3 } }],
      }),
    ),
    refuse('frame_meta with the wrong schema_version', withMeta({ schema_version: 'director_frame_meta_v2' })),
    refuse('frame_meta without camera', withMeta({ camera: undefined })),
    refuse('frame_meta without layer', withMeta({ layer: undefined })),
    refuse('frame_meta without source', withMeta({ source: undefined })),
    // Spec: camera "shape not given": any object.
    accept('an empty camera', withMeta({ camera: {} })),
    accept(
      'a camera in another convention',
      withMeta({ camera: { position: [0, 1], fov_deg: 0, matrix: [1, 0, 0, 1] } }),
    ),
    refuse('a camera that is not an object', withMeta({ camera: [0, 1, 2] })),
    refuse('a layer without stagings', withMeta({ layer: { source_id: 's', actors: [], props: [] } })),
    refuse('a layer object with scale of 2 numbers', withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, scale: [1, 1] }] })),
    refuse(
      'a layer object with scale of 4 numbers',
      withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, scale: [1, 1, 1, 1] }] }),
    ),
    refuse('an actor object among props (kind actor in props)', withLayer({ props: [ACTOR_LAYER_OBJECT] })),
    // Spec: layer objects have "optional extras such as …": extras beyond the named ones are kept.
    accept('a prop with action_playing', withLayer({ props: [{ ...PROP, action_playing: true }] })),
    accept('a prop with a staging field (name)', withLayer({ props: [{ ...PROP, name: 'x' }] })),
    accept(
      'an actor with shape_hint and an extra of its own',
      withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, shape_hint: 'box', gaze: 'left' }] }),
    ),
    refuse(
      'a named extra of the wrong type (action_playing "yes")',
      withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, action_playing: 'yes' }] }),
    ),
    refuse('a layer object without color', withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, color: undefined }] })),
    // Spec: placement is "one of two placement shapes, not given": any object.
    accept(
      'a placement of another mode',
      withLayer({
        actors: [{ ...ACTOR_LAYER_OBJECT, placement: { mode: 'screen', x: 0, y: 0 } }],
      }),
    ),
    accept(
      'a frame placement in pixels',
      withLayer({
        actors: [{ ...ACTOR_LAYER_OBJECT, placement: { mode: 'frame', x: 2, y: 0 } }],
      }),
    ),
    refuse('a placement that is not an object', withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, placement: 'here' }] })),
    refuse(
      'a layer object without placement',
      withLayer({ actors: [{ ...ACTOR_LAYER_OBJECT, placement: undefined }] }),
    ),
    refuse('a meta actor without marker_color', withMeta({ actors: [{ ...META_ACTOR, marker_color: undefined }] })),
    refuse('a meta actor with action_playing "yes"', withMeta({ actors: [{ ...META_ACTOR, action_playing: 'yes' }] })),
    refuse('a meta prop with type "prop_extra"', withMeta({ props: [{ ...META_PROP, type: 'prop_extra' }] })),
    refuse('a meta prop with category "background"', withMeta({ props: [{ ...META_PROP, category: 'background' }] })),
    refuse('a meta prop without semantic_label', withMeta({ props: [{ ...META_PROP, semantic_label: undefined }] })),
    // Spec: beat_context is named without a shape: any JSON value.
    accept('beat_context with keys of its own', withMeta({ beat_context: { scene: 1 } })),
  ])('$name → valid: $valid', ({ value, valid }) => checkBundle(value, valid));
});
