import { frameRateOf } from './frame-rate.js';
import { isXmlNode, parseTimelineXml, timelineXmlParser, xmlListOf, type XmlNode } from './timeline-xml.js';
import { checkedClips, shotNumberInName, TimelineReadError, type ReadClip, type ReadCut } from './read-cut.js';

/**
 * Final Cut Pro 7 XML (xmeml, as Premiere Pro, DaVinci Resolve, Avid and our writer save it) read back as a cut: the
 * first video track of the first sequence, its clipitems in record order, each as long as its source in to out (a
 * clipitem next to a transition has a record start or end of -1, its source range never does).
 */

type Node = XmlNode;

const LISTS = new Set(['sequence', 'track', 'clipitem', 'transitionitem', 'generatoritem', 'link', 'file']);

const parser = timelineXmlParser(LISTS);
const isNode = isXmlNode;
const textOf = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : isNode(value) ? textOf(value['#text']) : '';
const intOf = (value: unknown): number | null => {
  const text = textOf(value).trim();
  return /^-?\d+$/.test(text) ? Number(text) : null;
};
const listOf = xmlListOf;

/** The first sequence: right under xmeml, or in a project's (or bin's) children. */
function firstSequence(node: Node, depth = 0): Node | null {
  const direct = listOf(node.sequence)[0];
  if (direct) return direct;
  if (depth > 8) return null;
  for (const key of ['project', 'bin', 'children']) {
    for (const child of listOf(node[key])) {
      const found = firstSequence(child, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

export function readFcpXml(text: string): ReadCut {
  const xmeml = parseTimelineXml(parser, text, 'xmeml', 'FCP 7 XML');
  const sequence = firstSequence(xmeml);
  if (!sequence) throw new TimelineReadError('The FCP 7 XML holds no <sequence>.');
  const rateNode = isNode(sequence.rate) ? sequence.rate : {};
  const timebase = intOf(rateNode.timebase);
  const ntsc = textOf(rateNode.ntsc).trim().toUpperCase() === 'TRUE';
  const rate = timebase === null ? null : ntsc ? frameRateOf(timebase * 1000, 1001) : frameRateOf(timebase);
  if (!rate)
    throw new TimelineReadError(
      timebase === null
        ? 'The sequence has no <rate><timebase>.'
        : `The sequence runs at a timebase of ${timebase}${ntsc ? ' (NTSC)' : ''}; a board is cut at 23.976, 24, 25, 29.97 or 30.`,
    );
  const media = isNode(sequence.media) ? sequence.media : {};
  const video = isNode(media.video) ? media.video : {};
  const tracks = listOf(video.track).filter((track) => listOf(track.clipitem).length > 0);
  const notes: string[] = [];
  if (tracks.length === 0) throw new TimelineReadError('The sequence has no clip on a video track.');
  if (tracks.length > 1) notes.push(`The sequence has ${tracks.length} video tracks with clips: the first is the cut.`);
  const track = tracks[0]!;
  if (listOf(track.transitionitem).length > 0)
    notes.push(`${listOf(track.transitionitem).length} transition(s) on the track are read as cuts.`);
  if (listOf(track.generatoritem).length > 0)
    notes.push(`${listOf(track.generatoritem).length} generator item(s) (slugs, titles) are not shots: left out.`);

  const items = listOf(track.clipitem).map((item, index) => {
    const name = textOf(item.name);
    const [start, end, sourceIn, sourceOut] = [intOf(item.start), intOf(item.end), intOf(item.in), intOf(item.out)];
    // The source range is the clip's length even beside a transition, where start or end is -1.
    const frames =
      sourceIn !== null && sourceOut !== null && sourceOut > sourceIn
        ? sourceOut - sourceIn
        : start !== null && end !== null && start >= 0 && end > start
          ? end - start
          : 0;
    return { index, name, start, frames, enabled: textOf(item.enabled).trim().toUpperCase() !== 'FALSE' };
  });
  // Record order: the file's order, unless every clip says where it starts.
  if (items.every((item) => item.start !== null && item.start >= 0))
    items.sort((a, b) => a.start! - b.start! || a.index - b.index);
  const clips: ReadClip[] = [];
  for (const item of items) {
    if (!item.enabled) {
      notes.push(`The clip "${item.name}" is disabled: left out of the cut.`);
      continue;
    }
    if (item.frames < 1) {
      notes.push(`The clip "${item.name}" has no length: left out.`);
      continue;
    }
    clips.push({ name: item.name, shotId: null, shotNumber: shotNumberInName(item.name), frames: item.frames });
  }
  return { format: 'fcp_xml', rate, title: textOf(sequence.name) || null, clips: checkedClips(clips), notes };
}
