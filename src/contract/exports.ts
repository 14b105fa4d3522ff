import { z } from 'zod';
import { NodeId } from './identifiers.js';
import { FrameRate } from './frame-rates.js';
import { ShareReview, ThreadView } from './review.js';
import { CameraMove, GUIDE_NAMES, GuideName } from './shots.js';

/**
 * Exports (docs/deliverables.md): the files a board leaves the app as. Each export is a job run by the
 * workers (beside node runs, costing nothing), made from one revision of one storyboard node with its options; the same
 * revision and options give the same content. The options are declared here once; REST, OpenAPI and the web's export
 * dialog derive from them.
 */

export const EXPORT_KINDS = {
  pdf_board: 'PDF storyboard',
  animatic: 'Animatic (MP4)',
  shot_list_csv: 'Shot list (CSV)',
  shot_list_xlsx: 'Shot list (XLSX)',
  shot_list_pdf: 'Shot list (PDF)',
  otio: 'OpenTimelineIO (.otio)',
  otioz: 'OpenTimelineIO bundle (.otioz, with the animatic and pictures)',
  fcp_xml: 'Final Cut Pro 7 XML',
  fcpxml: 'FCPXML (Final Cut Pro 10 and 11)',
  edl: 'CMX 3600 EDL',
} as const;
const kindsOf = <T extends Record<string, string>>(labels: T) => Object.keys(labels) as [keyof T & string];
export const ExportKind = z.enum(kindsOf(EXPORT_KINDS));
export type ExportKind = z.infer<typeof ExportKind>;

/** Paper sizes in PDF points (1/72 in), portrait; landscape swaps them. */
export const PAPER_SIZES = {
  a4: { label: 'A4', width: 595.28, height: 841.89 },
  letter: { label: 'US Letter', width: 612, height: 792 },
  tabloid: { label: 'Tabloid', width: 792, height: 1224 },
} as const;
export const PaperSize = z.enum(kindsOf({ a4: '', letter: '', tabloid: '' }));
export type PaperSize = z.infer<typeof PaperSize>;

/** The shot fields a PDF can print under each picture, in this order. */
export const SHEET_FIELDS = {
  caption: 'Description',
  action: 'Action',
  dialogue: 'Dialogue',
  camera: 'Camera (size, angle, movement)',
  lens: 'Lens',
  duration: 'Duration',
  notes: 'Notes',
} as const;
export const SheetField = z.enum(kindsOf(SHEET_FIELDS));
export type SheetField = z.infer<typeof SheetField>;

export { FRAME_RATES, FrameRate } from './frame-rates.js';

const Count = (max: number) => z.int().min(1).max(max);

/** The options every PDF sheet takes (the shot list's PDF takes these; the storyboard adds its own). */
export const PdfSheetOptions = z.strictObject({
  paper: PaperSize.default('a4'),
  orientation: z.enum(['landscape', 'portrait']).default('landscape'),
  columns: Count(4).default(3).meta({ description: '1 to 4; 1 column and 1 row is one shot a page.' }),
  rows: Count(4).default(2),
  fields: z
    .array(SheetField)
    .max(Object.keys(SHEET_FIELDS).length)
    .default(['caption', 'action', 'dialogue', 'camera', 'duration']),
  logo_asset_id: z.string().max(200).nullable().default(null).meta({
    description: "An image upload of the project printed in each page's header; none when null.",
  }),
  guides: z.array(GuideName).max(GUIDE_NAMES.length).default([]).meta({
    description: 'Framing guides drawn over each picture (titleSafe, actionSafe, centre, thirds, crop9x16, crop4x5).',
  }),
});
export type PdfSheetOptions = z.infer<typeof PdfSheetOptions>;

export const PdfBoardOptions = PdfSheetOptions.extend({
  notes_pages: z.boolean().default(false).meta({
    description:
      'A page of notes for each shot with open review comments (author, date, frame or timecode, text), after the shots (docs/deliverables.md, "Markers and notes pages").',
  }),
});
export type PdfBoardOptions = z.infer<typeof PdfBoardOptions>;

export const AnimaticOptions = z.strictObject({
  resolution: z.enum(['1080p', '720p']).default('1080p'),
  frame_rate: FrameRate.default('24'),
  burn_in: z.boolean().default(false).meta({ description: 'The shot number and timecode burned into the picture.' }),
  push_in: z.boolean().default(false).meta({ description: 'A slow push-in on still pictures.' }),
  transition: z.enum(['cut', 'crossfade']).default('cut'),
  music_node_id: NodeId.nullable().default(null).meta({
    description:
      'An audio node played under the whole animatic, ducked while a voice-over speaks. When null: the audio node connected to the board by an edge that names no shot, if any.',
  }),
});
export type AnimaticOptions = z.infer<typeof AnimaticOptions>;

export const TimelineOptions = z.strictObject({
  frame_rate: FrameRate.default('24'),
  markers: z.boolean().default(true).meta({
    description:
      'The board\'s open review comments as markers at their frames; false leaves them out (docs/deliverables.md, "Markers and notes pages").',
  }),
});
export type TimelineOptions = z.infer<typeof TimelineOptions>;

const NoOptions = z.strictObject({});

/** What to export: the kind, the storyboard node, and the kind's options (defaults filled in). */
export const ExportCreateBody = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('pdf_board'), node_id: NodeId, options: PdfBoardOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('animatic'), node_id: NodeId, options: AnimaticOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('shot_list_csv'), node_id: NodeId, options: NoOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('shot_list_xlsx'), node_id: NodeId, options: NoOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('shot_list_pdf'), node_id: NodeId, options: PdfSheetOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('otio'), node_id: NodeId, options: TimelineOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('otioz'), node_id: NodeId, options: TimelineOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('fcp_xml'), node_id: NodeId, options: TimelineOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('fcpxml'), node_id: NodeId, options: TimelineOptions.prefault({}) }),
    z.strictObject({ kind: z.literal('edl'), node_id: NodeId, options: TimelineOptions.prefault({}) }),
  ])
  .meta({ id: 'ExportCreateBody' });
export type ExportCreateBody = z.infer<typeof ExportCreateBody>;

export const ExportStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type ExportStatus = z.infer<typeof ExportStatus>;

export const ExportView = z
  .strictObject({
    export_id: z.string(),
    project_id: z.string(),
    canvas_id: z.string(),
    node_id: z.string(),
    kind: ExportKind,
    options: z.record(z.string(), z.unknown()),
    revision: z.int().min(0).meta({ description: 'The revision of the canvas the export was made from.' }),
    status: ExportStatus,
    progress: z.strictObject({ percent: z.number().min(0).max(100).nullable(), message: z.string().nullable() }),
    created_by: z.string().meta({ description: 'Who started it, in words.' }),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    file: z
      .strictObject({
        name: z.string(),
        content_type: z.string(),
        bytes: z.int().min(0),
        url: z.string().meta({ description: 'A download link (signed; it expires).' }),
      })
      .nullable(),
    warnings: z.array(z.string()).meta({ description: 'What the file lacks, for example shots without a picture.' }),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'ExportView' });
export type ExportView = z.infer<typeof ExportView>;

export const ExportList = z.strictObject({ exports: z.array(ExportView) }).meta({ id: 'ExportList' });
export type ExportList = z.infer<typeof ExportList>;

/**
 * Share links (docs/deliverables.md, "Share links"): read-only, for one board or every board of a canvas, with an
 * expiry, revocable at once, opened without an account. A link shows the boards' shots (number, picture, words) in
 * Present mode and the downloads its owner chose; nothing else of the project.
 */
export const ShareLinkCreateBody = z
  .strictObject({
    node_id: NodeId.nullable()
      .default(null)
      .meta({ description: 'The board to share; null shares every board of the canvas.' }),
    expires_in_days: z.int().min(1).max(90).default(14),
    downloads: z
      .array(z.string().max(200))
      .max(20)
      .default([])
      .meta({ description: 'Exports of this canvas (export ids) the link offers for download.' }),
    review: ShareReview.default('none').meta({
      description:
        'A guest review link: none presents only; read shows the comment threads; comment lets guests comment under a name.',
    }),
  })
  .meta({ id: 'ShareLinkCreateBody' });
export type ShareLinkCreateBody = z.infer<typeof ShareLinkCreateBody>;

export const ShareLinkView = z
  .strictObject({
    share_id: z.string(),
    node_id: z.string().nullable(),
    downloads: z.array(z.string()),
    review: ShareReview,
    created_by: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
    revoked_at: z.string().nullable(),
    url: z
      .string()
      .nullable()
      .meta({ description: 'The link to give out: in the answer that made it only (only its hash is kept).' }),
  })
  .meta({ id: 'ShareLinkView' });
export type ShareLinkView = z.infer<typeof ShareLinkView>;

export const ShareLinkList = z.strictObject({ links: z.array(ShareLinkView) }).meta({ id: 'ShareLinkList' });
export type ShareLinkList = z.infer<typeof ShareLinkList>;

/** A shot as a share link shows it: its number, picture and words, nothing that names people or runs. */
export const SharedShot = z.strictObject({
  id: z.string(),
  number: z.string(),
  picture_url: z.string().nullable(),
  caption: z.string().nullable(),
  action: z.string().nullable(),
  dialogue: z.string().nullable(),
  camera: z.string().nullable(),
  duration_ms: z.number(),
  /** The shot's camera move, so the link's Present plays it over the picture as the team's does. */
  move: CameraMove.nullable(),
});
export type SharedShot = z.infer<typeof SharedShot>;

export const SharedBoardsView = z
  .strictObject({
    title: z.string().meta({ description: "The canvas's title." }),
    boards: z.array(z.strictObject({ title: z.string(), aspect: z.number(), shots: z.array(SharedShot) })),
    downloads: z.array(
      z.strictObject({
        name: z.string(),
        content_type: z.string(),
        bytes: z.int().min(0),
        url: z.string(),
        node_id: z.string().meta({ description: 'The board the file was exported from.' }),
        frame_rate: FrameRate.nullable().meta({
          description: "An animatic's frame rate (its player counts frames at it); null for other files.",
        }),
      }),
    ),
    expires_at: z.string(),
    review: ShareReview,
    board_node_ids: z.array(z.string()).meta({ description: "The boards' node ids, in the order of `boards`." }),
    threads: z.array(ThreadView).meta({ description: 'Comment threads of the shown boards (review read or comment).' }),
  })
  .meta({ id: 'SharedBoardsView' });
export type SharedBoardsView = z.infer<typeof SharedBoardsView>;
