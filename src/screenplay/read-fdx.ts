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
  const verdict = XMLValidator.validate(text);
  if (verdict !== true)
    throw new ScriptRefused(
      `The Final Draft file is not well-formed XML at line ${verdict.err.line}, column ${verdict.err.col}: ${verdict.err.msg}`,
      verdict.err.line,
    );
  const document = parser.parse(text) as { FinalDraft?: { Content?: { Paragraph?: Paragraph[] } } };
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
