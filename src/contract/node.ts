import { z } from 'zod';
import { NodeId, ResourceId } from './identifiers.js';
import { AudioNodeData, AudioTrimNodeData } from './node-data/audio.js';
import {
  BeatContextNodeData,
  GroupNodeData,
  Pano360ViewerNodeData,
  ScriptNodeData,
  TextAnnotationNodeData,
} from './node-data/canvas-nodes.js';
import { LIMITS } from './limits.js';
import { PositiveNumber } from './node-data/common.js';
import { ExportImageNodeData, ImageGenNodeData, ImageNodeData } from './node-data/image.js';
import {
  StoryboardGenNodeData,
  StoryboardNodeData,
  ThreeDWorldNodeData,
  UploadNodeData,
  VideoComposeNodeData,
  VideoNodeData,
  VideoStoryNodeData,
} from './node-data/media-nodes.js';
import { SkillNodeData } from './node-data/skill.js';
import { FloorPlanNodeData } from './node-data/floor-plan.js';

/** The data shape registered for each node type (spec: "Node types (exact values)"). */
export const NODE_DATA_SCHEMAS = {
  uploadNode: UploadNodeData,
  imageNode: ImageNodeData,
  imageGenNode: ImageGenNodeData,
  exportImageNode: ExportImageNodeData,
  beatContextNode: BeatContextNodeData,
  textAnnotationNode: TextAnnotationNodeData,
  groupNode: GroupNodeData,
  storyboardNode: StoryboardNodeData,
  storyboardGenNode: StoryboardGenNodeData,
  videoNode: VideoNodeData,
  audioNode: AudioNodeData,
  audioTrimNode: AudioTrimNodeData,
  videoStoryNode: VideoStoryNodeData,
  videoComposeNode: VideoComposeNodeData,
  scriptNode: ScriptNodeData,
  pano360ViewerNode: Pano360ViewerNodeData,
  threeDWorldNode: ThreeDWorldNodeData,
  skillNode: SkillNodeData,
  // Beyond the spec's list: a scene's floor plan (docs/contract.md, "Node types beyond the spec").
  floorPlanNode: FloorPlanNodeData,
} as const;

export type NodeType = keyof typeof NODE_DATA_SCHEMAS;
export const NODE_TYPES = Object.keys(NODE_DATA_SCHEMAS) as NodeType[];

/**
 * Node types of ours, beyond the spec's list: the server accepts them everywhere a node is written, and the published
 * create_canvas_node schema leaves them out (it would pass tools/list's 40 KB budget, and the spec's list is exact);
 * the storyboarding skill and docs/contract.md give their shapes (docs/contract.md, "Node types beyond the spec").
 */
export const BEYOND_SPEC_NODE_TYPES = ['floorPlanNode'] as const satisfies readonly NodeType[];
/** The spec's node types ("Node types (exact values)"). */
export const SPEC_NODE_TYPES = NODE_TYPES.filter(
  (type) => !(BEYOND_SPEC_NODE_TYPES as readonly NodeType[]).includes(type),
);
export const NodeTypeSchema = z.enum(NODE_TYPES as [NodeType, ...NodeType[]]);

const Coordinate = z.number().min(-LIMITS.coordinate).max(LIMITS.coordinate);
/** A node's width or height: greater than 0 (spec), at most LIMITS.nodeExtent (ours). */
export const NodeExtent = PositiveNumber.max(LIMITS.nodeExtent);

export const Position = z
  .strictObject({ x: Coordinate, y: Coordinate })
  .meta({ id: 'Position', description: 'Canvas position: x and y, nothing else.' });

export const NodeStyle = z
  .strictObject({
    width: NodeExtent.optional(),
    height: NodeExtent.optional(),
    zIndex: z.int().optional(),
  })
  .meta({ id: 'NodeStyle' });

/** Spec section "Node envelope": no properties other than these. */
const envelopeFields = {
  id: NodeId,
  position: Position,
  width: NodeExtent.optional(),
  height: NodeExtent.optional(),
  style: NodeStyle.optional(),
  parentId: ResourceId.optional(),
  extent: z.literal('parent').optional(),
  expandParent: z.boolean().optional(),
  hidden: z.boolean().optional(),
  selected: z.boolean().optional(),
  draggable: z.boolean().optional(),
  selectable: z.boolean().optional(),
  connectable: z.boolean().optional(),
  deletable: z.boolean().optional(),
  zIndex: z.int().optional(),
};

function nodeVariant<T extends NodeType>(type: T) {
  return z.strictObject({ ...envelopeFields, type: z.literal(type), data: NODE_DATA_SCHEMAS[type] });
}

type Envelope = z.infer<ReturnType<typeof z.strictObject<typeof envelopeFields>>>;
type EnvelopeInput = z.input<ReturnType<typeof z.strictObject<typeof envelopeFields>>>;

/** A canvas node, discriminated by `type`: `data` is the data shape registered for that type. */
export type CanvasNode = {
  [T in NodeType]: Envelope & { type: T; data: z.output<(typeof NODE_DATA_SCHEMAS)[T]> };
}[NodeType];
type CanvasNodeInput = {
  [T in NodeType]: EnvelopeInput & { type: T; data: z.input<(typeof NODE_DATA_SCHEMAS)[T]> };
}[NodeType];

const nodeVariants = NODE_TYPES.map(nodeVariant);
type NodeVariant = ReturnType<typeof nodeVariant<NodeType>>;

/**
 * A canvas node: the envelope with `data` matching the data shape registered for `type`. The variants are
 * built from NODE_DATA_SCHEMAS, so zod infers a loose type; CanvasNode restates it, per type, from the same
 * schemas.
 */
export const CanvasNode = z
  .discriminatedUnion('type', nodeVariants as [NodeVariant, ...NodeVariant[]])
  .meta({ id: 'CanvasNode' }) as unknown as z.ZodType<CanvasNode, CanvasNodeInput>;

const specNodeVariants = SPEC_NODE_TYPES.map(nodeVariant);

/** The node union tools/list publishes: the spec's types only (BEYOND_SPEC_NODE_TYPES above). */
export const PublishedCanvasNode = z
  .discriminatedUnion('type', specNodeVariants as [NodeVariant, ...NodeVariant[]])
  .meta({ id: 'CanvasNode' });

export type NodeDataOf<T extends NodeType> = z.infer<(typeof NODE_DATA_SCHEMAS)[T]>;
