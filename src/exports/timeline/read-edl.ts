import type { FrameRate } from '../../contract/exports.js';
import { frameOfTimecode } from './frame-rate.js';
import { checkedClips, shotNumberInName, TimelineReadError, type ReadClip, type ReadCut } from './read-cut.js';

/**
 * A CMX 3600 edit decision list read back as a cut: each picture event with a length on the record side, in record
 * order, named by its `* FROM CLIP NAME:` comment (ours carries "Shot 2A"; our EDLs before that carried the shot in
 * `* COMMENT: Shot 2A`). An EDL does not say its rate: the caller's, else 29.97 when it says DROP FRAME, else 24.
 */

const TIMECODE = String.raw`\d{2}:\d{2}:\d{2}[:;.,]\d{2}`;
/** Event, reel, channel, transition (C, D, Wnnn, K…) with its optional length, then the four timecodes. */
const EVENT = new RegExp(
  String.raw`^(\d{1,6})\s+(\S+)\s+(\S+)\s+(C|D|W\d{3}|K[BO]?)\s+(?:\d{1,3}\s+)?(${TIMECODE})\s+(${TIMECODE})\s+(${TIMECODE})\s+(${TIMECODE})\s*$`,
);

interface Event {
  line: number;
  channel: string;
  recordIn: number;
  recordOut: number;
  clipName: string | null;
  comment: string | null;
}

export function readEdl(text: string, chosenRate?: FrameRate): ReadCut {
  const lines = text.split(/\r\n|\r|\n/);
  const title = lines
    .map((line) => /^TITLE:\s*(.*)$/.exec(line.trim())?.[1]?.trim())
    .find((value) => value !== undefined);
  const fcm = lines.map((line) => /^FCM:\s*(.*)$/.exec(line.trim())?.[1]?.trim().toUpperCase()).find(Boolean);
  const rate: FrameRate = chosenRate ?? (fcm === 'DROP FRAME' ? '29.97' : '24');
  const notes: string[] = [];
  const events: Event[] = [];
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const event = EVENT.exec(line);
    if (event) {
      const recordIn = frameOfTimecode(event[7]!, rate);
      const recordOut = frameOfTimecode(event[8]!, rate);
      if (recordIn === null || recordOut === null)
        throw new TimelineReadError(`Line ${index + 1} of the EDL holds a timecode that is not one at ${rate} fps.`);
      events.push({ line: index + 1, channel: event[3]!, recordIn, recordOut, clipName: null, comment: null });
      continue;
    }
    const last = events.at(-1);
    const clipName = /^\*\s*FROM CLIP NAME:\s*(.*)$/i.exec(line)?.[1]?.trim();
    if (last && clipName !== undefined) last.clipName ??= clipName;
    const comment = /^\*\s*COMMENT:\s*(.*)$/i.exec(line)?.[1]?.trim();
    if (last && comment !== undefined) last.comment ??= comment;
  }
  if (events.length === 0)
    throw new TimelineReadError(
      title !== undefined
        ? 'The EDL has no event line (001  AX  V  C  00:00:00:00 …).'
        : 'The file is not a timeline: not OTIO JSON, FCP 7 XML, FCPXML or a CMX 3600 EDL.',
    );
  const picture = events.filter((event) => /V/i.test(event.channel));
  const soundOnly = events.length - picture.length;
  if (soundOnly > 0) notes.push(`${soundOnly} sound-only event(s) are not shots: left out.`);
  picture.sort((a, b) => a.recordIn - b.recordIn || a.line - b.line);
  const clips: ReadClip[] = [];
  for (const event of picture) {
    const frames = event.recordOut - event.recordIn;
    // A dissolve is written as the outgoing clip held for no time, then the incoming one: the empty line is no shot.
    if (frames <= 0) continue;
    const name = event.clipName ?? event.comment ?? '';
    const shotNumber =
      (event.clipName !== null ? shotNumberInName(event.clipName) : null) ??
      (event.comment !== null ? shotNumberInName(event.comment) : null);
    clips.push({ name, shotId: null, shotNumber, frames });
  }
  return { format: 'edl', rate, title: title ?? null, clips: checkedClips(clips), notes };
}
