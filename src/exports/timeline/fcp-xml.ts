import { XMLBuilder } from 'fast-xml-parser';
import { rateFacts, timecode, timecodeStartFrame } from './frame-rate.js';
import { placedShots, totalFrames, type PlacedShot, type TimelineCut } from './timeline-cut.js';
import { clipMotion, rounded } from './clip-motion.js';
import { timelineMarkers, type TimelineMarker } from './markers.js';

/**
 * The cut as Final Cut Pro 7 XML (xmeml version 4), the interchange Premiere Pro, DaVinci Resolve and Avid still
 * import. The shape follows what Premiere itself writes (OpenTimelineIO's otio-fcp-adapter keeps such a file as
 * tests/sample_data/premiere_example.xml) and what OTIO's FCP 7 reader needs: every clipitem carries its `<rate>`,
 * record `<start>`/`<end>` and source `<in>`/`<out>` in frames of the sequence's timebase; the one `<file>` is
 * defined in full in the first clipitem and referred to by id after. Text goes through fast-xml-parser's builder, which
 * escapes it, so a title with `&`, `<` or quotes stays well-formed.
 */

type Xml = string | number | Xml[] | { [key: string]: Xml };

const FILE_ID = 'file-1';

/** XML 1.0 cannot carry most control characters, even escaped: a stray one in a title would make the file unreadable. */
const text = (value: string) => value.replace(/(?![\t\n\r])[\p{Cc}\uFFFE\uFFFF]/gu, '');

/**
 * A shot's camera move as the clip's Basic Motion filter: Scale (percent) and Center keyframes from the clip's in to
 * its last frame (`when` in the clip's source frames). Center is the picture's centre from the frame's centre in
 * fractions of the frame, as Premiere writes it. The filter is written switched off: the clip plays the animatic,
 * where the move is already in the picture; an editor who relinks the clip to the shot's still switches it on.
 */
function basicMotion(shot: PlacedShot): Xml {
  const keyframes = clipMotion(shot.move!, shot.frames);
  const when = (frame: number) => shot.startFrame + frame;
  return {
    enabled: 'FALSE',
    start: -1,
    end: -1,
    effect: {
      name: 'Basic Motion',
      effectid: 'basic',
      effectcategory: 'motion',
      effecttype: 'motion',
      mediatype: 'video',
      parameter: [
        {
          parameterid: 'scale',
          name: 'Scale',
          valuemin: 0,
          valuemax: 1000,
          value: rounded(keyframes[0]!.scale * 100),
          keyframe: keyframes.map((key) => ({ when: when(key.frame), value: rounded(key.scale * 100) })),
        },
        {
          parameterid: 'center',
          name: 'Center',
          value: { horiz: rounded(keyframes[0]!.offsetX), vert: rounded(keyframes[0]!.offsetY) },
          keyframe: keyframes.map((key) => ({
            when: when(key.frame),
            value: { horiz: rounded(key.offsetX), vert: rounded(key.offsetY) },
          })),
        },
      ],
    },
  };
}

export function fcpXml(cut: TimelineCut): string {
  const { timebase, ntsc, dropFrame } = rateFacts(cut.rate);
  const rate = { timebase, ntsc: ntsc ? 'TRUE' : 'FALSE' };
  const placed = placedShots(cut);
  const duration = totalFrames(placed);
  const mediaName = text(cut.mediaFileName);

  // Where the sequence (or the file) starts: the timecode string and the frame count it stands for, which readers use.
  const timecodeOf = (startHour: number): Xml => ({
    rate,
    string: timecode(0, cut.rate, startHour),
    frame: timecodeStartFrame(cut.rate, startHour),
    displayformat: dropFrame ? 'DF' : 'NDF',
  });

  const file: Xml = {
    '@_id': FILE_ID,
    name: mediaName,
    // Relative to the XML, as Storyboarder's exporter writes it: editors keep the animatic beside the timeline file
    // (or relink it once); an absolute path of our server would mean nothing on theirs.
    pathurl: `./${encodeURIComponent(mediaName)}`,
    rate,
    duration,
    timecode: timecodeOf(0),
    media: {
      video: { samplecharacteristics: { rate } },
      // The animatic's sound is one stereo mix.
      ...(cut.hasAudio ? { audio: { channelcount: 2 } } : {}),
    },
  };

  // Review notes as markers: a clipitem's in the animatic's (source) frames, which its in/out count in; the sequence's
  // from its first frame. Both are the same frame numbers: a clip's in is its start. A point marker's out is -1.
  const markers = timelineMarkers(cut.notes ?? [], placed, cut.rate);
  const marker = (note: TimelineMarker): Xml => ({
    name: text(note.name),
    comment: text(note.note),
    in: note.frame,
    out: note.frames === 0 ? -1 : note.frame + note.frames,
  });
  /** `{marker: [...]}` for the notes an item holds (a shot's clip, or the sequence: null), else nothing. */
  const markersOn = (shotId: string | null): { marker?: Xml[] } => {
    const list = markers.filter((note) => note.shotId === shotId).map(marker);
    return list.length > 0 ? { marker: list } : {};
  };

  const clipId = (kind: 'video' | 'audio', index: number) => `clipitem-${kind === 'video' ? 'v' : 'a'}${index + 1}`;
  const clipitems = (kind: 'video' | 'audio'): Xml[] =>
    placed.map((shot, index) => ({
      '@_id': clipId(kind, index),
      // Premiere's mark of a clip carrying both channels of the stereo mix (Storyboarder writes it too); others ignore it.
      ...(kind === 'audio' ? { '@_premiereChannelType': 'stereo' } : {}),
      name: text(`Shot ${shot.number}`),
      enabled: 'TRUE',
      // FCP 7's clipitem duration is the whole source media's, not the clip's (the clip's is end − start).
      duration,
      rate,
      start: shot.startFrame,
      end: shot.endFrame,
      in: shot.startFrame,
      out: shot.endFrame,
      file: kind === 'video' && index === 0 ? file : { '@_id': FILE_ID },
      ...(kind === 'video' && shot.move ? { filter: basicMotion(shot) } : {}),
      // The notes mark the picture: on the video clipitems, not again on the sound's.
      ...(kind === 'video' ? markersOn(shot.id) : {}),
      ...(kind === 'audio' ? { sourcetrack: { mediatype: 'audio', trackindex: 1 } } : {}),
      // A shot's picture and sound move together in the editor, as the two halves of one clip.
      ...(cut.hasAudio
        ? {
            link: (['video', 'audio'] as const).map((mediatype) => ({
              linkclipref: clipId(mediatype, index),
              mediatype,
              trackindex: 1,
              clipindex: index + 1,
              ...(mediatype === 'audio' ? { groupindex: 1 } : {}),
            })),
          }
        : {}),
    }));

  const track = (kind: 'video' | 'audio'): Xml => ({ clipitem: clipitems(kind), enabled: 'TRUE', locked: 'FALSE' });

  const sequence: Xml = {
    '@_id': 'sequence-1',
    name: text(cut.title),
    duration,
    rate,
    // Record timecode starts at 01:00:00:00 (frame-rate.ts says why), as the OTIO file and the EDL do.
    timecode: timecodeOf(1),
    media: {
      // Without a <format> right inside <video>, DaVinci Resolve loads no timeline from the file (OTIO's FCP XML
      // adapter adds one for the same reason).
      video: { format: { samplecharacteristics: { rate } }, track: track('video') },
      ...(cut.hasAudio ? { audio: { track: track('audio') } } : {}),
    },
    ...markersOn(null),
  };

  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, indentBy: '  ', suppressEmptyNode: true });
  // The declaration and doctype hold no data of ours; the builder has no doctype node to write them with.
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE xmeml>\n${builder.build({ xmeml: { '@_version': '4', sequence } })}`;
}
