import type { CanvasNode, NodeType } from '../../../src/contract/index.js';
import { newKey } from './api.js';

/**
 * The web canvas's facts about each node type, in one table that the palette and the cards read: what a person calls
 * it, where the palette lists it, the data a new one starts with (valid as it stands: a test checks each against the
 * contract), and the size a new card starts at. Keyed by type, so a type the contract adds cannot be forgotten.
 */

export interface PaletteEntry {
  type: NodeType;
  label: string;
  group: 'Image' | 'Story' | 'Sound' | 'Video' | 'Structure' | '3D' | 'Skills';
  data: Record<string, unknown>;
  size?: { width: number; height: number };
}

const ENTRIES: PaletteEntry[] = [
  { type: 'textAnnotationNode', label: 'Note', group: 'Structure', data: { displayName: 'Note', content: '' } },
  {
    type: 'groupNode',
    label: 'Group',
    group: 'Structure',
    data: { label: 'Group' },
    size: { width: 480, height: 320 },
  },
  {
    type: 'beatContextNode',
    label: 'Beat',
    group: 'Story',
    data: { displayName: 'Beat', content: '', syncStatus: 'fresh' },
  },
  { type: 'scriptNode', label: 'Script', group: 'Story', data: { displayName: 'Script', prompt: '' } },
  { type: 'storyboardNode', label: 'Storyboard', group: 'Story', data: { displayName: 'Storyboard', frames: [] } },
  {
    type: 'storyboardGenNode',
    label: 'Storyboard generator',
    group: 'Story',
    data: { displayName: 'Storyboard generator', prompt: '', frameCount: 6 },
  },
  {
    type: 'imageGenNode',
    label: 'Image generator',
    group: 'Image',
    data: { displayName: 'Frame', prompt: '', size: '1K', count: 1, imageUrl: null, aspectRatio: '16:9' },
  },
  {
    type: 'imageNode',
    label: 'Image',
    group: 'Image',
    data: { displayName: 'Image', prompt: '', size: '1K', imageUrl: null, aspectRatio: '16:9' },
  },
  {
    type: 'exportImageNode',
    label: 'Export image',
    group: 'Image',
    data: { displayName: 'Export', imageUrl: null, aspectRatio: '16:9', resultKind: 'generic' },
  },
  { type: 'uploadNode', label: 'Upload', group: 'Image', data: { displayName: 'Upload', fileUrl: null } },
  {
    type: 'pano360ViewerNode',
    label: '360° viewer',
    group: '3D',
    data: {
      displayName: '360° view',
      imageUrl: null,
      sphereCorrectionDeg: { yaw: 0, pitch: 0, roll: 0 },
      frontYawDeg: 0,
      fovDeg: 90,
    },
  },
  {
    type: 'threeDWorldNode',
    label: '3D world',
    group: '3D',
    data: { displayName: '3D world', sources: [], prompt: '' },
  },
  {
    type: 'audioNode',
    label: 'Audio',
    group: 'Sound',
    data: { displayName: 'Voice', audioUrl: null, audioKind: 'speech', text: '' },
  },
  {
    type: 'audioTrimNode',
    label: 'Audio trim',
    group: 'Sound',
    data: { displayName: 'Trim', trimStartMs: 0, trimEndMs: null },
  },
  {
    type: 'videoNode',
    label: 'Video',
    group: 'Video',
    data: { displayName: 'Video', videoUrl: null, prompt: '', aspectRatio: '16:9', durationMs: 2000 },
  },
  {
    type: 'videoStoryNode',
    label: 'Video story',
    group: 'Video',
    data: {
      displayName: 'Video story',
      shots: [{ id: 'shot-1', prompt: 'Opening shot', durationMs: 2000 }],
      aspectRatio: '16:9',
    },
  },
  {
    type: 'videoComposeNode',
    label: 'Video compose',
    group: 'Video',
    data: { displayName: 'Edit', clips: [], aspectRatio: '16:9' },
  },
  {
    type: 'floorPlanNode',
    label: 'Floor plan',
    group: 'Story',
    data: { displayName: 'Floor plan', walls: [], cameras: [] },
    size: { width: 480, height: 520 },
  },
  {
    type: 'skillNode',
    label: 'Skill',
    group: 'Skills',
    data: {
      displayName: 'Sketch from context',
      skill_id: 'zone.sketch_from_context',
      skill_schema_version: 'skill.v1',
      parameters: {},
    },
  },
];

export const NODE_TYPE_FACTS: Record<NodeType, PaletteEntry> = Object.fromEntries(
  ENTRIES.map((entry) => [entry.type, entry]),
) as Record<NodeType, PaletteEntry>;

/** What the palette offers, in its order. */
export const PALETTE: readonly PaletteEntry[] = ENTRIES;

/** What a person calls a node type (its id when this page does not know it). */
export function typeLabel(type: string): string {
  return (NODE_TYPE_FACTS as Partial<Record<string, PaletteEntry>>)[type]?.label ?? type;
}

/** A new id nobody else will pick: a readable prefix and a random tail. */
export function newNodeId(type: NodeType): string {
  return `${type.replace(/Node$/, '').toLowerCase()}-${newKey().slice(0, 8)}`;
}

export function paletteNode(
  entry: PaletteEntry,
  position: { x: number; y: number },
  id = newNodeId(entry.type),
): CanvasNode {
  return { id, type: entry.type, position, data: structuredClone(entry.data), ...(entry.size ?? {}) } as CanvasNode;
}
