import { framesPerSecond, timecodeStartFrame } from './frame-rate.js';
import { timelineMarkers, type TimelineMarker } from './markers.js';
import { placedShots, totalFrames, type TimelineCut } from './timeline-cut.js';

/**
 * The cut as OpenTimelineIO JSON (`.otio`), the fields and nesting OTIO's own serializer writes
 * (src/opentimelineio/*.cpp `write_to`; tests/sample_data/*.otio). Clips are `Clip.2` (OTIO 0.15 on): a map of media
 * references and the key of the active one, where `Clip.1` had a single `media_reference`. Fields OTIO reads only "if
 * present" and that we would leave at their default (an item's `color`, a reference's `available_image_bounds`) are
 * left out, so older readers that predate them take the file too.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where this app keeps its own fields in OTIO metadata: a namespace of its own, as OTIO's adapters do. */
const METADATA_KEY = 'canvas-mcp';

export function otioTimeline(cut: TimelineCut): string {
  const rate = framesPerSecond(cut.rate);
  const time = (value: number): Json => ({ OTIO_SCHEMA: 'RationalTime.1', rate, value });
  const range = (start: number, duration: number): Json => ({
    OTIO_SCHEMA: 'TimeRange.1',
    duration: time(duration),
    start_time: time(start),
  });
  const placed = placedShots(cut);
  // The animatic starts at frame 0 (its own timecode 00:00:00:00), so a shot's source range is its place in the cut.
  const mediaRange = range(0, totalFrames(placed));

  const external = (name: string, url: string, available: Json): Json => ({
    OTIO_SCHEMA: 'ExternalReference.1',
    metadata: {},
    name,
    available_range: available,
    target_url: url,
  });
  const pictures = new Map(cut.shots.map((shot) => [shot.id, shot.pictureUrl ?? null]));

  // A marker's range is in its item's time: a clip's source time (the animatic's frames, where its source range
  // starts at the shot's first frame) or the track's (from the cut's first frame): the same frame numbers here.
  const markers = timelineMarkers(cut.notes ?? [], placed, cut.rate);
  const marker = (note: TimelineMarker): Json => ({
    OTIO_SCHEMA: 'Marker.2',
    metadata: {
      [METADATA_KEY]: {
        comment_id: note.commentId,
        thread_id: note.threadId,
        author: note.author,
        audience: note.audience,
      },
    },
    name: note.name,
    color: note.color,
    marked_range: range(note.frame, note.frames),
    comment: note.note,
  });
  const markersOn = (shotId: string | null): Json[] => markers.filter((note) => note.shotId === shotId).map(marker);

  // The notes mark the picture: on the video track's clips and the video track, not again on the sound's.
  const clips = (kind: 'Video' | 'Audio'): Json[] =>
    placed.map((shot) => ({
      OTIO_SCHEMA: 'Clip.2',
      metadata: { [METADATA_KEY]: { shot_id: shot.id, number: shot.number } },
      name: `Shot ${shot.number}`,
      source_range: range(shot.startFrame, shot.frames),
      effects: [],
      markers: kind === 'Video' ? markersOn(shot.id) : [],
      enabled: true,
      media_references: {
        DEFAULT_MEDIA: external(cut.mediaFileName, cut.mediaUrl ?? cut.mediaFileName, mediaRange),
        // In a bundle, the shot's own picture too, as a second reference an editor can switch the clip to.
        ...(pictures.get(shot.id) ? { picture: external(`Shot ${shot.number}`, pictures.get(shot.id)!, null) } : {}),
      },
      active_media_reference_key: 'DEFAULT_MEDIA',
    }));

  const track = (name: string, kind: 'Video' | 'Audio'): Json => ({
    OTIO_SCHEMA: 'Track.1',
    metadata: {},
    name,
    source_range: null,
    effects: [],
    markers: kind === 'Video' ? markersOn(null) : [],
    enabled: true,
    children: clips(kind),
    kind,
  });

  const timeline: Json = {
    OTIO_SCHEMA: 'Timeline.1',
    metadata: {},
    name: cut.title,
    // Record timecode 01:00:00:00, as the FCP XML and EDL start; OTIO reads it back as the timeline's timecode.
    global_start_time: time(timecodeStartFrame(cut.rate)),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      metadata: {},
      name: 'tracks',
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      children: cut.hasAudio ? [track('V1', 'Video'), track('A1', 'Audio')] : [track('V1', 'Video')],
    },
  };
  return `${JSON.stringify(timeline, null, 4)}\n`;
}
