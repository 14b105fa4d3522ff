import { z } from 'zod';
import { FrameRate } from './exports.js';
import { NodeId } from './identifiers.js';

/**
 * Conform (docs/deliverables.md, "Conform"): an editor's timeline of a board's cut (OTIO, FCP 7 XML, FCPXML or a CMX
 * 3600 EDL) read back into the board as one revision: new durations, new order, shots dropped from the cut marked
 * omitted, clips that name no shot added as shots. The answer says exactly what changed, shot by shot.
 */

export const TIMELINE_FORMATS = {
  otio: 'OpenTimelineIO (.otio)',
  fcp_xml: 'Final Cut Pro 7 XML (xmeml)',
  fcpxml: 'FCPXML (Final Cut Pro 10 and 11)',
  edl: 'CMX 3600 EDL',
} as const;
export const TimelineFormat = z.enum(Object.keys(TIMELINE_FORMATS) as [keyof typeof TIMELINE_FORMATS]);
export type TimelineFormat = z.infer<typeof TimelineFormat>;

/** The largest timeline a conform reads, in characters: a 1,000-shot FCP 7 XML with sound is about 3 MB. */
export const CONFORM_TEXT_MAX = 6_000_000;

export const ConformBody = z
  .strictObject({
    base_revision: z.int().min(0),
    node_id: NodeId.meta({ description: 'The storyboardNode whose cut the timeline is.' }),
    file_name: z
      .string()
      .min(1)
      .max(200)
      .meta({ description: '.otio, .xml, .fcpxml or .edl (the format is read from the text itself).' }),
    text: z.string().max(CONFORM_TEXT_MAX).meta({ description: 'The timeline file, as UTF-8 text.' }),
    frame_rate: FrameRate.optional().meta({
      description:
        'The rate of an EDL, which does not say it: 24 when left out (29.97 when the EDL says DROP FRAME). The other formats carry their rate.',
    }),
  })
  .meta({ id: 'ConformBody' });
export type ConformBody = z.infer<typeof ConformBody>;

const ShotRef = { shot_id: z.string(), number: z.string() };

export const ConformReport = z
  .strictObject({
    revision: z
      .int()
      .nullable()
      .meta({ description: 'The revision the conform wrote; null when the timeline changed nothing.' }),
    node_id: z.string(),
    format: TimelineFormat,
    frame_rate: FrameRate,
    clips: z.int().min(0).meta({ description: 'Clips read from the timeline’s picture track.' }),
    durations: z
      .array(
        z.strictObject({
          ...ShotRef,
          from_ms: z.number(),
          to_ms: z.number(),
          from_frames: z.int(),
          to_frames: z.int(),
        }),
      )
      .meta({ description: 'Shots whose length changed, in milliseconds and in frames of the timeline’s rate.' }),
    moved: z.array(z.strictObject({ ...ShotRef, from_position: z.int().min(1), to_position: z.int().min(1) })).meta({
      description:
        'The fewest shots whose moves give the new order, with their places on the board (1-based) before and after.',
    }),
    omitted: z.array(z.strictObject(ShotRef)).meta({ description: 'Shots dropped from the cut: marked omitted.' }),
    restored: z
      .array(z.strictObject(ShotRef))
      .meta({ description: 'Omitted shots the cut holds again: marked draft.' }),
    added: z
      .array(
        z.strictObject({
          ...ShotRef,
          name: z.string(),
          position: z.int().min(1),
          duration_ms: z.number(),
          frames: z.int(),
        }),
      )
      .meta({ description: 'Clips that name no shot of the board, added as shots described by the clip’s name.' }),
    notes: z
      .array(z.string())
      .meta({ description: 'What was read but not carried over (gaps, transitions, other tracks).' }),
  })
  .meta({ id: 'ConformReport' });
export type ConformReport = z.infer<typeof ConformReport>;
