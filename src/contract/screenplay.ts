import { z } from 'zod';
import { NodeId } from './identifiers.js';

/**
 * A screenplay imported into a canvas (docs/storyboards.md, "The script"): its scenes (heading,
 * INT/EXT, location, time of day) and their lines, each with an id derived from its content, so a revised script
 * imported again says which scenes and lines were added, removed or changed, and a shot bound to a line that is gone
 * is flagged. Kept as a scriptNode's `scriptResult` (any JSON value in the spec; this is our shape).
 */

export const SCREENPLAY_FORMAT = 'canvas-mcp.screenplay.v1';

export const ScriptLine = z.strictObject({
  id: z
    .string()
    .meta({ description: 'Derived from the scene, the kind, the speaker and the text: stable across imports.' }),
  kind: z.enum(['action', 'dialogue', 'transition']),
  character: z.string().optional().meta({ description: 'Who speaks a dialogue line (as the script writes the name).' }),
  extension: z
    .string()
    .optional()
    .meta({ description: "How they speak it, as the cue writes it: (V.O.), (O.S.), (O.C.), (CONT'D)." }),
  parenthetical: z.string().optional(),
  text: z.string(),
});
export type ScriptLine = z.infer<typeof ScriptLine>;

export const ScriptScene = z.strictObject({
  id: z.string(),
  number: z.string().meta({ description: "The script's own scene number when it has one (#12#), else its place." }),
  heading: z.string().meta({ description: 'INT. LIGHTHOUSE - NIGHT' }),
  setting: z.enum(['INT', 'EXT', 'INT/EXT']).nullable(),
  location: z.string(),
  timeOfDay: z.string().nullable(),
  lines: z.array(ScriptLine),
});
export type ScriptScene = z.infer<typeof ScriptScene>;

/** A shot bound to the script: its scene, the lines it shows, and why they no longer match when they do not. */
export const ShotBinding = z.strictObject({
  sceneId: z.string(),
  lineIds: z
    .array(z.string())
    .optional()
    .meta({ description: "Left out: all the scene's action and dialogue (as of the import that wrote it)." }),
  flag: z.string().optional(),
});
export type ShotBinding = z.infer<typeof ShotBinding>;

export const Screenplay = z.strictObject({
  format: z.literal(SCREENPLAY_FORMAT),
  source: z.enum(['fountain', 'fdx', 'text']),
  fileName: z.string(),
  title: z.string().nullable(),
  imports: z.int().min(1).meta({ description: 'How many times a script was imported into this node.' }),
  boardNodeId: z.string().nullable().meta({ description: 'The storyboard whose shots are bound to this script.' }),
  scenes: z.array(ScriptScene),
  characters: z.array(z.string()),
  bindings: z
    .record(z.string(), ShotBinding)
    .meta({ description: "Which scene and lines each shot of the board shows, by the shot's id." }),
  fullScreenplayUrl: z.string().optional().meta({
    description:
      'A screenplay too long for its node: the asset holding it whole. Here its scenes then carry no lines and its bindings no lineIds.',
  }),
});
export type Screenplay = z.infer<typeof Screenplay>;

/** What changed since the last import of a script into the same node. */
export const ScriptChanges = z.strictObject({
  scenes_added: z.array(z.string()).meta({ description: 'Headings of scenes new in this revision.' }),
  scenes_removed: z.array(z.string()),
  scenes_changed: z.array(
    z.strictObject({ heading: z.string(), lines_added: z.array(z.string()), lines_removed: z.array(z.string()) }),
  ),
});
export type ScriptChanges = z.infer<typeof ScriptChanges>;

export const ScriptImportBody = z
  .strictObject({
    base_revision: z.int().min(0),
    file_name: z.string().min(1).max(200).meta({ description: '.fountain, .fdx or .txt: the format is read from it.' }),
    text: z
      .string()
      .max(8 * 1024 * 1024)
      .meta({ description: 'The file, as UTF-8 text (the route takes a body of up to 8 MiB).' }),
    script_node_id: NodeId.optional().meta({
      description: 'Import again into this scriptNode (a revised script): changes are reported, shots kept.',
    }),
    board_node_id: NodeId.optional().meta({
      description: 'The storyboard whose shots are bound to the script (created with the script node when left out).',
    }),
    position: z.strictObject({ x: z.number(), y: z.number() }).optional(),
  })
  .meta({ id: 'ScriptImportBody' });
export type ScriptImportBody = z.infer<typeof ScriptImportBody>;

export const ScriptImportReceipt = z
  .strictObject({
    revision: z.int(),
    script_node_id: z.string(),
    board_node_id: z.string(),
    scenes: z.int(),
    characters: z.array(z.string()),
    changes: ScriptChanges.nullable().meta({ description: 'Null on a first import.' }),
    shots_added: z.int().meta({ description: 'New shots made for scenes.' }),
    shots_filled: z.int().meta({
      description: "Empty shots of the board (a template's) that took a scene, in board order, before any was added.",
    }),
    flagged_shots: z.array(z.strictObject({ shot_id: z.string(), number: z.string().nullable(), reason: z.string() })),
    not_mapped: z
      .array(z.strictObject({ line: z.int().nullable(), what: z.string() }))
      .meta({ description: 'What the importer read but did not carry over (notes, sections, dual dialogue marks).' }),
  })
  .meta({ id: 'ScriptImportReceipt' });
export type ScriptImportReceipt = z.infer<typeof ScriptImportReceipt>;
