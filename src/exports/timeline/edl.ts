import { rateFacts, timecode } from './frame-rate.js';
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

/** EDL headers are 7-bit ASCII: accents are stripped, other non-ASCII text dropped, and an empty result named. */
function asciiTitle(title: string): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, TITLE_MAX)
    .trim();
  return ascii || 'Storyboard';
}

/** A comment is one line: a line break in a name would start a bogus event. */
const oneLine = (value: string) => value.replace(/\p{Cc}+/gu, ' ').trim();

export function cmx3600Edl(cut: TimelineCut): string {
  const { dropFrame } = rateFacts(cut.rate);
  // "AA/V": the video with both audio channels of the same source (CMX 3600's channel codes, which OTIO's reader maps
  // to V, A1 and A2), so picture and sound stay one event per shot.
  const channel = cut.hasAudio ? 'AA/V' : 'V';
  const lines = [`TITLE: ${asciiTitle(cut.title)}`, `FCM: ${dropFrame ? 'DROP FRAME' : 'NON-DROP FRAME'}`];
  for (const [index, shot] of placedShots(cut).entries()) {
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
    );
  }
  return lines.join(EOL) + EOL;
}
