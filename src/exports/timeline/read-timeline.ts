import type { FrameRate } from '../../contract/exports.js';
import { readEdl } from './read-edl.js';
import { readFcpXml } from './read-fcp-xml.js';
import { readFcpxml } from './read-fcpxml.js';
import { readOtio } from './read-otio.js';
import { TimelineReadError, type ReadCut } from './read-cut.js';

/**
 * Any of the four timeline formats read as a cut, the format told by the text itself rather than the file's name (an
 * FCP 7 XML and an FCPXML both end in .xml as often as not): JSON is OTIO, XML is told by its root element, and the
 * rest is read as an EDL.
 */
export function readTimeline(text: string, edlRate?: FrameRate): ReadCut {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.length === 0) throw new TimelineReadError('The file is empty.');
  if (body.startsWith('{') || body.startsWith('[')) return readOtio(body);
  if (body.startsWith('<')) {
    const root = /<(?![?!])([A-Za-z_][\w.-]*)/.exec(body)?.[1];
    if (root === 'xmeml') return readFcpXml(body);
    if (root === 'fcpxml') return readFcpxml(body);
    throw new TimelineReadError(
      `The file is XML but not a timeline: its root is <${root ?? '?'}>, not <xmeml> (FCP 7 XML) or <fcpxml> (FCPXML).`,
    );
  }
  return readEdl(body, edlRate);
}
