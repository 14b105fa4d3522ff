import type { ReadScene, ReadScript } from './screenplay.js';

/** A script that cannot be read, with the line where reading failed when known. */
export class ScriptRefused extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
    this.name = 'ScriptRefused';
  }
}

/**
 * A character cue split in two: MARA (V.O.) and MARA (CONT'D) are Mara speaking (the cast is MARA), and the extension
 * says how, so it is kept with the line as written ("(V.O.)", "(O.S.) (CONT'D)"); null when the cue has none.
 */
export function characterCue(cue: string): { name: string; extension: string | null } {
  const bare = cue.replace(/^@/, '').replace(/\s*\^$/, '');
  const extensions = bare.match(/\([^)]*\)/g) ?? [];
  return {
    name: bare.replace(/\s*\([^)]*\)\s*/g, ' ').trim(),
    extension: extensions.length > 0 ? extensions.map((each) => each.trim()).join(' ') : null,
  };
}

/**
 * Gathers a screenplay's elements as a reader meets them, in either format: a heading starts a scene, a character cue
 * names who speaks the dialogue after it (with a parenthetical), anything before the first heading goes to a scene
 * called OPENING, and what is not carried over is noted.
 */
export function sceneCollector() {
  const scenes: ReadScene[] = [];
  const notMapped: ReadScript['notMapped'] = [];
  let scene: ReadScene | null = null;
  let speaker: string | null = null;
  let extension: string | null = null;
  let parenthetical: string | null = null;
  let headings = 0;
  const start = (heading: string, number: string | null) => {
    scene = { heading: heading.replace(/^\./, '').trim(), number, lines: [] };
    scenes.push(scene);
    return scene;
  };
  const current = () => scene ?? start('OPENING', null);
  return {
    heading(heading: string, number: string | null) {
      headings += 1;
      return start(heading, number);
    },
    action(words: string) {
      // FADE IN: above the first scene is a transition in all but name (Fountain reads it as action).
      if (!scene && /^[A-Z][A-Z .']*:$/.test(words)) this.transition(words);
      else if (words) current().lines.push({ kind: 'action', text: words });
    },
    cue(words: string) {
      ({ name: speaker, extension } = characterCue(words));
      parenthetical = null;
    },
    parenthetical(words: string) {
      parenthetical = words;
    },
    dialogue(words: string) {
      if (words)
        current().lines.push({
          kind: 'dialogue',
          character: speaker ?? 'UNKNOWN',
          ...(extension ? { extension } : {}),
          ...(parenthetical ? { parenthetical } : {}),
          text: words,
        });
      parenthetical = null;
    },
    transition(words: string) {
      if (scene) scene.lines.push({ kind: 'transition', text: words });
      else notMapped.push({ line: null, what: `the transition "${words}" before the first scene` });
    },
    notMapped(what: string, line: number | null = null) {
      notMapped.push({ line, what });
    },
    result(title: string | null): ReadScript {
      return { title, scenes, notMapped, headings };
    },
  };
}
