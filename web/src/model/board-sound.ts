import { dataOf, type CanvasEdge, type LayoutOperation, type NodeRuntimeState } from '../../../src/contract/index.js';
import type { Intent } from './canvas-state.js';
import { newKey } from './api.js';
import type { Layout } from './layout.js';
import { boardTitle } from './present.js';

/**
 * What each sound card is to a board's animatic (docs/deliverables.md, "Sources"): a voice-over on one of its
 * shots (an edge from the sound to the board whose `data.shotId` names the shot), the music bed (an edge naming no
 * shot), or nothing. Choosing a role rewrites the sound's edges to the board as one revision, so undo takes it back.
 */

export type SoundRole = { kind: 'none' } | { kind: 'music' } | { kind: 'voice'; shotId: string };

export function soundRole(layout: Layout, boardId: string, soundId: string): SoundRole {
  const edge = layout.edges.find((candidate) => candidate.source === soundId && candidate.target === boardId);
  if (!edge) return { kind: 'none' };
  const shotId = edge.data?.shotId;
  return typeof shotId === 'string' ? { kind: 'voice', shotId } : { kind: 'music' };
}

export function setSoundRole(boardId: string, soundId: string, role: SoundRole): Intent {
  const label = role.kind === 'none' ? 'Take the sound off the board' : 'Lay the sound under the board';
  return {
    label,
    build(layout) {
      const known = new Set(layout.nodes.map((node) => node.id));
      if (!known.has(boardId) || !known.has(soundId))
        return { notApplicable: `${label}: the board or the sound was deleted meanwhile, so nothing changed.` };
      const operations: LayoutOperation[] = layout.edges
        .filter((edge) => edge.source === soundId && edge.target === boardId)
        .map((edge) => ({ op: 'delete_edge', edge_id: edge.id }));
      if (role.kind !== 'none') {
        const edge: CanvasEdge = {
          id: `sound-${newKey().slice(0, 12)}`,
          source: soundId,
          target: boardId,
          ...(role.kind === 'voice' ? { data: { shotId: role.shotId } } : {}),
        };
        operations.push({ op: 'create_edge', edge });
      }
      return operations;
    },
  };
}

/** A sound under a board's animatic: its card, its name, what plays (null: no file nor finished run yet), its length. */
export interface BoardSound {
  nodeId: string;
  name: string;
  url: string | null;
  durationMs: number | null;
}

/**
 * The sounds under a board, as the animatic export picks them (src/exports/board-source.ts): the voice-over of each
 * shot (a sound card connected to the board naming the shot) and the music bed (one connected naming none). A card's
 * sound is its file, else its latest run's sound.
 */
export function boardSounds(
  layout: Layout,
  states: Readonly<Record<string, NodeRuntimeState>>,
  boardId: string,
): { music: BoardSound | null; voices: Map<string, BoardSound> } {
  const nodes = new Map(layout.nodes.map((node) => [node.id, node]));
  const voices = new Map<string, BoardSound>();
  let music: BoardSound | null = null;
  for (const edge of layout.edges) {
    if (edge.target !== boardId) continue;
    const node = nodes.get(edge.source);
    const data = dataOf(node, 'audioNode');
    if (!node || !data) continue;
    const file = typeof data.audioUrl === 'string' && data.audioUrl ? data.audioUrl : null;
    const sound: BoardSound = {
      nodeId: node.id,
      name: boardTitle(node),
      url: file ?? states[node.id]?.outputs.find((output) => output.kind === 'audio')?.url ?? null,
      durationMs: typeof data.durationMs === 'number' && data.durationMs > 0 ? data.durationMs : null,
    };
    const shotId = edge.data?.shotId;
    if (typeof shotId === 'string') {
      if (!voices.has(shotId)) voices.set(shotId, sound);
    } else music ??= sound;
  }
  return { music, voices };
}
