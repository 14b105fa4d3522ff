import { createHash } from 'node:crypto';
import {
  SCREENPLAY_FORMAT,
  type ScriptChanges,
  type ScriptLine,
  type ScriptScene,
  type Screenplay,
} from '../../contract/index.js';

/**
 * From what a parser read to the stored screenplay (src/contract/screenplay.ts): scene headings split into setting,
 * location and time of day, ids derived from content (so the same scene and line have the same id in a revised
 * script), the cast gathered from who speaks; and the changes between two imports.
 */

/** What a parser hands over: scenes in order, each with its lines, before ids. */
export interface ReadScene {
  heading: string;
  number: string | null;
  lines: Array<Omit<ScriptLine, 'id'>>;
}

export interface ReadScript {
  title: string | null;
  scenes: ReadScene[];
  /** Scene headings found (a script's words before its first heading make a scene called OPENING, not counted). */
  headings: number;
  notMapped: Array<{ line: number | null; what: string }>;
}

// 48 bits: ids only need to differ within one script (a repeated line gets a suffix), and a long script keeps
// thousands of them in one node.
const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 8);

/** A counter of how often each key was seen: the second identical line of a scene gets its own id. */
function occurrences() {
  const seen = new Map<string, number>();
  return (key: string) => {
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? key : `${key}-${count}`;
  };
}

/** INT. LIGHTHOUSE - NIGHT → INT, LIGHTHOUSE, NIGHT; a heading without a setting keeps all of it as the location. */
export function splitHeading(heading: string): Pick<ScriptScene, 'setting' | 'location' | 'timeOfDay'> {
  const match = /^(INT\.?\/EXT|EXT\.?\/INT|I\/E|INT|EXT|EST)[.\s]+(.*)$/i.exec(heading.trim());
  const setting = match
    ? /\/|I\/E/i.test(match[1]!)
      ? ('INT/EXT' as const)
      : match[1]!.toUpperCase().startsWith('EXT')
        ? ('EXT' as const)
        : ('INT' as const)
    : null;
  const rest = (match ? match[2]! : heading).trim();
  const dash = rest.lastIndexOf(' - ');
  return dash > 0
    ? { setting, location: rest.slice(0, dash).trim(), timeOfDay: rest.slice(dash + 3).trim() || null }
    : { setting, location: rest, timeOfDay: null };
}

export function buildScreenplay(
  read: ReadScript,
  source: Screenplay['source'],
  fileName: string,
  imports: number,
  boardNodeId: string | null,
): Screenplay {
  const sceneId = occurrences();
  const scenes = read.scenes.map((scene, index): ScriptScene => {
    const id = sceneId(`sc-${digest(scene.heading.trim().toUpperCase())}`);
    const lineId = occurrences();
    return {
      id,
      number: scene.number ?? String(index + 1),
      heading: scene.heading.trim(),
      ...splitHeading(scene.heading),
      lines: scene.lines.map((line) => ({
        // A line without an extension keeps the id it had before extensions were kept.
        id: lineId(`ln-${digest(`${id}\u0000${line.kind}\u0000${speakerOf(line)}\u0000${line.text}`)}`),
        ...line,
      })),
    };
  });
  const characters = [
    ...new Set(scenes.flatMap((scene) => scene.lines.flatMap((line) => (line.character ? [line.character] : [])))),
  ];
  return {
    format: SCREENPLAY_FORMAT,
    source,
    fileName,
    title: read.title,
    imports,
    boardNodeId,
    scenes,
    characters,
    bindings: {},
  };
}

/** Who speaks in a scene, in order of first line. */
export function castOf(scene: ScriptScene): string[] {
  return [...new Set(scene.lines.flatMap((line) => (line.character ? [line.character] : [])))];
}

/** Who speaks a line as the script writes the cue: MARA, or MARA (V.O.). */
function speakerOf(line: Pick<ScriptLine, 'character' | 'extension'>): string {
  return `${line.character ?? ''}${line.extension ? ` ${line.extension}` : ''}`;
}

const lineWords = (line: ScriptLine) => (line.kind === 'dialogue' ? `${speakerOf(line)}: ${line.text}` : line.text);

export function changesBetween(before: Screenplay, after: Screenplay): ScriptChanges {
  const old = new Map(before.scenes.map((scene) => [scene.id, scene]));
  const now = new Map(after.scenes.map((scene) => [scene.id, scene]));
  const changed: ScriptChanges['scenes_changed'] = [];
  for (const scene of after.scenes) {
    const previous = old.get(scene.id);
    if (!previous) continue;
    const was = new Set(previous.lines.map((line) => line.id));
    const is = new Set(scene.lines.map((line) => line.id));
    const added = scene.lines.filter((line) => !was.has(line.id)).map(lineWords);
    const removed = previous.lines.filter((line) => !is.has(line.id)).map(lineWords);
    if (added.length + removed.length > 0)
      changed.push({ heading: scene.heading, lines_added: added, lines_removed: removed });
  }
  return {
    scenes_added: after.scenes.filter((scene) => !old.has(scene.id)).map((scene) => scene.heading),
    scenes_removed: before.scenes.filter((scene) => !now.has(scene.id)).map((scene) => scene.heading),
    scenes_changed: changed,
  };
}

/** A shot's action and dialogue as its bound lines say them. */
export function wordsOf(lines: readonly ScriptLine[]): { action?: string; dialogue?: string } {
  const action = lines
    .filter((line) => line.kind === 'action')
    .map((line) => line.text)
    .join('\n');
  const dialogue = lines
    .filter((line) => line.kind === 'dialogue')
    .map((line) => `${speakerOf(line)}${line.parenthetical ? ` ${line.parenthetical}` : ''}: ${line.text}`)
    .join('\n');
  return { ...(action ? { action } : {}), ...(dialogue ? { dialogue } : {}) };
}
