import { XMLParser } from 'fast-xml-parser';
import { refuseEntities, TimelineReadError } from './read-cut.js';

/**
 * The XML the editors' timelines are written in (FCP 7 XML, FCPXML), read the one way both readers need: entities
 * refused before parsing, tag values left as text, the elements that repeat always read as lists, and a root element
 * that says which format the file is.
 */

export type XmlNode = Record<string, unknown>;

export const isXmlNode = (value: unknown): value is XmlNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const xmlListOf = (value: unknown): XmlNode[] =>
  Array.isArray(value) ? value.filter(isXmlNode) : isXmlNode(value) ? [value] : [];

/** A parser whose `lists` elements are always arrays; attributes keep `attributePrefix` before their names. */
export function timelineXmlParser(lists: ReadonlySet<string>, attributePrefix = '@_'): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: attributePrefix,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
    // Attributes are never lists (FCPXML's `format` is both an element and an attribute of a sequence).
    isArray: (name, _path, _leaf, isAttribute) => !isAttribute && lists.has(name),
  });
}

/** The file's `root` element, or a refusal naming the format it is not (`format`: "FCP 7 XML", "FCPXML"). */
export function parseTimelineXml(parser: XMLParser, text: string, root: string, format: string): XmlNode {
  refuseEntities(text);
  let document: XmlNode;
  try {
    document = parser.parse(text, true) as XmlNode;
  } catch (error) {
    throw new TimelineReadError(`The file is not well-formed XML: ${(error as Error).message}`);
  }
  const element = document[root];
  if (!isXmlNode(element)) throw new TimelineReadError(`The file is XML but not ${format}: it has no <${root}> root.`);
  return element;
}
