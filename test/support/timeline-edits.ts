import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import type { FrameRate } from '../../src/contract/exports.js';
import { frameOfTimecode, timecode } from '../../src/exports/timeline/frame-rate.js';

/**
 * What an editor does to a cut in Premiere, Resolve or Final Cut, done to the timeline file's text: trim a clip,
 * swap two, drop one, the clips after each edit rippling up as in the editor's own timeline. XML is edited through
 * @xmldom/xmldom's DOM (a parser other than the fast-xml-parser our readers and writers use), so the edited file is
 * what another tool would write, not what our own code expects.
 */

export type Edit =
  | { trim: number; by: number } // the clip at this index (0-based) becomes `by` frames shorter (negative: longer)
  | { swap: [number, number] }
  | { drop: number };

/** The edits applied to a list of clips with their lengths (indices as the list is when each edit runs). */
function edited<T>(items: T[], lengths: number[], edits: readonly Edit[]): Array<{ item: T; length: number }> {
  const list = items.map((item, index) => ({ item, length: lengths[index]! }));
  for (const edit of edits) {
    if ('trim' in edit) list[edit.trim]!.length -= edit.by;
    else if ('swap' in edit) {
      const [a, b] = edit.swap;
      [list[a], list[b]] = [list[b]!, list[a]!];
    } else list.splice(edit.drop, 1);
  }
  return list;
}

const children = (parent: Element, name: string): Element[] =>
  Array.from(parent.childNodes).filter((node): node is Element => node.nodeType === 1 && node.nodeName === name);
const child = (parent: Element, name: string): Element => {
  const found = children(parent, name)[0];
  if (!found) throw new Error(`no <${name}> in <${parent.nodeName}>`);
  return found;
};
const numberIn = (parent: Element, name: string) => Number(child(parent, name).textContent);
const setNumber = (parent: Element, name: string, value: number) => {
  child(parent, name).textContent = String(value);
};

/** FCP 7 XML: every track's clipitems (picture and sound alike) edited, record times rippled, the sequence shortened. */
export function editFcpXml(text: string, edits: readonly Edit[]): string {
  const document = new DOMParser().parseFromString(text, 'text/xml');
  const sequence = document.getElementsByTagName('sequence')[0]!;
  const media = child(sequence, 'media');
  let total = 0;
  for (const kind of ['video', 'audio']) {
    for (const track of children(media, kind).flatMap((each) => children(each, 'track'))) {
      const items = children(track, 'clipitem');
      const lengths = items.map((item) => numberIn(item, 'out') - numberIn(item, 'in'));
      const next = edited(items, lengths, edits);
      for (const item of items) track.removeChild(item);
      const anchor = track.firstChild;
      let start = 0;
      for (const { item, length } of next) {
        setNumber(item, 'start', start);
        setNumber(item, 'end', start + length);
        setNumber(item, 'out', numberIn(item, 'in') + length);
        start += length;
        track.insertBefore(item, anchor);
      }
      total = start;
    }
  }
  setNumber(sequence, 'duration', total);
  return new XMLSerializer().serializeToString(document);
}

/** A rational time as a fraction; and back, over a fixed denominator. */
const rational = (value: string) => {
  const [top, bottom = '1'] = value.replace(/s$/, '').split('/');
  return { top: BigInt(top!), bottom: BigInt(bottom) };
};

/** FCPXML: the spine's clips edited, their offsets rippled from the sequence's start. */
export function editFcpxml(text: string, edits: readonly Edit[]): string {
  const document = new DOMParser().parseFromString(text, 'text/xml');
  const format = document.getElementsByTagName('format')[0]!;
  const frame = rational(format.getAttribute('frameDuration')!);
  const sequence = document.getElementsByTagName('sequence')[0]!;
  const spine = child(sequence, 'spine');
  const items = children(spine, 'asset-clip');
  // Lengths in frames: duration ÷ frame duration.
  const framesOf = (value: string) => {
    const time = rational(value);
    return Number((time.top * frame.bottom) / (time.bottom * frame.top));
  };
  const timeOf = (frames: bigint) => `${frames * frame.top}/${frame.bottom}s`;
  const next = edited(
    items,
    items.map((item) => framesOf(item.getAttribute('duration')!)),
    edits,
  );
  for (const item of items) spine.removeChild(item);
  let at = BigInt(framesOf(sequence.getAttribute('tcStart')!));
  for (const { item, length } of next) {
    item.setAttribute('offset', timeOf(at));
    item.setAttribute('duration', timeOf(BigInt(length)));
    at += BigInt(length);
    spine.appendChild(item);
  }
  return new XMLSerializer().serializeToString(document);
}

interface OtioTrack {
  kind: string;
  children: Array<{ source_range: { duration: { value: number } } }>;
}

/** OTIO: each track's clips edited (a clip's place is its index in its track: nothing to ripple). */
export function editOtio(text: string, edits: readonly Edit[]): string {
  const timeline = JSON.parse(text) as { tracks: { children: OtioTrack[] } };
  for (const track of timeline.tracks.children) {
    const next = edited(
      track.children,
      track.children.map((clip) => clip.source_range.duration.value),
      edits,
    );
    track.children = next.map(({ item, length }) => {
      item.source_range.duration.value = length;
      return item;
    });
  }
  return `${JSON.stringify(timeline, null, 4)}\n`;
}

/** A CMX 3600 EDL: events edited with their comment lines, record timecodes rippled, events renumbered. */
export function editEdl(text: string, edits: readonly Edit[], rate: FrameRate): string {
  const lines = text.split('\r\n');
  const first = lines.findIndex((line) => /^\d{3}\s/.test(line));
  const header = lines.slice(0, first);
  const blocks: string[][] = [];
  for (const line of lines.slice(first)) {
    if (/^\d{3}\s/.test(line)) blocks.push([line]);
    else if (line.startsWith('*')) blocks.at(-1)!.push(line);
  }
  const fields = (line: string) => line.split(/\s+/);
  const lengths = blocks.map((block) => {
    const parts = fields(block[0]!);
    return frameOfTimecode(parts.at(-1)!, rate)! - frameOfTimecode(parts.at(-2)!, rate)!;
  });
  const next = edited(blocks, lengths, edits);
  let record = 0;
  const out = [...header];
  for (const [index, { item, length }] of next.entries()) {
    const parts = fields(item[0]!);
    const [sourceIn] = parts.slice(-4);
    const sourceStart = frameOfTimecode(sourceIn!, rate, 0)!;
    const head = item[0]!.slice(3, item[0]!.length - (4 * 11 + 3));
    out.push(
      '',
      `${String(index + 1).padStart(3, '0')}${head}${[
        timecode(sourceStart, rate, 0),
        timecode(sourceStart + length, rate, 0),
        timecode(record, rate),
        timecode(record + length, rate),
      ].join(' ')}`,
      ...item.slice(1),
    );
    record += length;
  }
  return out.join('\r\n') + '\r\n';
}
