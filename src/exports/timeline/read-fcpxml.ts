import { frameRateOf } from './frame-rate.js';
import { isXmlNode, parseTimelineXml, timelineXmlParser, xmlListOf, type XmlNode } from './timeline-xml.js';
import { checkedClips, shotNumberInName, TimelineReadError, type ReadClip, type ReadCut } from './read-cut.js';
import { SHOT_ID_KEY } from './fcpxml.js';

/**
 * FCPXML (Final Cut Pro 10 and 11, any 1.x version; DaVinci Resolve writes it too) read back as a cut: the first
 * project's sequence, its spine's clips ordered by their offsets, each as long as its `duration` (rational seconds,
 * "1001/24000s"), counted in frames of the sequence's format. Our clips carry the shot's id in their metadata.
 */

type Node = XmlNode;

const CLIPS = ['asset-clip', 'clip', 'ref-clip', 'sync-clip', 'mc-clip', 'video'] as const;
const OTHERS = ['gap', 'transition', 'title', 'audio'] as const;
const LISTS = new Set<string>([...CLIPS, ...OTHERS, 'event', 'project', 'format', 'md', 'library', 'spine']);

const parser = timelineXmlParser(LISTS, '');
const isNode = isXmlNode;
const listOf = xmlListOf;
const attr = (node: Node, name: string): string => (typeof node[name] === 'string' ? (node[name] as string) : '');

/** A rational time ("1001/24000s", "5s", "0s") as a fraction of whole numbers; null when it is not one. */
export function rationalSeconds(text: string): { numerator: bigint; denominator: bigint } | null {
  const match = /^(\d+)(?:\/(\d+))?s$/.exec(text.trim());
  if (!match) return null;
  const denominator = BigInt(match[2] ?? '1');
  return denominator === 0n ? null : { numerator: BigInt(match[1]!), denominator };
}

/** The first project's sequence, under library/event (1.5 on) or right under fcpxml (1.0 to 1.4). */
function firstSequence(fcpxml: Node): Node | null {
  const projects = [
    ...listOf(fcpxml.project),
    ...listOf(fcpxml.event).flatMap((event) => listOf(event.project)),
    ...listOf(fcpxml.library).flatMap((library) => listOf(library.event).flatMap((event) => listOf(event.project))),
  ];
  for (const project of projects) {
    const sequence = listOf(project.sequence)[0];
    if (sequence) return sequence;
  }
  return null;
}

export function readFcpxml(text: string): ReadCut {
  const fcpxml = parseTimelineXml(parser, text, 'fcpxml', 'FCPXML');
  const sequence = firstSequence(fcpxml);
  if (!sequence) throw new TimelineReadError('The FCPXML holds no project with a <sequence>.');
  const resources = isNode(fcpxml.resources) ? fcpxml.resources : {};
  const format = listOf(resources.format).find((each) => attr(each, 'id') === attr(sequence, 'format'));
  const frame = format ? rationalSeconds(attr(format, 'frameDuration')) : null;
  if (!frame || frame.numerator === 0n)
    throw new TimelineReadError(`The sequence's format (${attr(sequence, 'format') || 'none'}) has no frameDuration.`);
  // A frame lasts numerator/denominator seconds: the rate is its inverse.
  const rate = frameRateOf(Number(frame.denominator), Number(frame.numerator));
  if (!rate)
    throw new TimelineReadError(
      `The sequence's frames last ${attr(format!, 'frameDuration')}; a board is cut at 23.976, 24, 25, 29.97 or 30.`,
    );
  const spine = listOf(sequence.spine)[0];
  if (!spine) throw new TimelineReadError('The sequence has no spine.');
  const notes: string[] = [];
  const gaps = listOf(spine.gap).length;
  if (gaps > 0) notes.push(`${gaps} gap(s) on the spine are not shots: left out.`);
  const transitions = listOf(spine.transition).length;
  if (transitions > 0) notes.push(`${transitions} transition(s) on the spine are read as cuts.`);
  const titles = listOf(spine.title).length;
  if (titles > 0) notes.push(`${titles} title(s) on the spine are not shots: left out.`);

  /** Frames of the sequence's rate in a rational time: seconds ÷ frame duration, exact in integers. */
  const framesIn = (time: { numerator: bigint; denominator: bigint }) => {
    const over = time.numerator * frame.denominator;
    const under = time.denominator * frame.numerator;
    return { whole: over / under, exact: over % under === 0n, value: Number(over) / Number(under) };
  };

  const items = CLIPS.flatMap((tag) =>
    listOf(spine[tag]).map((clip) => ({
      clip,
      offset: rationalSeconds(attr(clip, 'offset')),
      duration: rationalSeconds(attr(clip, 'duration')),
    })),
  );
  const ordered = items
    .filter((item) => item.offset !== null)
    .sort((a, b) => {
      const left = a.offset!.numerator * b.offset!.denominator;
      const right = b.offset!.numerator * a.offset!.denominator;
      return left < right ? -1 : left > right ? 1 : 0;
    });
  const clips: ReadClip[] = [];
  for (const { clip, duration } of ordered) {
    const name = attr(clip, 'name');
    if (!duration) {
      notes.push(`The clip "${name}" has no duration: left out.`);
      continue;
    }
    const counted = framesIn(duration);
    const frames = counted.exact ? Number(counted.whole) : Math.round(counted.value);
    if (!counted.exact) notes.push(`The clip "${name}" is ${counted.value.toFixed(3)} frames long: read as ${frames}.`);
    if (frames < 1) {
      notes.push(`The clip "${name}" has no frames: left out.`);
      continue;
    }
    const metadata = isNode(clip.metadata) ? clip.metadata : {};
    const idEntry = listOf(metadata.md).find((md) => attr(md, 'key') === SHOT_ID_KEY);
    clips.push({
      name,
      shotId: idEntry ? attr(idEntry, 'value') || null : null,
      shotNumber: shotNumberInName(name),
      frames,
    });
  }
  return { format: 'fcpxml', rate, title: attr(sequence, 'name') || null, clips: checkedClips(clips), notes };
}
