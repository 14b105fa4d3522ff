import type { z } from 'zod';
import {
  dataOf,
  type CanvasNode,
  type RunFrameSource,
  type RunFrames,
  type RunModel,
  type StartFrom,
  type StoryboardFrame as StoryboardFrameSchema,
} from '../contract/index.js';
import { shotMedia } from '../exports/board-source.js';
import { CanvasError } from '../shared/errors.js';
import { shotNumberOf } from '../shared/shot-words.js';
import { RunOutputs } from '../store/run-rows.js';
import type { Store } from '../store/store.js';
import { assetIdOfUrl } from './operations.js';

/**
 * The frames a video run of a shot is given (docs/storyboards.md, "Continuity"), decided when it is submitted and kept
 * in its input. A video card is a shot's video when the shot names it as its source (`sourceNodeId`). By default its
 * run starts from the shot's picture, when the model takes a first frame. Asked to start from the previous shot
 * (`start_from: previous_last_frame`), it starts from that shot's last frame (the last frame of its video, else its
 * picture) and ends on this shot's picture when the model takes a last frame. What the model cannot take is refused
 * here, naming the field and the model, before anything is charged; a picture that is not there is simply not given.
 */

type Shot = z.infer<typeof StoryboardFrameSchema>;

interface ShotOfNode {
  board: CanvasNode;
  shots: Shot[];
  index: number;
}

/** The first shot, in canvas and board order, whose source is this node. */
async function shotOf(store: Store, projectId: string, canvasId: string, nodeId: string): Promise<ShotOfNode | null> {
  for (const board of await store.layout.nodesOfType(projectId, canvasId, 'storyboardNode')) {
    const shots = dataOf(board, 'storyboardNode')?.frames ?? [];
    const index = shots.findIndex((shot) => shot.sourceNodeId === nodeId);
    if (index >= 0) return { board, shots, index };
  }
  return null;
}

function refused(message: string, details: Record<string, unknown>): CanvasError {
  return new CanvasError('not_runnable', message, details);
}

const shotName = (found: ShotOfNode, index: number) =>
  `shot ${shotNumberOf(found.shots[index]!, index)} of ${dataOf(found.board, 'storyboardNode')?.title ?? found.board.id}`;

export async function shotFrames(
  store: Store,
  projectId: string,
  canvasId: string,
  node: CanvasNode,
  model: RunModel,
  startFrom: StartFrom | undefined,
): Promise<RunFrames | null> {
  const asked = startFrom === 'previous_last_frame';
  if (node.type !== 'videoNode') {
    if (startFrom === undefined) return null;
    throw new CanvasError(
      'invalid_arguments',
      `start_from is for a video run of a shot; ${node.id} is a ${node.type}.`,
      {
        field: 'start_from',
        node_type: node.type,
      },
    );
  }
  const found = await shotOf(store, projectId, canvasId, node.id);
  if (!found) {
    if (!asked) return null;
    throw refused(
      `${node.id} is not the video of any shot, so there is no previous shot to start from: make it a shot's source first.`,
      { field: 'start_from', node_id: node.id },
    );
  }
  const ownAsset = async (url: unknown): Promise<string | null> => {
    const assetId = typeof url === 'string' ? assetIdOfUrl(url) : null;
    const record = assetId ? await store.assets.getAsset(assetId) : undefined;
    return record?.projectId === projectId ? assetId : null;
  };
  const shot = found.shots[found.index]!;
  const picture = await ownAsset(shot.imageUrl);
  const pictureSource = (): RunFrameSource | undefined =>
    picture ? { asset_id: picture, from: 'picture', shot_id: shot.id } : undefined;
  if (!asked) {
    const first = model.accepts.firstFrame ? pictureSource() : undefined;
    return first ? { first } : null;
  }
  if (!model.accepts.firstFrame)
    throw refused(
      `start_from: previous_last_frame needs a model that takes a first frame, and ${model.model} (${model.provider}, the model of ${model.operation} here) takes none. Run it from the shot's picture, or configure a model that takes a first frame.`,
      { field: 'start_from', model: model.model, provider: model.provider, accepts: model.accepts },
    );
  if (found.index === 0)
    throw refused(`${shotName(found, 0)} is the first shot of its board: there is no shot before it to start from.`, {
      field: 'start_from',
      shot_id: shot.id,
    });
  const previous = found.shots[found.index - 1]!;
  const first = await lastFrameOf(store, projectId, canvasId, previous, ownAsset);
  if (!first)
    throw refused(
      `${shotName(found, found.index - 1)}, the shot before, has neither a video nor a picture to start from.`,
      { field: 'start_from', shot_id: previous.id },
    );
  const last = model.accepts.lastFrame ? pictureSource() : undefined;
  return { first, ...(last ? { last } : {}) };
}

/**
 * Where a shot's last frame comes from: its video (its source video card's file, else that card's current result),
 * else its picture as every export reads it (src/exports/board-source.ts).
 */
async function lastFrameOf(
  store: Store,
  projectId: string,
  canvasId: string,
  shot: Shot,
  ownAsset: (url: unknown) => Promise<string | null>,
): Promise<RunFrameSource | null> {
  const source = shot.sourceNodeId
    ? (await store.layout.readNode(projectId, canvasId, shot.sourceNodeId))?.node
    : undefined;
  const versions = source ? await store.versions.ofNode(projectId, canvasId, source.id) : [];
  const latestOf = (kind: 'image' | 'video') => {
    const outputs = versions.length > 0 ? RunOutputs.parse(JSON.parse(versions.at(-1)!.outputs)) : [];
    return outputs.find((output) => output.kind === kind)?.asset_id ?? null;
  };
  if (source?.type === 'videoNode') {
    const video = (await ownAsset(source.data.videoUrl)) ?? (await ownAsset(assetPath(latestOf('video'))));
    if (video) return { asset_id: video, from: 'video_last_frame', shot_id: shot.id };
  }
  const latestPicture = latestOf('image');
  const pictures = new Map(source && latestPicture ? [[source.id, latestPicture]] : []);
  const picture = await ownAsset(assetPath(shotMedia(shot, source, pictures).pictureAssetId));
  return picture ? { asset_id: picture, from: 'picture', shot_id: shot.id } : null;
}

const assetPath = (assetId: string | null) => (assetId ? `/assets/${assetId}` : null);
