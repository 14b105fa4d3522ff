import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { FrameRate } from '../../src/contract/exports.js';
import { cmx3600Edl } from '../../src/exports/timeline/edl.js';
import { fcpXml } from '../../src/exports/timeline/fcp-xml.js';
import { cutFrames, framesPerSecond, rateFacts, timecode } from '../../src/exports/timeline/frame-rate.js';
import { otioTimeline } from '../../src/exports/timeline/otio.js';
import { placedShots, type TimelineCut } from '../../src/exports/timeline/timeline-cut.js';

/** The editorial timelines of a board's cut (src/exports/timeline): frame arithmetic, OTIO, FCP 7 XML and CMX 3600. */

const cutOf = (rate: FrameRate, durationsMs: number[], extra: Partial<TimelineCut> = {}): TimelineCut => ({
  title: 'Opening',
  rate,
  mediaFileName: 'Opening-animatic.mp4',
  hasAudio: false,
  shots: durationsMs.map((durationMs, index) => ({ id: `shot_${index + 1}`, number: String(index + 1), durationMs })),
  ...extra,
});

/** A 60-second board of 20 shots of 3 s: 1439 frames at 23.976, where rounding each shot alone would give 1440. */
const MINUTE_OF_SHOTS = Array.from({ length: 20 }, () => 3000);

describe('frame arithmetic', () => {
  it('turns whole-frame durations at 24 fps into back-to-back frame counts', () => {
    expect(cutFrames([1000, 1500, 2500], '24')).toEqual([
      { startFrame: 0, frames: 24 },
      { startFrame: 24, frames: 36 },
      { startFrame: 60, frames: 60 },
    ]);
  });

  it('rounds shot boundaries from the running time at 23.976, so the total never drifts from the true length', () => {
    const placed = cutFrames(MINUTE_OF_SHOTS, '23.976');
    const total = placed.reduce((sum, shot) => sum + shot.frames, 0);
    expect(total).toBe(Math.round((60 * 24000) / 1001));
    expect(total).toBe(1439);
    for (const [index, shot] of placed.entries()) {
      expect(shot.frames).toBeGreaterThanOrEqual(1);
      if (index > 0) expect(shot.startFrame).toBe(placed[index - 1]!.startFrame + placed[index - 1]!.frames);
    }
  });

  it('gives every shot at least one frame, even one shorter than a frame', () => {
    expect(cutFrames([10, 10, 10, 1000], '24').map((shot) => shot.frames)).toEqual([1, 1, 1, 22]);
  });

  it('knows each rate: the rational rate, the timebase, NTSC and drop frame', () => {
    expect(framesPerSecond('23.976')).toBe(24000 / 1001);
    expect(framesPerSecond('29.97')).toBe(30000 / 1001);
    expect(framesPerSecond('25')).toBe(25);
    expect(rateFacts('23.976')).toMatchObject({ timebase: 24, ntsc: true, dropFrame: false });
    expect(rateFacts('29.97')).toMatchObject({ timebase: 30, ntsc: true, dropFrame: true });
    expect(rateFacts('24')).toMatchObject({ timebase: 24, ntsc: false, dropFrame: false });
    expect(rateFacts('30')).toMatchObject({ timebase: 30, ntsc: false, dropFrame: false });
  });

  it('writes 29.97 drop-frame timecode: two frame numbers skipped each minute but every tenth', () => {
    expect(timecode(1799, '29.97', 0)).toBe('00:00:59;29');
    expect(timecode(1800, '29.97', 0)).toBe('00:01:00;02');
    expect(timecode(17982, '29.97', 0)).toBe('00:10:00;00');
    expect(timecode(17981, '29.97', 0)).toBe('00:09:59;29');
    expect(timecode(0, '29.97')).toBe('01:00:00;00');
    expect(timecode(1800, '29.97')).toBe('01:01:00;02');
  });

  it('writes 23.976 timecode as non-drop, counting 24 frames a second, from 01:00:00:00 by default', () => {
    expect(timecode(0, '23.976')).toBe('01:00:00:00');
    expect(timecode(1439, '23.976')).toBe('01:00:59:23');
    expect(timecode(1800, '23.976', 0)).toBe('00:01:15:00');
  });

  it('writes 25 fps timecode from any starting hour', () => {
    expect(timecode(90000, '25', 0)).toBe('01:00:00:00');
    expect(timecode(90000 + 24, '25', 0)).toBe('01:00:00:24');
    expect(timecode(25, '25')).toBe('01:00:01:00');
  });
});

describe('OpenTimelineIO', () => {
  type Node = Record<string, unknown>;
  const isNode = (value: unknown): value is Node =>
    typeof value === 'object' && value !== null && !Array.isArray(value);

  /** Every schema object below `value`, checking each has an OTIO_SCHEMA; metadata and reference maps are plain dicts. */
  function schemaObjects(value: unknown, found: Node[] = []): Node[] {
    if (Array.isArray(value)) {
      for (const item of value) schemaObjects(item, found);
    } else if (isNode(value)) {
      expect(value).toHaveProperty('OTIO_SCHEMA');
      found.push(value);
      for (const [key, child] of Object.entries(value)) {
        if (key === 'metadata') continue;
        if (key === 'media_references' && isNode(child)) schemaObjects(Object.values(child), found);
        else schemaObjects(child, found);
      }
    }
    return found;
  }
  const ofSchema = (nodes: Node[], schema: string) => nodes.filter((node) => node.OTIO_SCHEMA === schema);
  const frames = (time: unknown) => (time as { value: number }).value;

  it('writes a timeline whose clips are the shots, with source ranges that add up to the whole cut', () => {
    const cut = cutOf('23.976', MINUTE_OF_SHOTS);
    const nodes = schemaObjects(JSON.parse(otioTimeline(cut)));
    expect(nodes[0]).toMatchObject({ OTIO_SCHEMA: 'Timeline.1', name: 'Opening' });
    const tracks = ofSchema(nodes, 'Track.1');
    expect(tracks.map((track) => track.kind)).toEqual(['Video']);

    const clips = ofSchema(nodes, 'Clip.2');
    const placed = placedShots(cut);
    expect(clips).toHaveLength(20);
    const ranges = clips.map((clip) => clip.source_range as { start_time: unknown; duration: unknown });
    expect(ranges.map((range) => frames(range.duration))).toEqual(placed.map((shot) => shot.frames));
    expect(ranges.map((range) => frames(range.start_time))).toEqual(placed.map((shot) => shot.startFrame));
    expect(ranges.reduce((sum, range) => sum + frames(range.duration), 0)).toBe(1439);
    expect(clips.map((clip) => clip.name)).toEqual(placed.map((shot) => `Shot ${shot.number}`));
    expect(clips[2]!.metadata).toEqual({ 'canvas-mcp': { shot_id: 'shot_3', number: '3' } });
  });

  it('carries the true NTSC rate and starts the timeline at 01:00:00:00', () => {
    const nodes = schemaObjects(JSON.parse(otioTimeline(cutOf('23.976', [1000, 2000]))));
    const rates = new Set(ofSchema(nodes, 'RationalTime.1').map((time) => time.rate));
    expect([...rates]).toEqual([24000 / 1001]);
    expect(nodes[0]!.global_start_time).toMatchObject({ rate: 24000 / 1001, value: 86400 });

    const dropFrame = JSON.parse(otioTimeline(cutOf('29.97', [1000]))) as Node;
    expect(dropFrame.global_start_time).toMatchObject({ rate: 30000 / 1001, value: 107892 });
  });

  it('points every clip at the animatic as its active external reference, covering the whole movie', () => {
    const nodes = schemaObjects(JSON.parse(otioTimeline(cutOf('24', [1000, 1500, 2500]))));
    for (const clip of ofSchema(nodes, 'Clip.2')) {
      expect(clip.active_media_reference_key).toBe('DEFAULT_MEDIA');
      expect(clip).toMatchObject({ enabled: true, effects: [], markers: [] });
      const reference = (clip.media_references as Record<string, Node>).DEFAULT_MEDIA!;
      expect(reference).toMatchObject({ OTIO_SCHEMA: 'ExternalReference.1', target_url: 'Opening-animatic.mp4' });
      const available = reference.available_range as { start_time: unknown; duration: unknown };
      expect([frames(available.start_time), frames(available.duration)]).toEqual([0, 120]);
    }
  });

  it('adds an audio track of the same clips when the animatic has sound', () => {
    const nodes = schemaObjects(JSON.parse(otioTimeline(cutOf('25', [1000, 2000], { hasAudio: true }))));
    const tracks = ofSchema(nodes, 'Track.1');
    expect(tracks.map((track) => track.kind)).toEqual(['Video', 'Audio']);
    const names = (track: Node) => (track.children as Node[]).map((clip) => [clip.name, clip.source_range]);
    expect(names(tracks[1]!)).toEqual(names(tracks[0]!));
  });
});

describe('Final Cut Pro 7 XML', () => {
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: (name) => ['track', 'clipitem', 'link'].includes(name),
  });
  type El = Record<string, unknown>;
  const read = (xml: string) => {
    expect(XMLValidator.validate(xml)).toBe(true);
    return (parser.parse(xml) as { xmeml: { sequence: El } }).xmeml.sequence;
  };
  const trackOf = (sequence: El, kind: 'video' | 'audio') =>
    ((sequence.media as Record<string, { track: Array<{ clipitem: El[] }> }>)[kind]?.track ?? [])[0];
  const timing = (clip: El) => [clip.start, clip.end, clip.in, clip.out].map(Number);

  it('writes a sequence as long as the cut, each clipitem at its record and source frames', () => {
    const cut = cutOf('24', [1000, 1500, 2500]);
    const xml = fcpXml(cut);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE xmeml>\n<xmeml version="4">')).toBe(true);
    const sequence = read(xml);
    expect(Number(sequence.duration)).toBe(120);
    expect(sequence.rate).toEqual({ timebase: '24', ntsc: 'FALSE' });
    const clips = trackOf(sequence, 'video')!.clipitem;
    expect(clips.map((clip) => clip.name)).toEqual(['Shot 1', 'Shot 2', 'Shot 3']);
    expect(clips.map(timing)).toEqual([
      [0, 24, 0, 24],
      [24, 60, 24, 60],
      [60, 120, 60, 120],
    ]);
    expect(trackOf(sequence, 'audio')).toBeUndefined();
  });

  it('defines the animatic file once, in the first clipitem, and refers to it by id after', () => {
    const clips = trackOf(read(fcpXml(cutOf('24', [1000, 1500, 2500]))), 'video')!.clipitem;
    expect(clips[0]!.file).toMatchObject({
      '@_id': 'file-1',
      name: 'Opening-animatic.mp4',
      pathurl: './Opening-animatic.mp4',
      duration: '120',
      timecode: { string: '00:00:00:00', frame: '0', displayformat: 'NDF' },
    });
    expect(clips.slice(1).map((clip) => clip.file)).toEqual([{ '@_id': 'file-1' }, { '@_id': 'file-1' }]);
  });

  it('marks 23.976 as NTSC on a 24 timebase, non-drop', () => {
    const sequence = read(fcpXml(cutOf('23.976', MINUTE_OF_SHOTS)));
    expect(sequence.rate).toEqual({ timebase: '24', ntsc: 'TRUE' });
    expect(Number(sequence.duration)).toBe(1439);
    expect(sequence.timecode).toMatchObject({ string: '01:00:00:00', frame: '86400', displayformat: 'NDF' });
    const clips = trackOf(sequence, 'video')!.clipitem;
    expect(clips.map(timing)).toEqual(
      placedShots(cutOf('23.976', MINUTE_OF_SHOTS)).map((s) => [s.startFrame, s.endFrame, s.startFrame, s.endFrame]),
    );
  });

  it('marks 29.97 as NTSC on a 30 timebase with drop-frame timecode', () => {
    const sequence = read(fcpXml(cutOf('29.97', [1000, 2000])));
    expect(sequence.rate).toEqual({ timebase: '30', ntsc: 'TRUE' });
    expect(sequence.timecode).toMatchObject({ string: '01:00:00;00', frame: '107892', displayformat: 'DF' });
    expect(trackOf(sequence, 'video')!.clipitem.map(timing)).toEqual([
      [0, 30, 0, 30],
      [30, 90, 30, 90],
    ]);
  });

  it('escapes a title and shot numbers with markup characters and keeps Japanese as it is', () => {
    const title = 'Tom & Jerry <"日本語"> \'1\'';
    const cut = cutOf('24', [1000], { title, shots: [{ id: 's', number: '1<A>&"', durationMs: 1000 }] });
    const xml = fcpXml(cut);
    expect(xml).toContain('日本語');
    const sequence = read(xml);
    expect(sequence.name).toBe(title);
    expect(trackOf(sequence, 'video')!.clipitem[0]!.name).toBe('Shot 1<A>&"');
  });

  it('adds an audio track of linked clipitems at the same frames when the animatic has sound', () => {
    const sequence = read(fcpXml(cutOf('25', [1000, 2000], { hasAudio: true })));
    const video = trackOf(sequence, 'video')!.clipitem;
    const audio = trackOf(sequence, 'audio')!.clipitem;
    expect(audio.map(timing)).toEqual(video.map(timing));
    expect(audio.map((clip) => clip.file)).toEqual([{ '@_id': 'file-1' }, { '@_id': 'file-1' }]);
    expect(audio[0]!.sourcetrack).toEqual({ mediatype: 'audio', trackindex: '1' });
    expect(video[0]!.file).toMatchObject({ media: { audio: { channelcount: '2' } } });
    expect((video[1]!.link as El[]).map((link) => link.linkclipref)).toEqual([video[1]!['@_id'], audio[1]!['@_id']]);
  });
});

describe('CMX 3600 EDL', () => {
  const TC = String.raw`(\d\d:\d\d:\d\d[:;]\d\d)`;
  const EVENT = new RegExp(String.raw`^(\d{3})  (.{8}) (.{5}) C {8}${TC} ${TC} ${TC} ${TC}$`);
  const events = (edl: string) =>
    edl
      .split('\r\n')
      .map((line) => EVENT.exec(line))
      .filter((match) => match !== null)
      .map(([, event, reel, channel, sourceIn, sourceOut, recordIn, recordOut]) => ({
        event,
        reel,
        channel: channel!.trim(),
        sourceIn,
        sourceOut,
        recordIn,
        recordOut,
      }));

  it('writes one cut event per shot in the CMX 3600 columns, record and source timecodes matching the frames', () => {
    const cut = cutOf('23.976', MINUTE_OF_SHOTS);
    const edl = cmx3600Edl(cut);
    const lines = edl.split('\r\n');
    expect(lines.slice(0, 2)).toEqual(['TITLE: Opening', 'FCM: NON-DROP FRAME']);
    const parsed = events(edl);
    const placed = placedShots(cut);
    expect(parsed.map((event) => event.event)).toEqual(placed.map((_, index) => String(index + 1).padStart(3, '0')));
    expect(parsed.map((event) => [event.reel, event.channel])).toEqual(placed.map(() => ['AX      ', 'V']));
    expect(parsed.map((event) => [event.sourceIn, event.sourceOut, event.recordIn, event.recordOut])).toEqual(
      placed.map((shot) => [
        timecode(shot.startFrame, '23.976', 0),
        timecode(shot.endFrame, '23.976', 0),
        timecode(shot.startFrame, '23.976'),
        timecode(shot.endFrame, '23.976'),
      ]),
    );
    expect(parsed[0]!.recordIn).toBe('01:00:00:00');
    expect(parsed.at(-1)!.recordOut).toBe(timecode(1439, '23.976'));
    for (let index = 0; index + 1 < parsed.length; index++) {
      expect(parsed[index]!.recordOut).toBe(parsed[index + 1]!.recordIn);
    }
  });

  it('names each event after its shot, with the animatic as its source file, and ends every line with CRLF', () => {
    const edl = cmx3600Edl(cutOf('24', [1000, 1500]));
    expect(edl.endsWith('\r\n')).toBe(true);
    expect(edl.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const lines = edl.split('\r\n');
    const first = lines.findIndex((line) => line.startsWith('001  '));
    expect(lines.slice(first, first + 3)).toEqual([
      '001  AX       V     C        00:00:00:00 00:00:01:00 01:00:00:00 01:00:01:00',
      '* FROM CLIP NAME: Shot 1',
      '* SOURCE FILE: Opening-animatic.mp4',
    ]);
  });

  it('declares drop frame at 29.97 and writes its timecodes with semicolons', () => {
    const edl = cmx3600Edl(
      cutOf(
        '29.97',
        Array.from({ length: 30 }, () => 3000),
      ),
    );
    expect(edl.split('\r\n')[1]).toBe('FCM: DROP FRAME');
    const parsed = events(edl);
    expect(parsed).toHaveLength(30);
    expect(parsed.every((event) => event.recordIn!.includes(';') && event.sourceOut!.includes(';'))).toBe(true);
    // 90 s is 2697 frames at 29.97; drop-frame timecode keeps to the clock (non-drop would read 01:01:29:27).
    expect(parsed.at(-1)!.recordOut).toBe('01:01:29;29');
  });

  it('keeps the title to 70 ASCII characters and each comment to one line', () => {
    const title = `Café ${'Ω'.repeat(3)} 日本語 ${'x'.repeat(100)}`;
    const edl = cmx3600Edl(cutOf('25', [1000], { title, shots: [{ id: 's', number: '1\nFCM: X', durationMs: 1000 }] }));
    const titleLine = edl.split('\r\n')[0]!;
    expect(titleLine).toMatch(/^TITLE: Cafe x+$/);
    expect(titleLine.length - 'TITLE: '.length).toBe(70);
    expect(cmx3600Edl(cutOf('25', [1000], { title: '日本語' })).split('\r\n')[0]).toBe('TITLE: Storyboard');
    expect(edl).toContain('* FROM CLIP NAME: Shot 1 FCM: X\r\n');
  });

  it('carries picture and both sound channels in one AA/V event when the animatic has sound', () => {
    const parsed = events(cmx3600Edl(cutOf('24', [1000, 1500], { hasAudio: true })));
    expect(parsed.map((event) => event.channel)).toEqual(['AA/V', 'AA/V']);
  });
});
