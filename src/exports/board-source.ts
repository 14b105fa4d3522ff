import { z } from 'zod';
import {
  CameraMove,
  FloorPlanNodeData,
  ShotMark,
  ThreadView,
  dataOf,
  type CanvasEdge,
  type CanvasNode,
  type StoryboardFrame as StoryboardFrameSchema,
} from '../contract/index.js';
import type { AnimaticOptions } from '../contract/exports.js';
import { ASSET_ID } from '../assets/asset-store.js';
import { aspectOf } from '../shared/frame-shape.js';
import { cameraOf, shotDurationMs, shotNumberOf, words } from '../shared/shot-words.js';

type StoryboardFrame = z.infer<typeof StoryboardFrameSchema>;

/**
 * What an export is made from, read once when the job is queued and stored with it: the board's shots with
 * their words and the assets of their pictures, clips and voices. The worker renders this, never the canvas as it is
 * later, so the same revision and options always give the same file.
 *
 * Where a shot's media comes from (docs/deliverables.md, "Sources"): its picture is the shot's own `imageUrl`, else the
 * picture of the card that makes it (`sourceNodeId`: its `imageUrl`, else its latest run's picture); a video card as
 * the source makes it a video shot. A voice-over is an audio card connected to the board by an edge whose `data.shotId`
 * names the shot; the music bed is the one chosen in the options, else an audio card connected without a shot. Only
 * this project's assets are used: a path to another project's asset counts as missing.
 */

export const BoardSource = z.object({
  projectName: z.string(),
  canvasTitle: z.string(),
  boardTitle: z.string(),
  aspect: z.number().positive(),
  shots: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      caption: z.string().nullable(),
      action: z.string().nullable(),
      dialogue: z.string().nullable(),
      notes: z.string().nullable(),
      camera: z.string().nullable(),
      lensMm: z.number().nullable(),
      durationMs: z.number().positive(),
      pictureAssetId: z.string().nullable(),
      videoAssetId: z.string().nullable(),
      voiceOverAssetId: z.string().nullable(),
      /** The shot's notes-layer marks, drawn over its picture in every export. */
      marks: z.array(ShotMark).default([]),
      /** The shot's camera move (src/contract/shots.ts), played by the animatic and written by the timelines. */
      move: CameraMove.nullable().default(null),
    }),
  ),
  musicAssetId: z.string().nullable(),
  logoAssetId: z.string().nullable(),
  /** Sound cards the board uses that have no sound yet (no file, no finished run), said in the export's warnings. */
  silentSounds: z.array(z.string()).default([]),
  /** The frames as the board held them (the shot list's columns read scene, cast, location and status from them). */
  frames: z.array(z.record(z.string(), z.unknown())),
  /** The floor plans with a camera on one of the board's shots (docs/storyboards.md, "Floor plans"). */
  plans: z
    .array(z.object({ title: z.string(), plan: FloorPlanNodeData, shotNumbers: z.record(z.string(), z.string()) }))
    .default([]),
  /** The board's open review threads, when the export carries notes (review-notes.ts); none otherwise. */
  notes: z.array(ThreadView).default([]),
  /** Open threads past the bound an export carries, said in its warnings. */
  notesLeftOut: z.int().min(0).default(0),
});
export type BoardSource = z.infer<typeof BoardSource>;

/** The asset a node-data URL field names (`/assets/<id>`, signed or not), or null (none, or a URL elsewhere). */
export function assetIdOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  const match = /^\/assets\/([^/?#]+)/.exec(url);
  return match && ASSET_ID.test(match[1]!) ? match[1]! : null;
}

/** What a shot shows: its picture and, for a video shot, its clip (and the clip's length), as assets. */
export interface ShotMedia {
  pictureAssetId: string | null;
  videoAssetId: string | null;
  clipMs: number | null;
}

/**
 * Where a shot's media comes from (docs/deliverables.md, "Sources"): the shot's own picture, else the card that makes
 * it (`sourceNodeId`): a video card's clip and poster, another card's picture or its latest run's picture. The one
 * rule every reader of a shot's media follows: exports, and what an approval covers.
 */
export function shotMedia(
  frame: Pick<StoryboardFrame, 'imageUrl' | 'sourceNodeId'>,
  source: CanvasNode | undefined,
  latestPictures: ReadonlyMap<string, string>,
): ShotMedia {
  const sourceData = (source?.data ?? {}) as {
    imageUrl?: unknown;
    videoUrl?: unknown;
    previewImageUrl?: unknown;
    durationMs?: unknown;
  };
  const video = source?.type === 'videoNode' ? assetIdOf(sourceData.videoUrl) : null;
  // A video shot prints its own picture, else its clip's poster; the animatic plays the clip.
  const picture =
    assetIdOf(frame.imageUrl) ??
    (video
      ? assetIdOf(sourceData.previewImageUrl)
      : (assetIdOf(sourceData.imageUrl) ?? (source ? (latestPictures.get(source.id) ?? null) : null)));
  return {
    pictureAssetId: picture,
    videoAssetId: video,
    clipMs: video && typeof sourceData.durationMs === 'number' ? sourceData.durationMs : null,
  };
}

export interface BoardReadings {
  board: CanvasNode;
  /** Every node and edge of the canvas at the revision (a board's sources and sounds are found among them). */
  nodes: ReadonlyMap<string, CanvasNode>;
  edges: readonly CanvasEdge[];
  /** The picture of each node's latest succeeded run, by node id (a source card whose data holds no picture yet). */
  latestPictures: ReadonlyMap<string, string>;
  /** The sound of each node's latest succeeded run, by node id (a voice-over card that was run, not given a file). */
  latestSounds?: ReadonlyMap<string, string>;
  projectName: string;
  canvasTitle: string;
}

export function boardSource(
  readings: BoardReadings,
  options: { music_node_id?: AnimaticOptions['music_node_id']; logo_asset_id?: string | null },
): BoardSource {
  const { board, nodes, edges } = readings;
  const data = dataOf(board, 'storyboardNode') ?? { frames: [] as StoryboardFrame[] };
  const silentSounds: string[] = [];
  /** A sound card's file, else its latest run's sound; a sound card with neither is named in the warnings. */
  const soundOf = (node: CanvasNode | undefined, use: string): string | null => {
    const sound = dataOf(node, 'audioNode');
    if (!node || !sound) return null;
    const asset = assetIdOf(sound.audioUrl) ?? readings.latestSounds?.get(node.id) ?? null;
    if (!asset) {
      const name = words(sound.displayName) ?? node.id;
      silentSounds.push(`${use} "${name}" has no sound yet (no file, no finished run): it is left out.`);
    }
    return asset;
  };
  const voices = new Map<string, string>();
  let connectedMusic: string | null = null;
  for (const edge of edges) {
    if (edge.target !== board.id) continue;
    const shotId = typeof edge.data?.shotId === 'string' ? edge.data.shotId : null;
    // The music bed chosen in the options stands for any connected one: a connected card it replaces is not used.
    if (!shotId && options.music_node_id) continue;
    const sound = soundOf(nodes.get(edge.source), shotId ? 'The voice-over' : 'The sound card');
    if (!sound) continue;
    if (shotId) voices.set(shotId, sound);
    else connectedMusic ??= sound;
  }
  const chosenMusic = options.music_node_id ? soundOf(nodes.get(options.music_node_id), 'The music bed') : null;

  return {
    projectName: readings.projectName,
    canvasTitle: readings.canvasTitle,
    boardTitle: words(data.title) ?? words(data.displayName) ?? board.id,
    aspect: aspectOf(data.aspectRatio),
    shots: data.frames.map((frame, index) => {
      const source = typeof frame.sourceNodeId === 'string' ? nodes.get(frame.sourceNodeId) : undefined;
      const {
        pictureAssetId: picture,
        videoAssetId: video,
        clipMs,
      } = shotMedia(frame, source, readings.latestPictures);
      return {
        id: frame.id,
        number: shotNumberOf(frame, index),
        caption: words(frame.caption),
        action: words(frame.action),
        dialogue: words(frame.dialogue),
        notes: words(frame.notes),
        camera: cameraOf(frame),
        lensMm: frame.lensMm ?? null,
        durationMs: shotDurationMs(frame, clipMs),
        pictureAssetId: picture,
        videoAssetId: video,
        voiceOverAssetId: voices.get(frame.id) ?? null,
        marks: frame.marks ?? [],
        move: frame.move ?? null,
      };
    }),
    musicAssetId: options.music_node_id ? chosenMusic : connectedMusic,
    logoAssetId: options.logo_asset_id ?? null,
    silentSounds,
    frames: data.frames,
    plans: plansOf(board.id, data.frames, readings.nodes),
    // Review notes are not the layout: the exports that carry them add them (backend/deliverables/exports.ts).
    notes: [],
    notesLeftOut: 0,
  };
}

/** The canvas's floor plans with a camera linked to one of this board's shots, in canvas order. */
function plansOf(
  boardId: string,
  frames: readonly StoryboardFrame[],
  nodes: ReadonlyMap<string, CanvasNode>,
): BoardSource['plans'] {
  const numbers = new Map(frames.map((frame, index) => [frame.id, shotNumberOf(frame, index)]));
  const plans: BoardSource['plans'] = [];
  for (const node of nodes.values()) {
    const plan = dataOf(node, 'floorPlanNode');
    if (!plan) continue;
    const shotNumbers: Record<string, string> = {};
    for (const camera of plan.cameras) {
      const number = camera.shot?.board_node_id === boardId ? numbers.get(camera.shot.shot_id) : undefined;
      if (number !== undefined) shotNumbers[camera.id] = number;
    }
    if (Object.keys(shotNumbers).length > 0)
      plans.push({ title: words(plan.title) ?? words(plan.displayName) ?? node.id, plan, shotNumbers });
  }
  return plans;
}
