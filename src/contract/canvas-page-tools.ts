import { z } from 'zod';
import { NodeId, ResourceId } from './identifiers.js';
import { NodeTypeSchema, Position } from './node.js';
import { List, Str } from './node-data/common.js';
import { ShotAngle, ShotMovement, ShotSize, ShotStatus } from './shots.js';

/**
 * Tools the canvas offers from the page itself, not from the server (docs/contract.md, "Tools from the canvas view"
 * and "WebMCP"): the MCP App's view answers a host's model about what the person sees and selected, and the web
 * canvas offers a browser's agent (WebMCP) reads and writes that go through the person's own session and Undo. Kept
 * small: each schema is what one model call carries.
 */

/** How many ids a view answer lists at most (a zoomed-out view of a large canvas shows thousands). */
export const VIEW_LIST_MAX = 200;

const Region = z
  .strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .meta({ description: 'A rectangle in canvas coordinates (the units of node positions).' });

// ---- The MCP App's view tools (App.registerTool) ----

export const SelectedNode = z.strictObject({ node_id: z.string(), type: z.string(), title: z.string() });
export const SelectedShot = z.strictObject({
  node_id: z.string().meta({ description: 'The storyboard node the shot is on.' }),
  shot_id: z.string(),
  number: z.string().meta({ description: 'The number the board shows for the shot (1, 2, 2A).' }),
  caption: z.string().nullable(),
});

export const ViewSelection = z.strictObject({
  nodes: z.array(SelectedNode),
  shots: z.array(SelectedShot),
});
export type ViewSelection = z.infer<typeof ViewSelection>;

export const ViewState = z.strictObject({
  project_id: z.string(),
  canvas_id: z.string(),
  revision: z.int(),
  zoom: z.number(),
  region: Region,
  board: z
    .strictObject({ node_id: z.string(), title: z.string() })
    .nullable()
    .meta({ description: 'The storyboard that fills most of the view, or null when the view shows a region.' }),
  visible_node_ids: z.array(z.string()).meta({ description: `At most ${VIEW_LIST_MAX}, nearest the centre first.` }),
  visible_count: z.int(),
});
export type ViewState = z.infer<typeof ViewState>;

export const FocusInput = z.strictObject({
  node_id: NodeId,
  shot_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'A shot of that storyboard node, to bring into view and select.' }),
});
export type FocusInput = z.infer<typeof FocusInput>;

// ---- WebMCP tools of the web canvas ----

const BaseRevision = z.int().min(0).meta({
  description: 'The revision your last read_canvas (or write) returned; refused if the canvas changed since.',
});

export const ReadCanvasInput = z.strictObject({
  node_ids: z.array(NodeId).max(VIEW_LIST_MAX).optional().meta({ description: 'Only these nodes.' }),
  offset: z.int().min(0).default(0),
  limit: z.int().min(1).max(VIEW_LIST_MAX).default(100),
});
export type ReadCanvasInput = z.infer<typeof ReadCanvasInput>;

/** The shot-list fields a browser agent may set; null removes a field. Numbers follow the board's order. */
export const ShotFieldsInput = z.strictObject({
  caption: Str.nullable().optional(),
  action: Str.nullable().optional(),
  dialogue: Str.nullable().optional(),
  notes: Str.nullable().optional(),
  scene: Str.nullable().optional(),
  location: Str.nullable().optional(),
  shotType: Str.nullable().optional(),
  shotSize: ShotSize.nullable().optional(),
  angle: ShotAngle.nullable().optional(),
  movement: ShotMovement.nullable().optional(),
  status: ShotStatus.nullable().optional(),
  lensMm: z.number().min(1).max(2000).nullable().optional(),
  durationMs: z.number().min(0).nullable().optional(),
  cast: List(Str, 50).nullable().optional(),
});
export type ShotFieldsInput = z.infer<typeof ShotFieldsInput>;

const NodeData = z.record(z.string(), z.unknown());

export const AddNodeInput = z.strictObject({
  base_revision: BaseRevision,
  type: NodeTypeSchema,
  data: NodeData.optional().meta({ description: "Fields over the type's defaults." }),
  position: Position.optional().meta({ description: 'Where; a free spot when left out.' }),
  parent_id: ResourceId.optional(),
  node_id: NodeId.optional(),
});
export type AddNodeInput = z.infer<typeof AddNodeInput>;

export const UpdateNodeInput = z
  .strictObject({
    base_revision: BaseRevision,
    node_id: NodeId,
    data: NodeData.optional().meta({ description: "Fields merged over the node's data." }),
    position: Position.optional(),
  })
  .refine((input) => input.data !== undefined || input.position !== undefined, {
    error: 'give data or position',
    path: ['data'],
  });
export type UpdateNodeInput = z.infer<typeof UpdateNodeInput>;

export const DeleteNodeInput = z.strictObject({ base_revision: BaseRevision, node_id: NodeId });
export type DeleteNodeInput = z.infer<typeof DeleteNodeInput>;

const ShotId = z.string().min(1).max(200);

export const AddShotInput = z.strictObject({
  base_revision: BaseRevision,
  node_id: NodeId.meta({ description: 'The storyboard node.' }),
  after_shot_id: ShotId.optional().meta({ description: 'Insert after this shot; at the end when left out.' }),
  fields: ShotFieldsInput.optional(),
});
export type AddShotInput = z.infer<typeof AddShotInput>;

export const UpdateShotInput = z.strictObject({
  base_revision: BaseRevision,
  node_id: NodeId,
  shot_id: ShotId,
  set: ShotFieldsInput.refine((fields) => Object.keys(fields).length > 0, { error: 'set at least one field' }),
});
export type UpdateShotInput = z.infer<typeof UpdateShotInput>;

export const DeleteShotInput = z.strictObject({ base_revision: BaseRevision, node_id: NodeId, shot_id: ShotId });
export type DeleteShotInput = z.infer<typeof DeleteShotInput>;

export const CanvasShotSummary = z.looseObject({
  shot_id: z.string(),
  number: z.string(),
  caption: z.string().nullable(),
});

export type CanvasShotSummary = z.infer<typeof CanvasShotSummary>;

export const CanvasPageNode = z.strictObject({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  position: z.strictObject({ x: z.number(), y: z.number() }),
  parent_id: z.string().optional(),
  data: NodeData.meta({ description: "The node's data; a storyboard's frames are under `shots`." }),
  shots: z.array(CanvasShotSummary).optional(),
});

export const ReadCanvasResult = z.strictObject({
  project_id: z.string(),
  canvas_id: z.string(),
  revision: z.int(),
  node_count: z.int(),
  next_offset: z.int().nullable(),
  nodes: z.array(CanvasPageNode),
  edges: z.array(z.strictObject({ id: z.string(), source: z.string(), target: z.string() })),
});
export type ReadCanvasResult = z.infer<typeof ReadCanvasResult>;

export const CanvasPageWriteResult = z.strictObject({
  revision: z.int().meta({ description: 'The revision this write made: the base_revision of your next write.' }),
  node_id: z.string().optional(),
  shot_id: z.string().optional(),
});
export type CanvasPageWriteResult = z.infer<typeof CanvasPageWriteResult>;
