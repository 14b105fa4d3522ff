import {
  numberShots,
  type CanvasNode,
  type LayoutOperation,
  type ScriptImportReceipt,
  type ScriptScene,
  type Screenplay,
  type ShotBinding,
  dataOf,
} from '../../contract/index.js';
import { castOf, wordsOf } from './screenplay.js';
import { wordsWithinBoard } from './screenplay-in-node.js';

/**
 * How an imported script lands on the canvas, as one batch of layout operations (one revision): the scriptNode holds
 * the screenplay and which lines each shot shows (its `bindings`); the board holds one shot per scene on a first
 * import, bound to the scene's lines (its action, dialogue, cast and location come from them). A revised script keeps
 * every shot and its work: a shot whose lines are gone is flagged (never removed), a new scene gets a new shot after
 * the shots of the scene before it, and bound shots take their words from the revised lines.
 */

type Shot = Record<string, unknown> & { id: string };

export interface ImportPlan {
  operations: LayoutOperation[];
  screenplay: Screenplay;
  shotsAdded: number;
  shotsFilled: number;
  /** Shots whose action and dialogue were shortened so that the board fits its node (the lines stay bound). */
  wordsShortened: number;
  flagged: ScriptImportReceipt['flagged_shots'];
}

export function planScriptImport(input: {
  screenplay: Screenplay;
  previous: Screenplay | null;
  scriptNode: CanvasNode | null;
  scriptNodeId: string;
  board: CanvasNode | null;
  boardNodeId: string;
  position: { x: number; y: number };
  newShotId: () => string;
}): ImportPlan {
  const frames = input.board ? existingShots(input.board) : [];
  const merged = mergeShots(frames, input.screenplay.scenes, input.previous, input.newShotId);
  const screenplay = { ...input.screenplay, bindings: merged.bindings };
  const name = screenplay.title ?? screenplay.fileName;
  const scriptData = { scriptTitle: screenplay.title, scriptResult: screenplay };
  const locked = dataOf(input.board, 'storyboardNode')?.numbersLocked === true;
  const fitted = wordsWithinBoard(numberShots(merged.shots, locked));
  const numbered = fitted.shots;
  const operations: LayoutOperation[] = [
    input.scriptNode
      ? {
          op: 'update_node',
          node_id: input.scriptNodeId,
          set: { data: { ...(input.scriptNode.data as Record<string, unknown>), ...scriptData } },
        }
      : {
          op: 'create_node',
          node: {
            id: input.scriptNodeId,
            type: 'scriptNode',
            position: input.position,
            data: { displayName: name, ...scriptData },
          } as CanvasNode,
        },
    input.board
      ? {
          op: 'update_node',
          node_id: input.boardNodeId,
          set: { data: { ...(input.board.data as Record<string, unknown>), frames: numbered } },
        }
      : {
          op: 'create_node',
          node: {
            id: input.boardNodeId,
            type: 'storyboardNode',
            position: { x: input.position.x + 460, y: input.position.y },
            data: { displayName: `Board: ${name}`, title: name, aspectRatio: '16:9', frames: numbered },
          } as CanvasNode,
        },
  ];
  const numbers = new Map(numbered.map((shot) => [shot.id, typeof shot.number === 'string' ? shot.number : null]));
  return {
    operations,
    screenplay,
    shotsAdded: merged.shotsAdded,
    shotsFilled: merged.shotsFilled,
    wordsShortened: fitted.shortened,
    flagged: merged.flagged.map((entry) => ({ ...entry, number: numbers.get(entry.shot_id) ?? null })),
  };
}

function existingShots(board: CanvasNode): Shot[] {
  return dataOf(board, 'storyboardNode')?.frames ?? [];
}

/** What a shot takes from its scene whenever the script is imported. */
function sceneFields(scene: ScriptScene) {
  return { scene: scene.number, location: scene.location };
}

/** A new shot for a scene: all its lines, its cast, its heading as the description. */
function shotFor(scene: ScriptScene, id: string): Shot {
  const cast = castOf(scene);
  return {
    id,
    imageUrl: null,
    status: 'draft',
    ...sceneFields(scene),
    caption: scene.heading,
    ...wordsOf(scene.lines),
    ...(cast.length ? { cast } : {}),
  };
}

/** The fields of a shot that are someone's work: a shot with none of them is empty, a place for a scene. */
const WORK_FIELDS = [
  'imageUrl',
  'sourceNodeId',
  'drawing',
  'caption',
  'action',
  'dialogue',
  'scene',
  'location',
  'cast',
  'notes',
  'shotSize',
  'angle',
  'movement',
  'lensMm',
] as const;

/**
 * An empty shot: nothing anyone wrote, drew or put on it (a template's shots: a duration and a draft status at most).
 * A shot with a picture but no words is not empty: its picture is someone's choice of what the shot shows.
 */
export function isEmptyShot(shot: Shot): boolean {
  return WORK_FIELDS.every((field) => {
    const value = shot[field];
    return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  });
}

/** The lines a shot shows: a scene's action and dialogue (a transition belongs to the cut, not to a shot). */
const shown = (scene: ScriptScene) => scene.lines.filter((line) => line.kind !== 'transition');

function mergeShots(
  frames: readonly Shot[],
  scenes: readonly ScriptScene[],
  previous: Screenplay | null,
  newShotId: () => string,
) {
  const sceneById = new Map(scenes.map((scene) => [scene.id, scene]));
  const previousScenes = new Map((previous?.scenes ?? []).map((scene) => [scene.id, scene]));
  const bindings: Record<string, ShotBinding> = {};
  const flagged: Array<{ shot_id: string; reason: string }> = [];
  const flag = (shot: Shot, binding: ShotBinding, reason: string) => {
    flagged.push({ shot_id: shot.id, reason });
    bindings[shot.id] = { ...binding, flag: reason };
  };
  const shots = frames.map((frame): Shot => {
    const binding = previous && Object.hasOwn(previous.bindings, frame.id) ? previous.bindings[frame.id]! : null;
    if (!binding) return frame;
    const { flag: _earlier, ...kept } = binding;
    // Bound to the whole scene: the lines it had when that binding was written.
    const wholeScene = previousScenes.get(binding.sceneId);
    const lineIds = binding.lineIds ?? (wholeScene ? shown(wholeScene).map((line) => line.id) : []);
    const scene = sceneById.get(binding.sceneId);
    if (!scene) {
      flag(
        frame,
        { ...kept, lineIds },
        `Its scene (${String(frame.caption ?? binding.sceneId)}) is not in the revised script.`,
      );
      return frame;
    }
    const present = scene.lines.filter((line) => lineIds.includes(line.id));
    const missing = lineIds.length - present.length;
    const refreshed: Shot = { ...frame, ...sceneFields(scene) };
    if (lineIds.length > 0) {
      delete refreshed.action;
      delete refreshed.dialogue;
      // Bound to the whole scene and none of it gone: the revised scene's words, new lines included.
      Object.assign(refreshed, wordsOf(!binding.lineIds && missing === 0 ? shown(scene) : present));
    }
    if (missing === 0) {
      // Still the whole scene: it shows the revised scene's lines too.
      bindings[frame.id] = kept;
      return refreshed;
    }
    flag(
      frame,
      { ...kept, lineIds },
      `${missing} script line${missing === 1 ? '' : 's'} this shot showed ${missing === 1 ? 'is' : 'are'} changed or gone in the revised script: bind it to the new lines.`,
    );
    return refreshed;
  });
  // Scenes no shot is in yet (all of them on a first import) get a shot, after the shots of the scene before them.
  const covered = new Set(Object.values(bindings).map((binding) => binding.sceneId));
  // A board that had no shot of a script yet (a template's, or drawn by hand) gives the script's scenes its empty
  // shots first, in board order (each keeps its id, number and duration), then gets the rest after its own shots.
  const scriptBound = covered.size > 0;
  const open = scriptBound ? [] : shots.filter(isEmptyShot);
  let shotsAdded = 0;
  let shotsFilled = 0;
  for (const [index, scene] of scenes.entries()) {
    if (covered.has(scene.id)) continue;
    const empty = open.shift();
    if (empty) {
      const { id: _id, imageUrl: _picture, status: _status, ...words } = shotFor(scene, empty.id);
      shots[shots.indexOf(empty)] = { ...empty, ...words };
      bindings[empty.id] = { sceneId: scene.id };
      covered.add(scene.id);
      shotsFilled += 1;
      continue;
    }
    const earlier = new Set(scenes.slice(0, index).map((each) => each.id));
    let at = scriptBound ? 0 : shots.length;
    shots.forEach((shot, position) => {
      const sceneId = bindings[shot.id]?.sceneId;
      if (sceneId && earlier.has(sceneId)) at = position + 1;
    });
    const shot = shotFor(scene, newShotId());
    shots.splice(at, 0, shot);
    bindings[shot.id] = { sceneId: scene.id };
    covered.add(scene.id);
    shotsAdded += 1;
  }
  return { shots, bindings, shotsAdded, shotsFilled, flagged };
}
