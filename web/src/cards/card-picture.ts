import type { CanvasNode, NodeRuntimeState } from '../../../src/contract/index.js';
import { recordOf } from '../model/values.js';
import { pictureOfCard, uploadedPicture } from './parts.js';

/**
 * The picture a card gives a shot (docs/storyboards.md, "Pictures on shots"): an uploaded picture's file (not its
 * thumbnail), an image card's picture, a run's latest picture. Films, sounds and boards give none: a shot's picture is
 * a still.
 */
const NO_PICTURE = new Set(['videoNode', 'audioNode', 'audioTrimNode', 'storyboardNode', 'videoStoryNode']);

export function cardPicture(node: CanvasNode, state: NodeRuntimeState | undefined): string | undefined {
  if (NO_PICTURE.has(node.type)) return undefined;
  const data = recordOf(node.data);
  if (node.type === 'uploadNode') return uploadedPicture(data);
  return pictureOfCard(data, state);
}
