import { dataOf, type ExportView, type NodeRuntimeState, type StoryboardFrame } from '../../../src/contract/index.js';
import { aspectOf } from '../../../src/shared/frame-shape.js';
import { cameraOf, shotDurationMs, words } from '../../../src/shared/shot-words.js';
import type { Layout } from './layout.js';
import { boardsOf, shotPicture } from './shots.js';
import { recordOf } from './values.js';
import type { z } from 'zod';

type Frame = z.infer<typeof StoryboardFrame>;

/**
 * What Present mode (panels/deliverables/Present.tsx) shows. Declared here, under the panel, because the model builds
 * them from the canvas (presentBoards below), as the share link's page does from what the link shows.
 */
export interface PresentShot {
  id: string;
  number: string;
  pictureUrl: string | null;
  caption: string | null;
  action: string | null;
  dialogue: string | null;
  camera: string | null;
  durationMs: number;
  /** The shot's camera move, played over its picture (src/shared/camera-move.ts). */
  move?: Frame['move'] | null;
}

export interface PresentBoard {
  title: string;
  /** Width over height of the board's frames. */
  aspect: number;
  shots: PresentShot[];
  /** The board's animatic (an MP4 URL), when one was exported. */
  animaticUrl?: string | null;
}

/** A board's (or any card's) title as people see it: its title, else its card's name or file name, else its id. */
export function boardTitle(node: { id: string; data: unknown }): string {
  // Any card's: title and fileName belong to some types' data, so the fields are read as a plain record.
  const data = recordOf(node.data);
  return words(data.title) ?? words(data.displayName) ?? words(data.fileName) ?? node.id;
}

/**
 * The canvas's boards as Present mode shows them (docs/deliverables.md, "Present"): each shot's picture (its own, else
 * its source card's latest), words and duration timed as the exports time them, and the board's latest animatic when
 * one was exported.
 */
export function presentBoards(
  layout: Layout,
  states: Readonly<Record<string, NodeRuntimeState>>,
  exports: readonly ExportView[],
): Array<PresentBoard & { nodeId: string }> {
  const byId = new Map(layout.nodes.map((node) => [node.id, node]));
  /** A video shot without a duration lasts its clip, as in the animatic. */
  const clipMs = (frame: Frame): number | null => {
    const source = typeof frame.sourceNodeId === 'string' ? byId.get(frame.sourceNodeId) : undefined;
    const duration = dataOf(source, 'videoNode')?.durationMs;
    return typeof duration === 'number' ? duration : null;
  };
  return boardsOf(layout).map((board) => {
    const animatic = exports.find(
      (job) => job.node_id === board.node.id && job.kind === 'animatic' && job.status === 'succeeded' && job.file,
    );
    return {
      nodeId: board.node.id,
      title: boardTitle(board.node),
      aspect: aspectOf(dataOf(board.node, 'storyboardNode')?.aspectRatio),
      animaticUrl: animatic?.file?.url ?? null,
      shots: board.shots.map((shot, index) => {
        const frame = shot as unknown as Frame;
        return {
          id: shot.id,
          number: shot.number ?? String(index + 1),
          pictureUrl: shotPicture(shot, states) ?? null,
          caption: words(frame.caption),
          action: words(frame.action),
          dialogue: words(frame.dialogue),
          camera: cameraOf(frame),
          durationMs: shotDurationMs(frame, clipMs(frame)),
          move: frame.move ?? null,
        };
      }),
    };
  });
}
