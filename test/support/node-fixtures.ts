import type { NodeType } from '../../src/contract/index.js';

/** The smallest valid data of each node type: exactly its required fields. */
export const MINIMAL_DATA: Record<NodeType, Record<string, unknown>> = {
  uploadNode: { fileUrl: null },
  imageNode: { prompt: 'a lighthouse at dusk', size: '1K', imageUrl: null, aspectRatio: '16:9' },
  imageGenNode: { prompt: 'a lighthouse at dusk', size: '2K', imageUrl: null, aspectRatio: '16:9' },
  exportImageNode: { imageUrl: null, aspectRatio: '1:1' },
  beatContextNode: {},
  textAnnotationNode: { content: 'Scene 1: the storm arrives' },
  groupNode: { label: 'Act I' },
  storyboardNode: { frames: [] },
  storyboardGenNode: { prompt: 'six frames of a chase' },
  videoNode: { videoUrl: null },
  audioNode: { audioUrl: null },
  audioTrimNode: {},
  videoStoryNode: { shots: [] },
  videoComposeNode: { clips: [] },
  scriptNode: {},
  pano360ViewerNode: {
    imageUrl: null,
    sphereCorrectionDeg: { yaw: 0, pitch: 0, roll: 0 },
    frontYawDeg: 0,
    fovDeg: 90,
  },
  threeDWorldNode: { sources: [] },
  skillNode: { skill_id: 'zone.scene_360' },
  floorPlanNode: { walls: [], cameras: [] },
};

export const IMAGE_TYPES = ['imageNode', 'imageGenNode', 'exportImageNode'] as const satisfies readonly NodeType[];

export function node(type: NodeType, data: Record<string, unknown> = MINIMAL_DATA[type], extra: object = {}) {
  return { id: `n-${type}`, type, position: { x: 10, y: -20.5 }, data, ...extra };
}

export function withData(type: NodeType, patch: Record<string, unknown>) {
  return node(type, { ...MINIMAL_DATA[type], ...patch });
}

export function withoutDataKey(type: NodeType, key: string) {
  const data = { ...MINIMAL_DATA[type] };
  delete data[key];
  return node(type, data);
}

export const MINIMAL_DIRECTOR_BUNDLE = {
  schema_version: 'director_control_bundle_v1',
  dir: 'frames/0001',
  paths: { depth: 'frames/0001/depth.png' },
  rel_paths: { depth: 'depth.png' },
};

export const FRAME_SOURCE = { source_id: 'src-1', source_type: 'sog', source_kind: 'master' };

export const FRAME_META = {
  schema_version: 'director_frame_meta_v1',
  source: FRAME_SOURCE,
  camera: { position: [0, 1.6, 4] },
  layer: { source_id: 'src-1', actors: [], props: [], stagings: [] },
};

export const ACTOR_LAYER_OBJECT = {
  id: 'a1',
  label: 'Mara',
  color: '#ff0000',
  scale: [1, 1, 1],
  placement: { mode: 'world', position: [0, 0, 0] },
  kind: 'actor',
};
