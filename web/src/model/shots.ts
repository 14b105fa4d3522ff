import {
  dataOf,
  mentionedElements,
  numberShots,
  SHOT_ANGLES,
  SHOT_SIZES,
  shotElements,
  type CanvasNode,
  type NodeRuntimeState,
  type ShotWords,
} from '../../../src/contract/index.js';
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
function boardChange(
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

/** A new, empty shot after `afterIndex` (at the end when left out). */
export function addShot(boardId: string, authors: Authors, afterIndex?: number): Intent {
  return boardChange(boardId, 'Add a shot', authors, ({ shots }) => {
    const shot: Shot = { id: `shot-${newKey().slice(0, 8)}`, imageUrl: null, status: 'draft' };
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

/** One frame shape for the whole board (Boords' presets). */
export function setBoardAspect(boardId: string, aspectRatio: string, authors: Authors): Intent {
  return boardChange(boardId, `Frame ${aspectRatio}`, authors, ({ shots }) => ({ shots, fields: { aspectRatio } }));
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
 * location, and a mention of every element in the shot that its words do not mention yet (`@Mara`).
 */
export function shotPrompt(shot: Shot, elements: ReadonlyArray<{ name: string }>): string {
  const words = (field: string) => (typeof shot[field] === 'string' ? (shot[field] as string).trim() : '');
  const framing = [SIZE_WORDS[words('shotSize')], ANGLE_WORDS[words('angle')]?.toLowerCase()].filter(Boolean);
  const parts = [framing.join(', '), words('caption'), words('action'), words('location')].filter(Boolean);
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
