import { Fountain } from 'fountain-js';
import type { ReadScript } from './screenplay.js';
import { ScriptRefused, sceneCollector } from './reading.js';

/**
 * A Fountain screenplay (fountain.io; plain text in screenplay form is Fountain too), read with fountain-js: scene
 * headings, action, character cues with their dialogue and parentheticals, transitions. Notes, sections, synopses and
 * page breaks are reported as not carried over; the boneyard (`/* … *\/`) is left out, as Fountain means.
 */

interface Token {
  type: string;
  text?: string;
  scene_number?: string | number;
}

export function readFountain(text: string): ReadScript {
  const nul = text.indexOf('\u0000');
  if (nul >= 0)
    throw new ScriptRefused(
      `This is not a text file: line ${text.slice(0, nul).split('\n').length} holds a binary byte.`,
      text.slice(0, nul).split('\n').length,
    );
  const parsed = new Fountain().parse(text, true) as { title?: string; tokens?: Token[] };
  const script = sceneCollector();
  for (const token of parsed.tokens ?? []) {
    const words = plain(token.text ?? '');
    switch (token.type) {
      case 'scene_heading':
        script.heading(words, token.scene_number === undefined ? null : String(token.scene_number));
        break;
      case 'action':
      case 'centered':
        script.action(words);
        break;
      case 'character':
        script.cue(words);
        break;
      case 'parenthetical':
        script.parenthetical(words);
        break;
      case 'dialogue':
        script.dialogue(words);
        break;
      case 'transition':
        script.transition(words);
        break;
      case 'note':
      case 'section':
      case 'synopsis':
        script.notMapped(`a ${token.type}: "${words.slice(0, 80)}"`);
        break;
      default:
        break;
    }
  }
  return script.result(parsed.title ? plain(parsed.title) || null : null);
}

/** fountain-js hands over text with its emphasis as HTML: the words alone, one space where it broke lines. */
function plain(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}
