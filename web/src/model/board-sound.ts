import type { CanvasEdge, LayoutOperation } from '../../../src/contract/index.js';
import type { Intent } from './canvas-state.js';
import { newKey } from './api.js';
import type { Layout } from './layout.js';

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
