import { Fountain, Lexer, rules } from 'fountain-js';
import type { ReadScript } from './screenplay.js';
import { sceneCollector } from './reading.js';
import { screenplayText } from './script-text.js';

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
  const script = sceneCollector();
  let title: string | null = null;
  for (const [index, part] of sceneParts(screenplayText(text)).entries()) {
    const parsed = new Fountain().parse(part, true) as { title?: string; tokens?: Token[] };
    if (index === 0 && parsed.title) title = plain(parsed.title) || null;
    for (const token of parsed.tokens ?? []) collect(script, token);
  }
  return script.result(title);
}

function collect(script: ReturnType<typeof sceneCollector>, token: Token): void {
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

/**
 * The script in parts that fountain-js reads one at a time: the title page and what comes before the first scene,
 * then one part per scene, each starting at its heading. fountain-js's work grows with the square of what it reads at
 * once (it builds its token list by copying; 400 scenes of dialogue took 17.6 s whole and 0.27 s a scene at a time),
 * and nothing in Fountain reaches across a scene heading but a boneyard (`/* … *\/`), which is taken out first,
 * exactly as fountain-js would.
 */
export function sceneParts(text: string): string[] {
  const lines = withoutBoneyard(text).split('\n');
  const blank = (line: string | undefined) => line === undefined || (line.trim() === '' && line !== '  ');
  const parts: string[] = [];
  let start = 0;
  for (let index = 1; index < lines.length; index += 1) {
    // A heading is a line of its own, with a blank line before and after it (fountain-js reads blocks between
    // blank lines, and a heading is a block of one line).
    if (blank(lines[index - 1]) && blank(lines[index + 1]) && rules.scene_heading.test(lines[index]!)) {
      parts.push(lines.slice(start, index).join('\n'));
      start = index;
    }
  }
  parts.push(lines.slice(start).join('\n'));
  return parts.filter((part, index) => index === 0 || part.trim() !== '');
}

/** Boneyards removed as fountain-js removes them (its own stripper decides what each leaves), in linear time. */
function withoutBoneyard(text: string): string {
  let kept = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('/*', from);
    if (open < 0) break;
    const close = text.indexOf('*/', open + 2);
    if (close < 0) break;
    kept += text.slice(from, open) + Lexer.boneyardStripper(text.slice(open, close + 2));
    from = close + 2;
  }
  return kept + text.slice(from);
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
