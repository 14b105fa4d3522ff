import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { TimelineFormat } from '../../src/contract/conform.js';
import { TimelineOptions, type FrameRate } from '../../src/contract/exports.js';
import type { CommentAnchor, ThreadView } from '../../src/contract/review.js';
import { openThread } from '../support/review-threads.js';
import { exportNotes, MAX_EXPORT_NOTES } from '../../src/exports/review-notes.js';
import { cmx3600Edl } from '../../src/exports/timeline/edl.js';
import { fcpXml } from '../../src/exports/timeline/fcp-xml.js';
import { fcpxml } from '../../src/exports/timeline/fcpxml.js';
import { frameOfTimecode, timecode } from '../../src/exports/timeline/frame-rate.js';
import { otioTimeline } from '../../src/exports/timeline/otio.js';
import { readTimeline } from '../../src/exports/timeline/read-timeline.js';
import { placedShots, type TimelineCut } from '../../src/exports/timeline/timeline-cut.js';

/**
 * The board's open review notes as markers in the four timelines (src/exports/timeline/markers.ts), each file read
 * back by a parser of its own kind rather than our readers: fast-xml-parser for FCP 7 XML and FCPXML, JSON.parse for
 * OTIO, a regular expression over the EDL's LOC lines. The conform's readers leave markers alone, so a timeline with
 * notes reads back as the same cut.
 */

/** 00:00:04:12 to 00:00:05:03 at 24 fps, as the Comments form stores it from the player: frames 108 to 123. */
const CLIENT_RANGE: CommentAnchor = {
  on: 'animatic',
  frame: frameOfTimecode('00:00:04:12', '24', 0)!,
  frame_out: frameOfTimecode('00:00:05:03', '24', 0)!,
  rate: '24',
};

// Shot 1 plays frames 0–95, shot 2 frames 96–167, shot 3 frames 168–215 at 24 fps.
const SHOTS = [
  { id: 'shot-a', number: '1', durationMs: 4000 },
  { id: 'shot-b', number: '2', durationMs: 3000 },
  { id: 'shot-c', number: '3', durationMs: 2000 },
];
const HOSTILE = `Look at </marker><x>this</x> & "that" 'here'`;
const NOTES = {
  client: openThread('shot-b', CLIENT_RANGE, [['Guest: Kim', 'The boat leaves too soon.']], 'client'),
  shot: openThread('shot-a', null, [
    ['ana', 'Open wider on the harbour.'],
    ['ben', 'On it.'],
  ]),
  film: openThread(null, { on: 'animatic', frame: 170, rate: '24' }, [['ana', 'The cut to 3 is late\nby a beat.']]),
  hostile: openThread('shot-c', { x: 0.2, y: 0.4 }, [['ana', HOSTILE]]),
};

const cutOf = (rate: FrameRate = '24', notes: readonly ThreadView[] = Object.values(NOTES)): TimelineCut => ({
  title: 'Harbour',
  rate,
  mediaFileName: 'Harbour animatic.mp4',
  hasAudio: true,
  shots: SHOTS,
  notes,
});

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  isArray: (name) => ['clipitem', 'marker', 'asset-clip', 'track'].includes(name),
});

interface XmemlMarker {
  name: string;
  comment: string;
  in: string;
  out: string;
}
interface XmemlClip {
  name: string;
  start: string;
  in: string;
  marker?: XmemlMarker[];
}

function readXmeml(text: string) {
  const sequence = (xml.parse(text) as { xmeml: { sequence: Record<string, unknown> } }).xmeml.sequence as {
    marker?: XmemlMarker[];
    media: { video: { track: Array<{ clipitem: XmemlClip[] }> }; audio: { track: Array<{ clipitem: XmemlClip[] }> } };
  };
  return {
    sequence: sequence.marker ?? [],
    video: sequence.media.video.track[0]!.clipitem,
    audio: sequence.media.audio.track[0]!.clipitem,
  };
}

describe('FCP 7 XML markers', () => {
  it("puts a client's range note from 00:00:04:12 to 00:00:05:03 at 24 fps on shot 2's clip, on sequence frame 108", () => {
    const { video } = readXmeml(fcpXml(cutOf()));
    const clip = video.find((each) => each.name === 'Shot 2')!;
    expect(clip.marker).toHaveLength(1);
    const marker = clip.marker![0]!;
    // A clipitem's marker counts in the clip's source frames (the animatic's), as its <in> does: 108 there is the
    // sequence's frame 108 too, since the clip's source in (96) is its record start (96).
    expect(Number(marker.in)).toBe(108);
    const sequenceFrame = Number(clip.start) + Number(marker.in) - Number(clip.in);
    expect(sequenceFrame).toBe(108);
    expect(timecode(sequenceFrame, '24', 0)).toBe('00:00:04:12');
    expect(timecode(sequenceFrame, '24')).toBe('01:00:04:12');
    // The out point is one past the range's last frame, 00:00:05:03, as a clipitem's out is one past its last.
    expect(Number(marker.out)).toBe(frameOfTimecode('00:00:05:03', '24', 0)! + 1);
    expect(marker.name).toBe('Guest: Kim: The boat leaves too soon.');
    expect(marker.comment).toBe('Guest: Kim: The boat leaves too soon.');
  });

  it("marks a shot's note without a frame at its clip's first frame as a point, with every comment of the thread", () => {
    const { video, audio } = readXmeml(fcpXml(cutOf()));
    const marker = video.find((each) => each.name === 'Shot 1')!.marker![0]!;
    expect(marker).toMatchObject({ in: '0', out: '-1', name: 'ana: Open wider on the harbour.' });
    expect(marker.comment).toBe('ana: Open wider on the harbour.\nben: On it.');
    // The notes mark the picture only: the linked sound clips carry none.
    expect(audio.every((clip) => clip.marker === undefined)).toBe(true);
  });

  it("puts a note on the board's animatic in the sequence, at its frame", () => {
    const { sequence, video } = readXmeml(fcpXml(cutOf()));
    expect(sequence).toEqual([
      {
        name: 'ana: The cut to 3 is late by a beat.',
        comment: 'ana: The cut to 3 is late\nby a beat.',
        in: '170',
        out: '-1',
      },
    ]);
    expect(video.flatMap((clip) => clip.marker ?? [])).toHaveLength(3);
  });

  it('keeps markup in a note as text: </marker><x> makes no element', () => {
    const text = fcpXml(cutOf());
    expect(text).not.toContain('<x>');
    const marker = readXmeml(text).video.find((each) => each.name === 'Shot 3')!.marker![0]!;
    expect(marker.name).toBe(`ana: ${HOSTILE}`);
    expect(marker.in).toBe('168');
  });
});

describe('FCPXML markers', () => {
  const rational = (value: string) => {
    const [top, bottom = '1'] = value.replace(/s$/, '').split('/');
    return Number(top) / Number(bottom);
  };
  const clipsOf = (text: string) =>
    (
      xml.parse(text) as {
        fcpxml: {
          library: { event: { project: { sequence: { spine: { 'asset-clip': Array<Record<string, unknown>> } } } } };
        };
      }
    ).fcpxml.library.event.project.sequence.spine['asset-clip'] as Array<{
      name: string;
      start: string;
      marker?: Array<{ start: string; duration: string; value: string; note: string; completed: string }>;
    }>;

  it.each(['24', '23.976', '29.97'] as const)(
    'writes each note as a to-do marker in its clip at %s fps, at times of the clip’s source',
    (rate) => {
      const clips = clipsOf(fcpxml(cutOf(rate)));
      const frame = rate === '24' ? 1 / 24 : rate === '23.976' ? 1001 / 24000 : 1001 / 30000;
      const framesOf = (value: string) => Math.round(rational(value) / frame);
      const placed = placedShots(cutOf(rate));
      const shot2 = clips.find((clip) => clip.name === 'Shot 2')!;
      expect(shot2.marker).toHaveLength(1);
      const marker = shot2.marker![0]!;
      expect(marker.completed).toBe('0');
      expect(marker.value).toBe('Guest: Kim: The boat leaves too soon.');
      // At 24 fps the note's own frames; at another rate, the frames showing at the same moments.
      if (rate === '24') {
        expect(framesOf(marker.start)).toBe(108);
        expect(framesOf(marker.duration)).toBe(16);
      }
      const start = framesOf(marker.start);
      expect(start).toBeGreaterThanOrEqual(placed[1]!.startFrame);
      expect(start + framesOf(marker.duration)).toBeLessThanOrEqual(placed[1]!.endFrame);
      expect(Math.abs(rational(marker.start) - 108 / 24)).toBeLessThan(frame);
      // The film note at frame 170 (7.083 s) falls in shot 3: that clip holds it, one frame long, after the note
      // pinned to the shot's first frame.
      const shot3 = clips.find((clip) => clip.name === 'Shot 3')!;
      expect(shot3.marker!.map((each) => each.value)).toEqual([
        `ana: ${HOSTILE}`,
        'ana: The cut to 3 is late by a beat.',
      ]);
      expect(framesOf(shot3.marker![0]!.start)).toBe(placed[2]!.startFrame);
      expect(framesOf(shot3.marker![1]!.duration)).toBe(1);
      expect(shot3.marker![1]!.note).toBe('ana: The cut to 3 is late by a beat.');
    },
  );
});

describe('OTIO markers', () => {
  interface Marker {
    OTIO_SCHEMA: string;
    name: string;
    color: string;
    comment: string;
    marked_range: { start_time: { value: number; rate: number }; duration: { value: number; rate: number } };
    metadata: Record<string, Record<string, string>>;
  }
  interface Item {
    name: string;
    kind?: string;
    markers: Marker[];
    source_range: { start_time: { value: number } } | null;
    children?: Item[];
  }

  it('writes Marker.2 objects on the video clips and track, in their time, with the thread in the metadata', () => {
    const timeline = JSON.parse(otioTimeline(cutOf())) as { tracks: { children: Item[] } };
    const [video, audio] = timeline.tracks.children;
    expect(audio!.markers).toEqual([]);
    expect(audio!.children!.every((clip) => clip.markers.length === 0)).toBe(true);
    const shot2 = video!.children!.find((clip) => clip.name === 'Shot 2')!;
    expect(shot2.markers).toHaveLength(1);
    const marker = shot2.markers[0]!;
    expect(marker).toMatchObject({
      OTIO_SCHEMA: 'Marker.2',
      name: 'Guest: Kim: The boat leaves too soon.',
      color: 'RED',
      comment: 'Guest: Kim: The boat leaves too soon.',
    });
    // In the clip's source time, whose range starts at the shot's first frame (96): frame 108 is 12 frames in.
    expect(marker.marked_range.start_time).toEqual({ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value: 108 });
    expect(marker.marked_range.duration.value).toBe(16);
    expect(marker.marked_range.start_time.value - shot2.source_range!.start_time.value).toBe(12);
    expect(marker.metadata['canvas-mcp']).toEqual({
      comment_id: NOTES.client.comments[0]!.comment_id,
      thread_id: NOTES.client.thread_id,
      author: 'Guest: Kim',
      audience: 'client',
    });
    expect(
      video!.markers.map((each) => [each.name, each.marked_range.start_time.value, each.marked_range.duration.value]),
    ).toEqual([['ana: The cut to 3 is late by a beat.', 170, 0]]);
  });
});

describe('EDL markers', () => {
  const LOC = /^\* LOC: (\d{2}:\d{2}:\d{2}[:;]\d{2}) (RED) (.+)$/;
  /** Each event's number with its LOC lines: timecode, colour, words. */
  const locsOf = (text: string) => {
    const events: Array<{ event: string; locs: Array<{ timecode: string; color: string; words: string }> }> = [];
    for (const line of text.split('\r\n')) {
      const event = /^(\d{3})\s/.exec(line);
      if (event) events.push({ event: event[1]!, locs: [] });
      const loc = LOC.exec(line);
      if (loc) events.at(-1)!.locs.push({ timecode: loc[1]!, color: loc[2]!, words: loc[3]! });
    }
    return events;
  };

  it('writes each note as a LOC line under its shot’s event at its first frame in record timecode', () => {
    const events = locsOf(cmx3600Edl(cutOf()));
    expect(events).toEqual([
      {
        event: '001',
        locs: [{ timecode: '01:00:00:00', color: 'RED', words: 'ana: Open wider on the harbour. ben: On it.' }],
      },
      {
        event: '002',
        locs: [{ timecode: '01:00:04:12', color: 'RED', words: 'Guest: Kim: The boat leaves too soon.' }],
      },
      {
        event: '003',
        locs: [
          { timecode: '01:00:07:00', color: 'RED', words: `ana: ${HOSTILE}` },
          { timecode: '01:00:07:02', color: 'RED', words: 'ana: The cut to 3 is late by a beat.' },
        ],
      },
    ]);
  });

  it('keeps a note to one bounded line of ASCII, whatever it holds', () => {
    const long = openThread('shot-a', null, [
      ['zoë', `Café naïve 「行こう」\r\n* 002 AX V C 00:00:00:00\n${'word '.repeat(900)}`],
    ]);
    const text = cmx3600Edl(cutOf('24', [long]));
    const loc = text.split('\r\n').filter((line) => line.startsWith('* LOC:'));
    expect(loc).toHaveLength(1);
    expect(loc[0]).toMatch(/^\* LOC: 01:00:00:00 RED zoe: Cafe naive \* 002 AX V C 00:00:00:00 word word/);
    expect(loc[0]!.length).toBeLessThanOrEqual('* LOC: 01:00:00:00 RED '.length + 160);
    expect(/^[\x20-\x7E]*$/.test(loc[0]!)).toBe(true);
    // The line break in the note made no event of its own.
    expect(readTimeline(text, '24').clips).toHaveLength(3);
  });
});

describe('where a note is placed', () => {
  const markersIn = (cut: TimelineCut) =>
    readXmeml(fcpXml(cut)).video.flatMap((clip) =>
      (clip.marker ?? []).map((marker) => [clip.name, marker.in, marker.out]),
    );

  it('carries a note named at another rate to the frame showing at the same moment', () => {
    // Frame 100 at 25 fps is 4 s in: frame 96 at 24 fps, shot 2's first frame; to frame 124 (4.96 s to 5 s) ends on 120.
    const at25 = openThread('shot-b', { on: 'animatic', frame: 100, frame_out: 124, rate: '25' }, [['ana', 'Here.']]);
    expect(markersIn(cutOf('24', [at25]))).toEqual([['Shot 2', '96', '120']]);
  });

  it("moves a shot's note named outside its clip to the clip's edge, and leaves out notes with no place in the cut", () => {
    const early = openThread('shot-b', { on: 'animatic', frame: 10, frame_out: 20, rate: '24' }, [['ana', 'Early.']]);
    const gone = openThread('shot-gone', null, [['ana', 'On a shot no longer on the board.']]);
    const wholeBoard = openThread(null, null, [['ana', 'The board as a whole.']]);
    const pastEnd = openThread(null, { on: 'animatic', timecode_ms: 60_000 }, [['ana', 'Past the end.']]);
    expect(markersIn(cutOf('24', [early, gone, wholeBoard]))).toEqual([['Shot 2', '96', '97']]);
    expect(readXmeml(fcpXml(cutOf('24', [pastEnd]))).sequence.map((marker) => marker.in)).toEqual(['215']);
  });

  it('bounds a long note: the name to a line, the note to 2,000 characters', () => {
    const long = openThread('shot-a', null, [['ana', 'x'.repeat(4000)]]);
    const marker = readXmeml(fcpXml(cutOf('24', [long]))).video[0]!.marker![0]!;
    expect(Array.from(marker.name).length).toBeLessThanOrEqual(80);
    expect(marker.name.endsWith('…')).toBe(true);
    expect(Array.from(marker.comment).length).toBe(2000);
  });

  it('writes no marker when the export leaves them out, and markers are on unless an export says otherwise', () => {
    expect(TimelineOptions.parse({}).markers).toBe(true);
    expect(TimelineOptions.parse({ markers: false }).markers).toBe(false);
    expect(fcpXml(cutOf('24', []))).not.toContain('<marker>');
    expect(fcpxml(cutOf('24', []))).not.toContain('<marker');
    expect(cmx3600Edl(cutOf('24', []))).not.toContain('LOC');
  });
});

describe('which notes an export carries', () => {
  it('takes the open threads of the board alone, oldest first, without deleted comments, bounded in number', () => {
    const open = openThread('shot-a', null, [['ana', 'Open.']]);
    const resolved = { ...openThread('shot-a', null, [['ana', 'Done.']]), status: 'resolved' as const };
    const elsewhere = { ...openThread(null, null, [['ana', 'Another card.']]), node_id: 'note' };
    const emptied = openThread('shot-a', null, [['ana', 'Gone.']]);
    emptied.comments[0] = { ...emptied.comments[0]!, deleted: true, body: '' };
    const older = openThread('shot-b', null, [['ben', 'First.']]);
    older.created_at = '2024-04-01T00:00:00.000Z';
    const { notes, leftOut } = exportNotes([open, resolved, elsewhere, emptied, older], 'board');
    expect(notes.map((note) => note.thread_id)).toEqual([older.thread_id, open.thread_id]);
    expect(leftOut).toBe(0);
    const many = Array.from({ length: MAX_EXPORT_NOTES + 3 }, () => openThread('shot-a', null, [['ana', 'Again.']]));
    expect(exportNotes(many, 'board')).toMatchObject({ leftOut: 3 });
  });
});

describe('the conform leaves markers alone', () => {
  const WRITERS: Record<TimelineFormat, (cut: TimelineCut) => string> = {
    otio: otioTimeline,
    fcp_xml: fcpXml,
    fcpxml,
    edl: cmx3600Edl,
  };
  it.each(Object.keys(WRITERS) as TimelineFormat[])('%s with notes reads back as the same cut as without', (format) => {
    const withNotes = readTimeline(WRITERS[format](cutOf()), '24');
    const without = readTimeline(WRITERS[format](cutOf('24', [])), '24');
    expect(withNotes).toEqual(without);
  });
});
