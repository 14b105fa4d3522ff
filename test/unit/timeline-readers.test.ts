import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { TimelineFormat } from '../../src/contract/conform.js';
import { FRAME_RATES, type FrameRate } from '../../src/contract/exports.js';
import { planConform, type Frame } from '../../src/backend/storyboard/conform-plan.js';
import { cmx3600Edl } from '../../src/exports/timeline/edl.js';
import { fcpXml } from '../../src/exports/timeline/fcp-xml.js';
import { fcpxml } from '../../src/exports/timeline/fcpxml.js';
import { cutFrames, frameOfTimecode, rateFacts, timecode } from '../../src/exports/timeline/frame-rate.js';
import { otioTimeline } from '../../src/exports/timeline/otio.js';
import { otiozBundle } from '../../src/exports/timeline/otioz.js';
import { TimelineReadError } from '../../src/exports/timeline/read-cut.js';
import { readEdl } from '../../src/exports/timeline/read-edl.js';
import { readFcpXml } from '../../src/exports/timeline/read-fcp-xml.js';
import { readFcpxml } from '../../src/exports/timeline/read-fcpxml.js';
import { readOtio } from '../../src/exports/timeline/read-otio.js';
import { readTimeline } from '../../src/exports/timeline/read-timeline.js';
import { placedShots, type TimelineCut } from '../../src/exports/timeline/timeline-cut.js';
import { openThread } from '../support/review-threads.js';
import { editEdl, editFcpXml, editFcpxml, editOtio, type Edit } from '../support/timeline-edits.js';

/**
 * The timeline readers (src/exports/timeline/read-*.ts) and the conform's plan (src/backend/storyboard/conform-plan.ts):
 * each format written by our writer reads back as the same cut at every rate; an editor's one-frame trim at 23.976
 * and 29.97 drop frame lands on exactly that frame count; files that are not timelines are refused with the reason.
 * Our FCPXML is checked by a second parser (@xmldom/xmldom) with its own rational arithmetic.
 */

const WRITERS: Record<TimelineFormat, (cut: TimelineCut) => string> = {
  otio: otioTimeline,
  fcp_xml: fcpXml,
  fcpxml,
  edl: cmx3600Edl,
};
const FORMATS = Object.keys(WRITERS) as TimelineFormat[];

/** Lengths a board really has: whole seconds, dialogue-timed (1650 ms), a shot shorter than a frame. */
const DURATIONS = [1000, 1500, 1250, 3000, 1650, 20, 2000, 4350, 3000, 2500];

const cutOf = (rate: FrameRate, durations: number[] = DURATIONS, hasAudio = true): TimelineCut => ({
  title: 'Harbour & Sea',
  rate,
  mediaFileName: 'Harbour Sea animatic.mp4',
  hasAudio,
  shots: durations.map((durationMs, index) => ({
    id: `shot-${index + 1}`,
    number: index === 2 ? '2A' : String(index + (index > 2 ? 0 : 1)),
    durationMs,
  })),
});

const written = (format: TimelineFormat, cut: TimelineCut) => WRITERS[format](cut);
const edit = (format: TimelineFormat, text: string, edits: Edit[], rate: FrameRate) =>
  format === 'otio'
    ? editOtio(text, edits)
    : format === 'fcp_xml'
      ? editFcpXml(text, edits)
      : format === 'fcpxml'
        ? editFcpxml(text, edits)
        : editEdl(text, edits, rate);

describe('reading our own timelines back', () => {
  it.each(FORMATS.flatMap((format) => FRAME_RATES.map((rate) => [format, rate] as const)))(
    '%s at %s fps reads back as the same cut, clip for clip and frame for frame',
    (format, rate) => {
      const cut = cutOf(rate);
      const read = readTimeline(written(format, cut), rate);
      expect(read.format).toBe(format);
      expect(read.rate).toBe(rate);
      const placed = placedShots(cut);
      expect(read.clips.map((clip) => clip.frames)).toEqual(placed.map((shot) => shot.frames));
      expect(read.clips.map((clip) => clip.shotNumber)).toEqual(placed.map((shot) => shot.number));
      expect(read.clips.map((clip) => clip.name)).toEqual(placed.map((shot) => `Shot ${shot.number}`));
      // OTIO and FCPXML carry the shot's id; FCP 7 XML and the EDL name the shot by its number alone.
      expect(read.clips.map((clip) => clip.shotId)).toEqual(
        placed.map((shot) => (format === 'otio' || format === 'fcpxml' ? shot.id : null)),
      );
    },
  );

  it('tells an EDL at 29.97 by its DROP FRAME header and reads 24 for a non-drop one without a rate', () => {
    expect(readEdl(cmx3600Edl(cutOf('29.97'))).rate).toBe('29.97');
    expect(readEdl(cmx3600Edl(cutOf('24'))).rate).toBe('24');
  });

  it('reads a timecode back to the frame it was written from, drop frame included', () => {
    for (const rate of FRAME_RATES) {
      for (const frame of [0, 1, 1799, 1800, 17_982, 17_983, 107_891, 200_000]) {
        expect(frameOfTimecode(timecode(frame, rate), rate)).toBe(frame);
        expect(frameOfTimecode(timecode(frame, rate, 0), rate, 0)).toBe(frame);
      }
    }
    // 00:01:00;00 does not exist in drop frame: its frame numbers 00 and 01 are skipped.
    expect(frameOfTimecode('00:01:00;00', '29.97', 0)).toBeNull();
    expect(frameOfTimecode('00:10:00;00', '29.97', 0)).toBe(17_982);
  });

  it('names the shot in the EDL clip name and keeps the animatic as the source file', () => {
    const lines = cmx3600Edl(cutOf('24')).split('\r\n');
    const first = lines.findIndex((line) => line.startsWith('001  '));
    expect(lines.slice(first + 1, first + 3)).toEqual([
      '* FROM CLIP NAME: Shot 1',
      '* SOURCE FILE: Harbour Sea animatic.mp4',
    ]);
    // An EDL of ours from before names the shot in a comment: it is still read.
    const older = cmx3600Edl(cutOf('24')).replaceAll(
      /\* FROM CLIP NAME: (Shot \S+)\r\n\* SOURCE FILE: .*\r\n/g,
      '* FROM CLIP NAME: Harbour Sea animatic.mp4\r\n* COMMENT: $1\r\n',
    );
    expect(readEdl(older).clips.map((clip) => clip.shotNumber)).toEqual(placedShots(cutOf('24')).map((s) => s.number));
  });
});

/** A board of 12 shots of 3 s: 71.928 frames each at 23.976, 89.91 at 29.97, so every boundary rounds. */
const boardOf = (count = 12, durationMs = 3000): Frame[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `shot-${index + 1}`,
    imageUrl: null,
    number: String(index + 1),
    durationMs,
  }));

const cutOfBoard = (frames: readonly Frame[], rate: FrameRate): TimelineCut => ({
  title: 'Board',
  rate,
  mediaFileName: 'Board animatic.mp4',
  hasAudio: true,
  shots: frames
    .filter((frame) => frame.status !== 'omitted')
    .map((frame) => ({ id: frame.id, number: String(frame.number), durationMs: frame.durationMs as number })),
});

let counter = 0;
const conform = (frames: readonly Frame[], text: string, rate?: FrameRate) =>
  planConform({
    frames,
    playedMs: (frame) => frame.durationMs as number,
    cut: readTimeline(text, rate),
    newShotId: () => `new-${++counter}`,
  });

describe('conforming a board to its cut', () => {
  it.each(FORMATS.flatMap((format) => FRAME_RATES.map((rate) => [format, rate] as const)))(
    'changes nothing when %s at %s fps comes back unedited',
    (format, rate) => {
      const board = boardOf().map((frame, index) => ({ ...frame, durationMs: DURATIONS[index % DURATIONS.length] }));
      const plan = conform(board, written(format, cutOfBoard(board, rate)), rate);
      expect(plan.frames).toBeNull();
      expect(plan.report).toMatchObject({ durations: [], moved: [], omitted: [], restored: [], added: [] });
    },
  );

  it.each(FORMATS.flatMap((format) => FRAME_RATES.map((rate) => [format, rate] as const)))(
    'changes nothing when %s at %s fps comes back unedited carrying review notes as markers, and reads a trim beside them',
    (format, rate) => {
      const board = boardOf();
      // A range on shot 2, a point on shot 4 and one on the animatic, each marked in the file (markers.ts).
      const notes = [
        openThread('shot-2', { on: 'animatic', frame: 80, frame_out: 100, rate: '24' }, [['ana', '<marker> & "hold"']]),
        openThread('shot-4', null, [['Guest: Kim', 'Wider.']], 'client'),
        openThread(null, { on: 'animatic', timecode_ms: 20_000 }, [['ben', 'A beat late.']]),
      ];
      const text = written(format, { ...cutOfBoard(board, rate), notes });
      expect(text).toMatch(/<marker|"Marker\.2"|\* LOC: /);
      expect(conform(board, text, rate).frames).toBeNull();
      const trimmed = conform(board, edit(format, text, [{ trim: 3, by: 1 }], rate), rate);
      expect(trimmed.report.durations.map((change) => [change.shot_id, change.to_frames - change.from_frames])).toEqual(
        [['shot-4', -1]],
      );
    },
  );

  it.each(FORMATS.flatMap((format) => (['23.976', '29.97'] as const).map((rate) => [format, rate] as const)))(
    'reads a one-frame trim of shot 4 in %s at %s exactly: its new duration gives back that frame count',
    (format, rate) => {
      const board = boardOf();
      const original = cutFrames(
        board.map(() => 3000),
        rate,
      );
      const text = edit(format, written(format, cutOfBoard(board, rate)), [{ trim: 3, by: 1 }], rate);
      const edited = readTimeline(text, rate).clips.map((clip) => clip.frames);
      expect(edited[3]).toBe(original[3]!.frames - 1);

      const plan = conform(board, text, rate);
      expect(plan.report.durations).toEqual([
        expect.objectContaining({
          shot_id: 'shot-4',
          number: '4',
          from_ms: 3000,
          from_frames: original[3]!.frames,
          to_frames: original[3]!.frames - 1,
        }),
      ]);
      expect(plan.report).toMatchObject({ moved: [], omitted: [], restored: [], added: [] });
      // Through the exports' own arithmetic, the conformed board plays exactly the editor's frames, every shot.
      const after = plan.frames!;
      expect(
        cutFrames(
          after.map((frame) => frame.durationMs as number),
          rate,
        ).map((shot) => shot.frames),
      ).toEqual(edited);
      // And the board exported again reads back as the editor's cut: a second conform changes nothing.
      expect(conform(after, written(format, cutOfBoard(after, rate)), rate).frames).toBeNull();
    },
  );

  it('reports a swap, a drop and a trim as exactly those changes, the dropped shot omitted in its place', () => {
    const board = boardOf(10, 2000);
    const text = edit(
      'fcp_xml',
      written('fcp_xml', cutOfBoard(board, '24')),
      [{ trim: 3, by: 1 }, { swap: [5, 6] }, { drop: 8 }],
      '24',
    );
    const plan = conform(board, text);
    expect(plan.report.durations).toEqual([
      { shot_id: 'shot-4', number: '4', from_ms: 2000, to_ms: 1958, from_frames: 48, to_frames: 47 },
    ]);
    expect(plan.report.moved).toEqual([{ shot_id: 'shot-7', number: '7', from_position: 7, to_position: 6 }]);
    expect(plan.report.omitted).toEqual([{ shot_id: 'shot-9', number: '9' }]);
    expect(plan.report.added).toEqual([]);
    expect(plan.frames!.map((frame) => frame.number)).toEqual(['1', '2', '3', '4', '5', '7', '6', '8', '9', '10']);
    expect(plan.frames!.find((frame) => frame.id === 'shot-9')).toMatchObject({ status: 'omitted', durationMs: 2000 });
  });

  it.each(['23.976', '29.97'] as const)(
    'plays exactly the editor’s frames after a swap at %s, nudging by a few ms a shot whose new place rounds it off',
    (rate) => {
      const board = boardOf();
      const text = edit('fcpxml', written('fcpxml', cutOfBoard(board, rate)), [{ swap: [5, 6] }], rate);
      const edited = readTimeline(text).clips.map((clip) => clip.frames);
      const plan = conform(board, text);
      expect(plan.report.moved.map((shot) => shot.number)).toEqual(['7']);
      expect(
        cutFrames(
          plan.frames!.map((frame) => frame.durationMs as number),
          rate,
        ).map((shot) => shot.frames),
      ).toEqual(edited);
      // A nudge keeps the shot's frames and is named in the report: never more than a frame's worth of milliseconds.
      for (const change of plan.report.durations) {
        expect(change.to_frames).toBe(change.from_frames);
        expect(Math.abs(change.to_ms - change.from_ms)).toBeLessThan(1000 / 23.976);
      }
      expect(conform(plan.frames!, written('fcpxml', cutOfBoard(plan.frames!, rate))).frames).toBeNull();
    },
  );

  it('adds a clip that names no shot as a new shot described by its name, numbered after the shot before it', () => {
    const board = boardOf(3, 1000);
    const timeline = JSON.parse(otioTimeline(cutOfBoard(board, '24'))) as {
      tracks: { children: Array<{ children: Array<Record<string, unknown>> }> };
    };
    const video = timeline.tracks.children[0]!.children;
    const stranger = structuredClone(video[1]!);
    stranger.name = 'Pickup: harbour wide';
    stranger.metadata = {};
    (stranger.source_range as { duration: { value: number } }).duration.value = 30;
    video.splice(2, 0, stranger);
    const plan = conform(board, JSON.stringify(timeline));
    expect(plan.report.added).toEqual([
      expect.objectContaining({
        name: 'Pickup: harbour wide',
        number: '2A',
        position: 3,
        frames: 30,
        duration_ms: 1250,
      }),
    ]);
    expect(plan.frames![2]).toMatchObject({ caption: 'Pickup: harbour wide', status: 'draft', durationMs: 1250 });
    expect(plan.report).toMatchObject({ durations: [], moved: [], omitted: [] });
  });

  it('restores an omitted shot the cut holds again', () => {
    const board = boardOf(3, 1000);
    const omitted = board.map((frame) => (frame.id === 'shot-2' ? { ...frame, status: 'omitted' } : frame));
    const plan = conform(omitted, cmx3600Edl(cutOfBoard(board, '24')));
    expect(plan.report.restored).toEqual([{ shot_id: 'shot-2', number: '2' }]);
    expect(plan.frames![1]).toMatchObject({ status: 'draft' });
  });

  it('refuses a cut that names no shot of the board, saying so', () => {
    const stranger = boardOf(3).map((frame, index) => ({ ...frame, id: `other-${index}`, number: String(index + 40) }));
    expect(() => conform(boardOf(3), fcpXml(cutOfBoard(stranger, '24')))).toThrow(/names a shot of this board.*none/);
  });
});

describe('reading what editors add to a cut', () => {
  it('reads a clip beside a transition in FCP 7 XML by its source length, and says the transition is read as a cut', () => {
    const text = fcpXml(cutOf('24', [1000, 2000], false))
      .replace('<start>24</start>', '<start>-1</start>')
      .replace('</clipitem>', '</clipitem><transitionitem><name>Cross Dissolve</name></transitionitem>');
    const read = readFcpXml(text);
    expect(read.clips.map((clip) => clip.frames)).toEqual([24, 48]);
    expect(read.notes.join(' ')).toMatch(/transition/);
  });

  it('leaves a gap in OTIO and a sound-only EDL event out, saying so', () => {
    const timeline = JSON.parse(otioTimeline(cutOf('24', [1000, 2000], false))) as {
      tracks: { children: Array<{ children: unknown[] }> };
    };
    timeline.tracks.children[0]!.children.splice(1, 0, { OTIO_SCHEMA: 'Gap.1', name: '' });
    const otio = readOtio(JSON.stringify(timeline));
    expect(otio.clips).toHaveLength(2);
    expect(otio.notes).toEqual(['A gap at item 2 of the track is not a shot: left out.']);
    const edl = `${cmx3600Edl(cutOf('24', [1000], false))}\r\n002  AX       A     C        00:00:00:00 00:00:01:00 01:00:01:00 01:00:02:00\r\n`;
    const read = readEdl(edl);
    expect(read.clips).toHaveLength(1);
    expect(read.notes).toEqual(['1 sound-only event(s) are not shots: left out.']);
  });
});

describe('refusing what is not a timeline', () => {
  it.each([
    ['an empty file', '', /empty/],
    ['plain text', 'INT. LIGHTHOUSE - NIGHT\n\nMara climbs.', /not a timeline/],
    ['JSON of another kind', '{"OTIO_SCHEMA":"Clip.2"}', /not an OTIO timeline/],
    ['broken JSON', '{"OTIO_SCHEMA": "Timeline.1", ', /not JSON/],
    ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"/>', /root is <svg>/],
    ['broken XML', '<xmeml version="4"><sequence><name>x</sequence>', /not well-formed|no <sequence>|timebase/],
    ['XML with entities', '<!DOCTYPE xmeml [<!ENTITY a "aaaa">]><xmeml>&a;</xmeml>', /entities/],
    ['an EDL without events', 'TITLE: Nothing\r\nFCM: NON-DROP FRAME\r\n', /no event line/],
    ['an OTIO at 60 fps', otioTimeline(cutOf('24')).replaceAll('"rate": 24', '"rate": 60'), /60 frames a second/],
  ])('%s', (_, text, reason) => {
    expect(() => readTimeline(text)).toThrow(TimelineReadError);
    expect(() => readTimeline(text)).toThrow(reason);
  });

  it('refuses a timeline of more clips than a conform reads', () => {
    const huge = cutOf(
      '24',
      Array.from({ length: 2001 }, () => 1000),
      false,
    );
    expect(() => readOtio(otioTimeline(huge))).toThrow(/at most 2000/);
    expect(() => readFcpXml(fcpXml(huge))).toThrow(/at most 2000/);
    expect(() => readFcpxml(fcpxml(huge))).toThrow(/at most 2000/);
  });
});

describe('FCPXML, read by a second parser', () => {
  const fraction = (value: string) => {
    const match = /^(\d+)(?:\/(\d+))?s$/.exec(value)!;
    return { n: BigInt(match[1]!), d: BigInt(match[2] ?? '1') };
  };
  /** A rational time in frames of a frame duration, which must come out whole. */
  const inFrames = (value: string, frame: { n: bigint; d: bigint }) => {
    const time = fraction(value);
    const [top, bottom] = [time.n * frame.d, time.d * frame.n];
    expect(top % bottom).toBe(0n);
    return Number(top / bottom);
  };

  it.each(FRAME_RATES)('writes version 1.10 with the frame size and rate, clips on whole frames at %s', (rate) => {
    const cut = cutOf(rate);
    const document = new DOMParser().parseFromString(fcpxml(cut), 'text/xml');
    const root = document.documentElement!;
    expect(root.nodeName).toBe('fcpxml');
    expect(root.getAttribute('version')).toBe('1.10');
    const format = document.getElementsByTagName('format')[0]!;
    expect([format.getAttribute('width'), format.getAttribute('height')]).toEqual(['1920', '1080']);
    const frame = fraction(format.getAttribute('frameDuration')!);
    const { numerator, denominator } = rateFacts(rate);
    // One frame lasts denominator/numerator seconds: 1001/24000 at 23.976.
    expect(frame.n * BigInt(numerator)).toBe(frame.d * BigInt(denominator));

    const asset = document.getElementsByTagName('asset')[0]!;
    expect(asset.getAttribute('format')).toBe(format.getAttribute('id'));
    expect(document.getElementsByTagName('media-rep')[0]!.getAttribute('src')).toBe('./Harbour%20Sea%20animatic.mp4');
    const sequence = document.getElementsByTagName('sequence')[0]!;
    expect(sequence.parentNode!.nodeName).toBe('project');
    expect(sequence.parentNode!.parentNode!.nodeName).toBe('event');
    expect(sequence.parentNode!.parentNode!.parentNode!.nodeName).toBe('library');
    expect(sequence.getAttribute('tcFormat')).toBe(rate === '29.97' ? 'DF' : 'NDF');
    // The sequence starts at 01:00:00:00: 86,400 frames at 24 and 23.976, 107,892 in drop frame.
    const start = inFrames(sequence.getAttribute('tcStart')!, frame);
    expect(start).toBe(rate === '29.97' ? 107_892 : rate === '25' ? 90_000 : rate === '30' ? 108_000 : 86_400);

    const clips = Array.from(document.getElementsByTagName('asset-clip'));
    const placed = placedShots(cut);
    expect(clips).toHaveLength(placed.length);
    let offset = start;
    for (const [index, clip] of clips.entries()) {
      expect(clip.getAttribute('ref')).toBe(asset.getAttribute('id'));
      expect(clip.getAttribute('name')).toBe(`Shot ${placed[index]!.number}`);
      expect(inFrames(clip.getAttribute('offset')!, frame)).toBe(offset);
      expect(inFrames(clip.getAttribute('start')!, frame)).toBe(placed[index]!.startFrame);
      expect(inFrames(clip.getAttribute('duration')!, frame)).toBe(placed[index]!.frames);
      offset += placed[index]!.frames;
    }
    expect(inFrames(sequence.getAttribute('duration')!, frame)).toBe(offset - start);
    expect(inFrames(asset.getAttribute('duration')!, frame)).toBe(offset - start);
  });

  it('writes a title with markup characters as well-formed XML', () => {
    const text = fcpxml({ ...cutOf('24'), title: 'Tom & Jerry <"cut">' });
    const document = new DOMParser().parseFromString(text, 'text/xml');
    expect(document.getElementsByTagName('project')[0]!.getAttribute('name')).toBe('Tom & Jerry <"cut">');
  });
});

describe('the .otioz bundle', () => {
  it('holds content.otio with its clips pointing at the animatic and pictures inside media/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'otioz-test-'));
    try {
      const picture = join(dir, 'one.png');
      await writeFile(picture, Buffer.from('png bytes'));
      const cut = cutOf('24', [1000, 2000]);
      const bundle = await otiozBundle(cut, Buffer.from('mp4 bytes'), [
        { id: 'shot-1', number: '1', picture },
        { id: 'shot-2', number: '2', picture: null },
      ]);
      const files = unzipSync(new Uint8Array(bundle.bytes));
      expect(Object.keys(files).sort()).toEqual(
        ['content.otio', 'media/Harbour Sea animatic.mp4', 'media/shot-001-1.png', 'version.txt'].sort(),
      );
      expect(Buffer.from(files['media/Harbour Sea animatic.mp4']!).toString()).toBe('mp4 bytes');
      const content = new TextDecoder().decode(files['content.otio']);
      const read = readOtio(content);
      expect(read.clips.map((clip) => clip.frames)).toEqual([24, 48]);
      const clips = (
        JSON.parse(content) as {
          tracks: {
            children: Array<{ children: Array<{ media_references: Record<string, { target_url: string }> }> }>;
          };
        }
      ).tracks.children[0]!.children;
      expect(clips[0]!.media_references.DEFAULT_MEDIA!.target_url).toBe('media/Harbour Sea animatic.mp4');
      expect(clips[0]!.media_references.picture!.target_url).toBe('media/shot-001-1.png');
      expect(clips[1]!.media_references.picture).toBeUndefined();
      // The same cut bundles to the same bytes.
      const again = await otiozBundle(cut, Buffer.from('mp4 bytes'), [
        { id: 'shot-1', number: '1', picture },
        { id: 'shot-2', number: '2', picture: null },
      ]);
      expect(again.bytes.equals(bundle.bytes)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
