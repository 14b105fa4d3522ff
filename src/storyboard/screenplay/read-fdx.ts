import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ReadScript } from './screenplay.js';
import { ScriptRefused, sceneCollector } from './reading.js';

/**
 * A Final Draft screenplay (`.fdx`, XML), read with fast-xml-parser: `<Paragraph Type="Scene Heading">`, `Action`,
 * `Character`, `Parenthetical`, `Dialogue`, `Transition`, each with its `<Text>` runs joined. XML that is not well
 * formed is refused with the line where it breaks; paragraph types we do not carry (Shot, General, Cast List, …) are
 * reported, never silently dropped.
 */

interface Paragraph {
  '@_Type'?: string;
  '@_Number'?: string | number;
  Text?: Array<string | { '#text'?: string | number }>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  isArray: (name) => name === 'Paragraph' || name === 'Text',
  processEntities: true,
  htmlEntities: false,
  parseTagValue: false,
  trimValues: false,
});

export function readFdx(text: string): ReadScript {
  // Final Draft writes no document type. One here could only declare entities: external ones (a file or a URL the
  // parser would be asked to fetch) or ones that expand past the parser's limit. Both are refused as bad input.
  const doctype = /<!DOCTYPE/i.exec(text);
  if (doctype) {
    const line = text.slice(0, doctype.index).split('\n').length;
    throw new ScriptRefused(
      `The Final Draft file declares a document type (<!DOCTYPE> at line ${line}); Final Draft files have none, and entities are not read.`,
      line,
    );
  }
  const verdict = XMLValidator.validate(text);
  if (verdict !== true)
    throw new ScriptRefused(
      `The Final Draft file is not well-formed XML at line ${verdict.err.line}, column ${verdict.err.col}: ${verdict.err.msg}`,
      verdict.err.line,
    );
  let document: { FinalDraft?: { Content?: { Paragraph?: Paragraph[] } } };
  try {
    document = parser.parse(text) as typeof document;
  } catch (error) {
    // What the validator let through and the parser still refused (its own limits): bad input, never a fault.
    throw new ScriptRefused(`The Final Draft file could not be read: ${(error as Error).message}`, null);
  }
  if (!document.FinalDraft)
    throw new ScriptRefused('This XML is not a Final Draft screenplay: it has no <FinalDraft> element.', 1);
  const script = sceneCollector();
  for (const paragraph of document.FinalDraft.Content?.Paragraph ?? []) {
    const words = (paragraph.Text ?? [])
      .map((run) => (typeof run === 'string' ? run : String(run['#text'] ?? '')))
      .join('')
      .trim();
    const type = paragraph['@_Type'] ?? 'General';
    if (type === 'Scene Heading')
      script.heading(words, paragraph['@_Number'] === undefined ? null : String(paragraph['@_Number']));
    else if (type === 'Action') script.action(words);
    else if (type === 'Character') script.cue(words);
    else if (type === 'Parenthetical') script.parenthetical(words);
    else if (type === 'Dialogue') script.dialogue(words);
    else if (type === 'Transition') script.transition(words);
    else if (words) script.notMapped(`a "${type}" paragraph: "${words.slice(0, 80)}"`);
  }
  return script.result(null);
}
