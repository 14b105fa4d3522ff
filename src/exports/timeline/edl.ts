import { oneLine } from '../review-notes.js';
import { rateFacts, timecode } from './frame-rate.js';
import { shotAt, timelineMarkers } from './markers.js';
import { placedShots, type TimelineCut } from './timeline-cut.js';

/**
 * The cut as a CMX 3600 edit decision list, the oldest interchange every editor still imports. The event line is the
 * fixed-column layout OTIO's cmx_3600 writer uses (and Premiere and Avid write): event number in 3 digits, two spaces,
 * the reel padded to 8, the channel padded to 5, the transition, then source in/out and record in/out. Each shot is
 * one event cut from the one animatic and named after the shot, its source timecode counted from the movie's
 * 00:00:00:00 and its record timecode from the sequence's 01:00:00:00.
 */

/**
 * `AX` is the reel name CMX 3600 keeps for a source that is not a tape ("auxiliary"); Premiere writes it for
 * file-based media, and readers find the file by the `FROM CLIP NAME` comment instead (OTIO's reader keeps no AX reel).
 */
const REEL = 'AX';

/**
 * CRLF: the CMX 3600 list is a DOS-era format, and CRLF is what its strictest (older, Windows-based) readers expect;
 * the modern readers (Resolve, Premiere, OTIO's reader, which splits with `splitlines()`) take it as readily as LF.
 */
const EOL = '\r\n';

const TITLE_MAX = 70;
/** A LOC comment's words at most: one line an editor reads in a marker list. */
const NOTE_MAX = 160;

/**
 * EDL text is 7-bit ASCII on one line: accents are stripped, other non-ASCII text and line breaks (which would start a
 * bogus event) dropped, the length bounded, and an empty result named.
 */
function ascii(text: string, max: number, empty: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
  return plain || empty;
}

export function cmx3600Edl(cut: TimelineCut): string {
  const { dropFrame } = rateFacts(cut.rate);
  // "AA/V": the video with both audio channels of the same source (CMX 3600's channel codes, which OTIO's reader maps
  // to V, A1 and A2), so picture and sound stay one event per shot.
  const channel = cut.hasAudio ? 'AA/V' : 'V';
  const lines = [
    `TITLE: ${ascii(cut.title, TITLE_MAX, 'Storyboard')}`,
    `FCM: ${dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`,
  ];
  const placed = placedShots(cut);
  // Review notes as LOC comments (the form Resolve and Avid read as markers) under the event of the shot that holds
  // them, at their first frame in record timecode: a LOC names a point, so a range is marked where it starts.
  const locs = new Map<string, string[]>();
  for (const note of timelineMarkers(cut.notes ?? [], placed, cut.rate)) {
    const shotId = note.shotId ?? shotAt(placed, note.frame)?.id;
    if (shotId === undefined) continue;
    const loc = `* LOC: ${timecode(note.frame, cut.rate)} ${note.color} ${ascii(note.note, NOTE_MAX, 'Review note')}`;
    locs.set(shotId, [...(locs.get(shotId) ?? []), loc]);
  }
  for (const [index, shot] of placed.entries()) {
    // 999 events is the format's limit; a longer board widens the number rather than wrap, as OTIO's writer does.
    const event = String(index + 1).padStart(3, '0');
    const [sourceIn, sourceOut, recordIn, recordOut] = [
      timecode(shot.startFrame, cut.rate, 0),
      timecode(shot.endFrame, cut.rate, 0),
      timecode(shot.startFrame, cut.rate),
      timecode(shot.endFrame, cut.rate),
    ];
    lines.push(
      '',
      `${event}  ${REEL.padEnd(8)} ${channel.padEnd(5)} C        ${sourceIn} ${sourceOut} ${recordIn} ${recordOut}`,
      // The clip's name is the shot, as in the other timelines (editors see it on the clip, and the conform reads
      // it back); the animatic it is cut from is its source file, which OTIO's reader and Resolve take as the media.
      `* FROM CLIP NAME: Shot ${oneLine(shot.number)}`,
      `* SOURCE FILE: ${oneLine(cut.mediaFileName)}`,
      ...(locs.get(shot.id) ?? []),
    );
  }
  return lines.join(EOL) + EOL;
}
