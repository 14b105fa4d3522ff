import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { CameraMove } from '../../src/contract/shots.js';
import { fcpXml } from '../../src/exports/timeline/fcp-xml.js';
import { fcpxml, framesAsTime } from '../../src/exports/timeline/fcpxml.js';
import { placedShots, type TimelineCut } from '../../src/exports/timeline/timeline-cut.js';

/**
 * Camera moves in the editors' timelines: the FCP 7 XML writes a shot's move as its clip's Basic Motion (Scale and
 * Center keyframes at the clip's in and last frame), the FCPXML as its clip's adjust-transform (position and scale
 * keyframe animations). Read back by a parser, each keyframe's values put the framing exactly on the frame.
 */

const push = CameraMove.parse({
  start: { x: 0, y: 0, width: 1, height: 1 },
  end: { x: 0.5, y: 0.2, width: 0.4, height: 0.4 },
  easing: 'linear',
  kind: 'push',
});

const cut: TimelineCut = {
  title: 'Opening',
  rate: '24',
  mediaFileName: 'Opening-animatic.mp4',
  hasAudio: true,
  shots: [
    { id: 'a', number: '1', durationMs: 1000 },
    { id: 'b', number: '2', durationMs: 2000, move: push },
    { id: 'c', number: '3', durationMs: 1500 },
  ],
};
const moving = placedShots(cut)[1]!;
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: true, isArray: (name) => name === 'keyframe' });

describe('a camera move in the FCP 7 XML', () => {
  const xml = fcpXml(cut);
  const document = parser.parse(xml) as {
    xmeml: { sequence: { media: { video: { track: { clipitem: Array<Record<string, unknown>> } } } } };
  };
  const clips = document.xmeml.sequence.media.video.track.clipitem;
  type Parameter = { parameterid: string; keyframe: Array<{ when: number; value: unknown }> };
  const filter = clips[1]!.filter as { enabled: string; effect: { effectid: string; parameter: Parameter[] } };
  const parameter = (id: string) => filter.effect.parameter.find((each) => each.parameterid === id)!;

  it('is well-formed and only on the shot with the move', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(clips[0]!.filter).toBeUndefined();
    expect(clips[2]!.filter).toBeUndefined();
    expect(filter.effect.effectid).toBe('basic');
  });

  it('keys Scale at the clip’s in (100 %) and its last frame (250 % for a framing of 0.4)', () => {
    const scale = parameter('scale').keyframe;
    expect(scale.map((key) => key.when)).toEqual([moving.startFrame, moving.endFrame - 1]);
    expect(scale.map((key) => key.value)).toEqual([100, 250]);
  });

  it('keys Center so the end framing fills the frame', () => {
    const center = parameter('center').keyframe as Array<{ when: number; value: { horiz: number; vert: number } }>;
    expect(center.map((key) => key.when)).toEqual([moving.startFrame, moving.endFrame - 1]);
    expect(center[0]!.value).toEqual({ horiz: 0, vert: 0 });
    // The framing's edges (0.5 to 0.9 across, 0.2 to 0.6 down) land on the frame's edges at 250 %.
    const { horiz, vert } = center[1]!.value;
    const onFrame = (point: number, offset: number) => 0.5 + (point - 0.5) * 2.5 + offset;
    expect(onFrame(0.5, horiz)).toBeCloseTo(0, 6);
    expect(onFrame(0.9, horiz)).toBeCloseTo(1, 6);
    expect(onFrame(0.2, vert)).toBeCloseTo(0, 6);
    expect(onFrame(0.6, vert)).toBeCloseTo(1, 6);
  });

  it('writes an eased move with keyframes between, on its curve', () => {
    const eased = fcpXml({
      ...cut,
      shots: cut.shots.map((shot) => (shot.move ? { ...shot, move: { ...push, easing: 'ease-in' } } : shot)),
    });
    const clip = (parser.parse(eased) as typeof document).xmeml.sequence.media.video.track.clipitem[1]!;
    const scale = (clip.filter as typeof filter).effect.parameter.find(
      (each) => each.parameterid === 'scale',
    )!.keyframe;
    expect(scale).toHaveLength(5);
    // About halfway in time an ease-in has gone about a quarter of the way: width 1 − 0.6 · t².
    const t = (scale[2]!.when - moving.startFrame) / (moving.frames - 1);
    expect(t).toBeCloseTo(0.5, 1);
    expect(Number(scale[2]!.value)).toBeCloseTo(100 / (1 - 0.6 * t * t), 3);
  });
});

describe('a camera move in the FCPXML', () => {
  const xml = fcpxml(cut);
  const document = parser.parse(xml) as {
    fcpxml: {
      library: { event: { project: { sequence: { spine: { 'asset-clip': Array<Record<string, unknown>> } } } } };
    };
  };
  const clips = document.fcpxml.library.event.project.sequence.spine['asset-clip'];
  type Param = { '@_name': string; keyframeAnimation: { keyframe: Array<{ '@_time': string; '@_value': string }> } };
  const transform = clips[1]!['adjust-transform'] as { param: Param[] };
  const keyframes = (name: string) =>
    transform.param.find((each) => each['@_name'] === name)!.keyframeAnimation.keyframe;

  it('is well-formed and only on the shot with the move', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(clips[0]!['adjust-transform']).toBeUndefined();
    expect(clips[2]!['adjust-transform']).toBeUndefined();
  });

  it('keys scale at the clip’s first and last frames, in the clip’s source time', () => {
    const scale = keyframes('scale');
    expect(scale.map((key) => key['@_time'])).toEqual([
      framesAsTime(moving.startFrame, '24'),
      framesAsTime(moving.endFrame - 1, '24'),
    ]);
    expect(clips[1]!['@_start']).toBe(framesAsTime(moving.startFrame, '24'));
    expect(scale.map((key) => key['@_value'])).toEqual(['1 1', '2.5 2.5']);
  });

  it('keys position in percent of the frame height from the centre, y up', () => {
    const position = keyframes('position');
    expect(position.map((key) => key['@_time'])).toEqual(keyframes('scale').map((key) => key['@_time']));
    expect(position[0]!['@_value']).toBe('0 0');
    const [x, y] = position[1]!['@_value'].split(' ').map(Number) as [number, number];
    // The framing's centre (0.7, 0.4) is 0.2 right of and 0.1 above the picture's: at 250 % that is half the frame's
    // width left (88.89 % of its height on 16:9) and a quarter of its height down.
    expect(x).toBeCloseTo(-((0.5 * 16) / 9) * 100, 3);
    expect(y).toBeCloseTo(-25, 3);
  });
});
