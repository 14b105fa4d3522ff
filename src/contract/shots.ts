import { z } from 'zod';
import { BaseRevision, ClientSaveId } from './identifiers.js';

/**
 * Shots (docs/storyboards.md, "Boards and shots"): a storyboard is a storyboardNode whose `frames`
 * are its shots, in order. Each shot has a stable `id` and a display `number` that follows the order (1, 2, 3; a shot
 * inserted between 2 and 3 is 2A while the board's numbers are locked), and the fields every shot list holds. The
 * vocabularies are the craft's (StudioBinder's shot list, Boords' aspect ratios); labels for people are beside them.
 */

export const SHOT_SIZES = {
  ECU: 'Extreme close-up',
  CU: 'Close-up',
  MCU: 'Medium close-up',
  MS: 'Medium shot',
  MLS: 'Medium long shot',
  LS: 'Long shot',
  WS: 'Wide shot',
  ELS: 'Extreme long shot',
  EWS: 'Extreme wide shot',
} as const;

export const SHOT_ANGLES = {
  eye_level: 'Eye level',
  high: 'High angle',
  low: 'Low angle',
  overhead: "Overhead (bird's eye)",
  dutch: 'Dutch angle',
  pov: 'Point of view',
  ots: 'Over the shoulder',
} as const;

export const SHOT_MOVEMENTS = {
  static: 'Static',
  pan: 'Pan',
  tilt: 'Tilt',
  dolly: 'Dolly / track',
  truck: 'Truck',
  crane: 'Crane / jib',
  handheld: 'Handheld',
  steadicam: 'Steadicam',
  zoom: 'Zoom',
} as const;

export const SHOT_STATUSES = {
  draft: 'Draft',
  in_progress: 'In progress',
  for_review: 'For review',
  approved: 'Approved',
  omitted: 'Omitted',
} as const;

/** The frame shapes teams pick for a whole board (Boords' list; 2.39:1 is anamorphic scope). */
export const BOARD_ASPECTS = ['9:16', '1:1', '4:5', '4:3', '16:9', '1.85:1', '2.39:1'] as const;

/**
 * The framing guides a frame can show (docs/storyboards.md, "Frame shapes and guides"): SMPTE ST 2046-1 action safe
 * (93 %) and title safe (90 %), a centre cross, thirds, and the 9:16 and 4:5 delivery crops. Their geometry is
 * `frameGuides` in src/shared/frame-shape.ts; the names are here because the PDF export's options carry them.
 */
export const GUIDE_NAMES = ['actionSafe', 'titleSafe', 'centre', 'thirds', 'crop9x16', 'crop4x5'] as const;
export const GuideName = z.enum(GUIDE_NAMES);
export type GuideName = z.infer<typeof GuideName>;

const keysOf = <T extends Record<string, string>>(labels: T) => Object.keys(labels) as [keyof T & string];

export const ShotSize = z.enum(keysOf(SHOT_SIZES));
export const ShotAngle = z.enum(keysOf(SHOT_ANGLES));
export const ShotMovement = z.enum(keysOf(SHOT_MOVEMENTS));
export const ShotStatus = z.enum(keysOf(SHOT_STATUSES));

/** How a move runs between its framings (the curves are `EASING_CURVES` in src/shared/camera-move.ts). */
export const CAMERA_EASINGS = ['linear', 'ease-in', 'ease-out', 'ease-in-out'] as const;
/** What a move is called on the board; `derived` when it is read from its framings rather than named. */
export const CAMERA_MOVE_KINDS = ['pan', 'tilt', 'push', 'pull', 'derived'] as const;

/** The smallest framing: a tenth of the picture (the animatic's zoom goes to 10×, no further). */
export const SMALLEST_FRAMING = 0.1;
const Fraction = z.number().min(0).max(1);

/**
 * A framing on the shot's picture: its left, top, width and height in fractions of the picture. It has the frame's own
 * shape, so `width` sets its size and `height` should be the same fraction; one that leaves the picture is moved back
 * inside. Both are applied where a move is read (`placedFraming` in src/shared/camera-move.ts), not refused here: node
 * data holds only rules its published JSON Schema states, so what the schema allows the contract accepts.
 */
export const Framing = z
  .strictObject({ x: Fraction, y: Fraction, width: z.number().min(SMALLEST_FRAMING).max(1), height: Fraction })
  .meta({ id: 'Framing' });
export type Framing = z.infer<typeof Framing>;

/** A camera move over the shot's still: from `start` to `end` framing over the shot's length (docs/deliverables.md). */
export const CameraMove = z.strictObject({
  start: Framing,
  end: Framing,
  // Without an easing a move eases in and out; without a kind it is `derived` (defaults kept out of the published
  // schema, which every agent's tools/list carries).
  easing: z.enum(CAMERA_EASINGS).optional(),
  kind: z.enum(CAMERA_MOVE_KINDS).optional(),
});
export type CameraMove = z.infer<typeof CameraMove>;

/** 1, 12, 2A, 2AB: digits, then up to two capital letters for shots inserted under locked numbers. */
export const ShotNumber = z
  .string()
  .regex(/^[0-9]{1,4}[A-Z]{0,2}$/, { error: 'must be digits then up to two capital letters, e.g. 12 or 2A' });

/**
 * The shot-list fields a storyboard frame may carry besides its picture (all optional: a frame is a shot). Described in
 * docs/contract.md rather than in the schema: every agent's tools/list carries the schema, which must stay within
 * 40 KB. `number` is the display label (the id stays stable). Which script lines a shot shows is kept with the script
 * (src/contract/screenplay.ts, `bindings`).
 */
export function shotFields<S extends z.ZodType, N extends z.ZodType>(text: S, list: (max: number) => N) {
  // One array limit for now; a function so each list can have its own.
  return {
    number: ShotNumber.optional(),
    scene: text.optional(),
    shotSize: ShotSize.optional(),
    angle: ShotAngle.optional(),
    movement: ShotMovement.optional(),
    lensMm: z.number().min(1).max(2000).optional(),
    action: text.optional(),
    dialogue: text.optional(),
    notes: text.optional(),
    cast: list(50).optional(),
    location: text.optional(),
    look: text.optional(),
    status: ShotStatus.optional(),
    move: CameraMove.optional(),
  };
}

/**
 * What "Continue from previous" copies from the shot before (docs/storyboards.md, "Continuity"): who is in it, where,
 * through which lens, and its look (grade, light, style, in words). Framing, words and timing stay the shot's own.
 */
export const CONTINUITY_FIELDS = ['cast', 'location', 'lensMm', 'look'] as const;
export type ContinuityField = (typeof CONTINUITY_FIELDS)[number];

/** `POST …/nodes/{node_id}/shots/{shot_id}/continue-from-previous`: one write at the revision the caller read. */
export const ContinueShotBody = z.strictObject({
  base_revision: BaseRevision,
  client_save_id: ClientSaveId.optional(),
});
export type ContinueShotBody = z.infer<typeof ContinueShotBody>;

/** The query of a board's shot-list download. */
export const ShotListQuery = z.object({
  format: z.enum(['csv', 'xlsx']).default('csv').meta({ description: 'csv (UTF-8 with a byte-order mark) or xlsx.' }),
});
