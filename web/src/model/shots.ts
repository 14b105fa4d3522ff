import {
  dataOf,
  mentionedElements,
  numberShots,
  SHOT_ANGLES,
  SHOT_SIZES,
  shotElements,
  UPLOAD_TYPES,
  type CanvasNode,
  type NodeRuntimeState,
  type ShotWords,
} from '../../../src/contract/index.js';
import { isFrameShape } from '../../../src/shared/frame-shape.js';
import { continuedShot } from '../../../src/shared/continuity.js';
import type { Intent } from './canvas-state.js';
import { newKey } from './api.js';
import { authorLabel, type Author, type Layout } from './layout.js';
import { list } from './values.js';

/**
 * Changes to a board's shots (docs/storyboards.md): each rebuilds the board's frames from the layout it
 * meets, so a change to one shot keeps what someone else changed in another meanwhile, and numbers the board again
 * (`numberShots`). Every change is one update of the storyboard node: one revision, in history, undone by Ctrl+Z.
 */

export type Shot = Record<string, unknown> & { id: string; number?: string };

/** What a frame dragged within a board's card carries: its shot id (the canvas takes no upload from such a drag). */
export const SHOT_DRAG = 'application/x-canvas-mcp-board-shot';

export interface Board {
  node: CanvasNode;
  shots: Shot[];
  locked: boolean;
}

/** The storyboards of a canvas, in canvas order. */
export function boardsOf(layout: Layout): Board[] {
  return layout.nodes.filter((node) => node.type === 'storyboardNode').map(boardOf);
}

export function boardOf(node: CanvasNode): Board {
  const data = dataOf(node, 'storyboardNode');
  const shots = list(data?.frames).filter(
    (frame): frame is Shot => typeof frame === 'object' && frame !== null && typeof (frame as Shot).id === 'string',
  );
  return { node, shots, locked: data?.numbersLocked === true };
}

type Authors = () => Record<string, Author | null>;

/** An intent that rewrites one board's shots (and board fields) from the board as the layout has it. */
export function boardChange(
  boardId: string,
  label: string,
  authors: Authors,
  change: (board: Board) => { shots: Shot[]; fields?: Record<string, unknown> } | { notApplicable: string },
): Intent {
  return {
    label,
    build(layout) {
      const node = layout.nodes.find((candidate) => candidate.id === boardId && candidate.type === 'storyboardNode');
      if (!node)
        return {
          notApplicable: `${label}: the board was deleted by ${authorLabel(authors()[boardId])} meanwhile, so your change was not applied.`,
        };
      const board = boardOf(node);
      const changed = change(board);
      if ('notApplicable' in changed) return changed;
      const fields = changed.fields ?? {};
      const locked = typeof fields.numbersLocked === 'boolean' ? fields.numbersLocked : board.locked;
      const data = { ...(node.data as Record<string, unknown>), ...fields, frames: numberShots(changed.shots, locked) };
      return [{ op: 'update_node', node_id: boardId, set: { data } }];
    },
  };
}

const shotGone = (label: string) => ({
  notApplicable: `${label}: that shot was removed from the board meanwhile, so your change was not applied.`,
});

/** Sets fields of one shot; a field set to undefined or '' is removed. */
export function editShot(boardId: string, shotId: string, fields: Record<string, unknown>, authors: Authors): Intent {
  const label = `Edit shot ${Object.keys(fields).join(', ')}`;
  return boardChange(boardId, label, authors, ({ shots }) => {
    if (!shots.some((shot) => shot.id === shotId)) return shotGone(label);
    return {
      shots: shots.map((shot) => {
        if (shot.id !== shotId) return shot;
        const next: Shot = { ...shot };
        for (const [field, value] of Object.entries(fields)) {
          if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete next[field];
          else next[field] = value;
        }
        return next;
      }),
    };
  });
}

/**
 * "Continue from previous" (docs/storyboards.md, "Continuity"): the shot takes the cast, location, lens and look of the shot
 * before it as the board is now, exactly (the server's route does the same: src/shared/continuity.ts).
 */
export function continueFromPrevious(boardId: string, shotId: string, authors: Authors): Intent {
  const label = 'Continue from previous';
  return boardChange(boardId, label, authors, ({ shots }) => {
    const index = shots.findIndex((shot) => shot.id === shotId);
    if (index < 0) return shotGone(label);
    if (index === 0)
      return { notApplicable: `${label}: that shot is now the first of its board, with no shot before it.` };
    return { shots: shots.map((shot, at) => (at === index ? continuedShot(shot, shots[index - 1]!) : shot)) };
  });
}

/** Moves a shot to `toIndex` (in the board's order). Under locked numbers the moved shot takes a number where it lands. */
export function moveShot(boardId: string, shotId: string, toIndex: number, authors: Authors): Intent {
  return boardChange(boardId, 'Reorder shots', authors, ({ shots, locked }) => {
    const from = shots.findIndex((shot) => shot.id === shotId);
    if (from < 0) return shotGone('Reorder shots');
    const rest = shots.filter((shot) => shot.id !== shotId);
    const { number: _number, ...moved } = shots[from]!;
    const target = Math.max(0, Math.min(rest.length, toIndex));
    rest.splice(target, 0, locked ? moved : shots[from]!);
    return { shots: rest };
  });
}

/** An id for a new shot, unique on its board. */
export function newShotId(): string {
  return `shot-${newKey().slice(0, 8)}`;
}

/** A new, empty shot after `afterIndex` (at the end when left out; first at -1), with `id` when the caller needs it. */
export function addShot(boardId: string, authors: Authors, afterIndex?: number, id = newShotId()): Intent {
  return boardChange(boardId, 'Add a shot', authors, ({ shots }) => {
    const shot: Shot = { id, imageUrl: null, status: 'draft' };
    const at = afterIndex === undefined ? shots.length : afterIndex + 1;
    return { shots: [...shots.slice(0, at), shot, ...shots.slice(at)] };
  });
}

export function removeShot(boardId: string, shotId: string, authors: Authors): Intent {
  return boardChange(boardId, 'Remove a shot', authors, ({ shots }) => {
    if (!shots.some((shot) => shot.id === shotId)) return shotGone('Remove a shot');
    return { shots: shots.filter((shot) => shot.id !== shotId) };
  });
}

/**
 * Moves several shots as one block (the board page's drag and its Alt+arrow keys), in board order, to stand before
 * `beforeId` (at the end when null, or when that shot is itself among the moved or gone). Under locked numbers each
 * moved shot takes a number where it lands, as `moveShot` does; one revision whatever the count.
 */
export function moveShots(
  boardId: string,
  shotIds: readonly string[],
  beforeId: string | null,
  authors: Authors,
): Intent {
  const label = shotIds.length === 1 ? 'Reorder shots' : `Move ${shotIds.length} shots`;
  return boardChange(boardId, label, authors, ({ shots, locked }) => {
    const moving = new Set(shotIds);
    const moved = shots.filter((shot) => moving.has(shot.id));
    if (moved.length === 0) return shotGone(label);
    const rest = shots.filter((shot) => !moving.has(shot.id));
    const at = beforeId === null ? -1 : rest.findIndex((shot) => shot.id === beforeId);
    const block = locked ? moved.map(({ number: _number, ...shot }) => shot as Shot) : moved;
    rest.splice(at < 0 ? rest.length : at, 0, ...block);
    return { shots: rest };
  });
}

/** A copy of each shot (a new id, every field but its number), right after the last of them, in board order. */
export function duplicateShots(boardId: string, shotIds: readonly string[], authors: Authors): Intent {
  const label = shotIds.length === 1 ? 'Duplicate a shot' : `Duplicate ${shotIds.length} shots`;
  return boardChange(boardId, label, authors, ({ shots }) => {
    const copying = new Set(shotIds);
    const originals = shots.filter((shot) => copying.has(shot.id));
    if (originals.length === 0) return shotGone(label);
    const copies = originals.map(({ number: _number, ...shot }): Shot => ({
      ...shot,
      id: newShotId(),
    }));
    const last = shots.findLastIndex((shot) => copying.has(shot.id));
    return { shots: [...shots.slice(0, last + 1), ...copies, ...shots.slice(last + 1)] };
  });
}

/** Removes several shots in one revision (those already gone are passed over). */
export function removeShots(boardId: string, shotIds: readonly string[], authors: Authors): Intent {
  const label = shotIds.length === 1 ? 'Remove a shot' : `Remove ${shotIds.length} shots`;
  return boardChange(boardId, label, authors, ({ shots }) => {
    const removing = new Set(shotIds);
    if (!shots.some((shot) => removing.has(shot.id))) return shotGone(label);
    return { shots: shots.filter((shot) => !removing.has(shot.id)) };
  });
}

/** Locks or unlocks the board's numbers; unlocking (or `renumber`) numbers it 1, 2, 3 again. */
export function setNumbersLocked(boardId: string, locked: boolean, authors: Authors): Intent {
  return boardChange(boardId, locked ? 'Lock shot numbers' : 'Unlock shot numbers', authors, ({ shots }) => ({
    shots,
    fields: { numbersLocked: locked },
  }));
}

export function renumber(boardId: string, authors: Authors): Intent {
  return boardChange(boardId, 'Renumber shots', authors, ({ shots, locked }) => ({
    shots: numberShots(shots, false),
    fields: { numbersLocked: locked },
  }));
}

/** One frame shape for the whole board (Boords' presets, or a custom W:H that `frameShapeRefusal` passed). */
export function setBoardAspect(boardId: string, aspectRatio: string, authors: Authors): Intent {
  return boardChange(boardId, `Frame ${aspectRatio}`, authors, ({ shots }) => ({ shots, fields: { aspectRatio } }));
}

/**
 * A custom frame shape as a person typed it: the W:H to save ("1.43:1", "5:4"; spaces dropped), or why it is refused,
 * naming the field. Every reader of a board's shape parses it with `aspectOf` (src/shared/frame-shape.ts), which takes
 * exactly what `isFrameShape` takes, so a saved shape is drawn as saved everywhere.
 */
export function customFrameShape(typed: string): { ratio: string } | { refusal: string } {
  const ratio = typed.replace(/\s+/g, '');
  if (isFrameShape(ratio)) return { ratio };
  return {
    refusal: `Frame shape (W:H): "${typed.trim().slice(0, 20)}" is not a width and height such as 1.43:1 or 5:4 (numbers of up to 4 digits and 3 decimals, the shape between 1:5 and 5:1). Nothing was saved.`,
  };
}

/**
 * A picture for one shot: a new image generation card beside the board, with the shot's prompt,
 * and the shot naming it as its source (`sourceNodeId`), in one revision. Its runs are given the shot's elements; the
 * shot shows the card's latest picture until it has its own (`shotPicture`).
 */
export function shotGeneration(
  boardId: string,
  shotId: string,
  card: { id: string; position: { x: number; y: number }; prompt: string; aspectRatio: string },
  authors: Authors,
): Intent {
  const label = 'Generate a shot picture';
  const link = boardChange(boardId, label, authors, ({ shots }) => {
    if (!shots.some((shot) => shot.id === shotId)) return shotGone(label);
    return { shots: shots.map((shot) => (shot.id === shotId ? { ...shot, sourceNodeId: card.id } : shot)) };
  });
  return {
    label,
    build(layout) {
      const linked = link.build(layout);
      if ('notApplicable' in linked) return linked;
      const node = {
        id: card.id,
        type: 'imageGenNode',
        position: card.position,
        data: { prompt: card.prompt, size: '1K', imageUrl: null, aspectRatio: card.aspectRatio },
      } as CanvasNode;
      return [{ op: 'create_node', node }, ...linked];
    },
  };
}

const SIZE_WORDS: Record<string, string> = SHOT_SIZES;
const ANGLE_WORDS: Record<string, string> = SHOT_ANGLES;

/**
 * The prompt for a shot's picture, in the words of a shot list: size and angle, the description and action, the
 * location and look, and a mention of every element in the shot that its words do not mention yet (`@Mara`).
 */
export function shotPrompt(shot: Shot, elements: ReadonlyArray<{ name: string }>): string {
  const words = (field: string) => (typeof shot[field] === 'string' ? (shot[field] as string).trim() : '');
  const framing = [SIZE_WORDS[words('shotSize')], ANGLE_WORDS[words('angle')]?.toLowerCase()].filter(Boolean);
  const parts = [framing.join(', '), words('caption'), words('action'), words('location'), words('look')].filter(
    Boolean,
  );
  const text = parts.join('. ');
  const linked = shotElements(shot as ShotWords, elements);
  const missing = linked.filter((element) => mentionedElements(text, [element]).length === 0);
  const mentions = missing.map((element) => `@${element.name}`).join(', ');
  return [text, mentions ? `With ${mentions}.` : ''].filter(Boolean).join('. ').replace(/\.\./g, '.');
}

/** A shot's picture: its own, else the latest picture of the card that makes it (state of that card's last run). */
export function shotPicture(shot: Shot, states: Readonly<Record<string, NodeRuntimeState>>): string | undefined {
  if (typeof shot.imageUrl === 'string' && shot.imageUrl) return shot.imageUrl;
  const source = typeof shot.sourceNodeId === 'string' ? states[shot.sourceNodeId] : undefined;
  return source?.outputs.find((output) => output.kind === 'image')?.url;
}

/**
 * Pictures on shots (docs/storyboards.md, "Pictures on shots"): a picture put on a shot (a dropped, pasted or picked
 * file, a card of the canvas, an earlier picture picked back) becomes its `imageUrl`, and the picture it replaces goes
 * to the front of its `earlierPictures` (newest first, at most 20), so nothing a shot showed is lost. Each change is
 * one update of the board: one revision, with its author.
 */

/** How many earlier pictures a shot keeps (the contract's limit). */
export const EARLIER_PICTURES_MAX = 20;

/**
 * An asset's path without the signature a canvas read gave it (/assets/asset_…?exp=…&sig=… → /assets/asset_…): what a
 * shot keeps, so a picture never expires and each read signs it again (the server signs `earlierPictures` too).
 */
export function assetPath(url: string): string {
  const signed = /^(\/assets\/asset_[A-Za-z0-9_-]{16})\?exp=\d+&sig=[A-Za-z0-9_-]+$/.exec(url);
  return signed ? signed[1]! : url;
}

const ownPicture = (shot: Shot) => (typeof shot.imageUrl === 'string' && shot.imageUrl ? shot.imageUrl : undefined);

/** A shot's earlier pictures, newest first. */
export function earlierPicturesOf(shot: Shot): string[] {
  return Array.isArray(shot.earlierPictures)
    ? shot.earlierPictures.filter((url): url is string => typeof url === 'string' && url !== '')
    : [];
}

/**
 * The shot with `url` as its picture. What it showed (its own picture, else `shown`: its source card's latest) goes
 * first among its earlier pictures; `url` leaves them (picking an earlier picture back moves it, never copies it).
 */
export function withPicture(shot: Shot, picture: string, shown?: string): Shot {
  const url = assetPath(picture);
  const replaced = ownPicture(shot) ?? shown;
  const earlier = [...(replaced ? [replaced] : []), ...earlierPicturesOf(shot)]
    .map(assetPath)
    .filter((each, index, all) => each !== url && all.indexOf(each) === index)
    .slice(0, EARLIER_PICTURES_MAX);
  const next: Shot = { ...shot, imageUrl: url };
  if (earlier.length > 0) next.earlierPictures = earlier;
  else delete next.earlierPictures;
  return next;
}

/** A shot waiting for a picture: none of its own, and none from the card that makes it. */
export function hasNoPicture(shot: Shot, states: Readonly<Record<string, NodeRuntimeState>>): boolean {
  return shotPicture(shot, states) === undefined;
}

/**
 * Where several pictures go on a board, in order: its shots without a picture, in board order, then new shots after
 * the last one. Answers one entry per picture: the id of the shot it fills, or null for a new shot.
 */
export function fillOrder(
  shots: readonly Shot[],
  count: number,
  isEmpty: (shot: Shot) => boolean,
): Array<string | null> {
  const empty = shots.filter(isEmpty).map((shot) => shot.id);
  return Array.from({ length: count }, (_, index) => empty[index] ?? null);
}

/** The board with the pictures in its empty shots, then in new shots after the last, in the order given. */
export function filledWith(
  shots: readonly Shot[],
  urls: readonly string[],
  isEmpty: (shot: Shot) => boolean,
  newId: () => string,
): Shot[] {
  const order = fillOrder(shots, urls.length, isEmpty);
  const byShot = new Map(order.flatMap((shotId, index) => (shotId ? [[shotId, urls[index]!] as const] : [])));
  const filled = shots.map((shot) => (byShot.has(shot.id) ? withPicture(shot, byShot.get(shot.id)!) : shot));
  const added = order.flatMap((shotId, index): Shot[] =>
    shotId ? [] : [{ id: newId(), imageUrl: assetPath(urls[index]!), status: 'draft' }],
  );
  return [...filled, ...added];
}

type States = () => Readonly<Record<string, NodeRuntimeState>>;

/** One shot takes a picture (`label` says from where: "Picture from take.png"). */
export function setShotPicture(
  boardId: string,
  shotId: string,
  url: string,
  label: string,
  authors: Authors,
  states: States = () => ({}),
): Intent {
  return boardChange(boardId, label, authors, ({ shots }) => {
    if (!shots.some((shot) => shot.id === shotId)) return shotGone(label);
    const now = states();
    return {
      shots: shots.map((shot) =>
        shot.id === shotId ? withPicture(shot, url, ownPicture(shot) ?? shotPicture(shot, now)) : shot,
      ),
    };
  });
}

/** Several pictures onto a board: its empty shots first, in board order, then new shots after the last. */
export function fillBoard(
  boardId: string,
  urls: readonly string[],
  authors: Authors,
  states: States = () => ({}),
): Intent {
  const label = `Put ${urls.length} pictures on the board`;
  return boardChange(boardId, label, authors, ({ shots }) => {
    const now = states();
    return {
      shots: filledWith(shots, urls, (shot) => hasNoPicture(shot, now), newShotId),
    };
  });
}

const KIND_IN_WORDS: Record<string, string> = { video: 'a film', audio: 'a sound', document: 'a PDF' };
const PICTURE_EXTENSIONS: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
};

/**
 * Why a file cannot be a shot's picture, or null when it can: decided before anything is sent, from the type the
 * browser gives it (its name's ending when it gives none), so a film dropped on a frame uploads nothing and changes
 * nothing. The server still decides from the bytes: a "picture" that is not one is refused by the upload itself.
 */
export function pictureRefusal(file: { name: string; type: string }): string | null {
  const type = file.type || PICTURE_EXTENSIONS[file.name.split('.').pop()?.toLowerCase() ?? ''] || '';
  const kind = UPLOAD_TYPES[type];
  if (kind === 'image') return null;
  const what = kind ? `${KIND_IN_WORDS[kind]} (${type})` : type ? `a file of type ${type}` : 'a file of unknown type';
  return `${file.name} is ${what}, not a picture: a shot takes a PNG, JPEG, WebP, GIF or AVIF picture.`;
}
