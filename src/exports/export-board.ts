import type { CameraMove } from '../contract/shots.js';
import type { FloorPlanNodeData, ThreadView } from '../contract/index.js';

/**
 * A board as every export reads it: one storyboard node at one revision, its shots in order with each
 * one's duration settled and its media fetched to local files. The job builds it once; each format only reads it.
 */

export interface ExportShot {
  /** The shot's stable id. */
  id: string;
  /** The number people see: "1", "2A"; the position in the board when the shot has none. */
  number: string;
  caption: string | null;
  action: string | null;
  dialogue: string | null;
  notes: string | null;
  /** "Close-up · Low angle · Dolly / track": the shot's size, angle and movement in words, null when none is set. */
  camera: string | null;
  lensMm: number | null;
  /** How long the shot plays, in milliseconds: its own duration, else one read from its dialogue, else the default. */
  durationMs: number;
  /** A local file with the shot's picture (PNG, JPEG or WebP), or null when the shot has none (a placeholder prints). */
  picture: string | null;
  /** A local file with the shot's video clip (played trimmed to the shot in the animatic), or null. */
  video: string | null;
  /** A local file with the voice-over that starts with the shot, or null. */
  voiceOver: string | null;
  /** The camera move over the shot's still, or none (the animatic's push-in option then applies). */
  move?: CameraMove | null;
}

export interface ExportBoard {
  projectName: string;
  canvasTitle: string;
  boardTitle: string;
  /** The canvas revision the board was read at. */
  revision: number;
  /** The date printed in headers, YYYY-MM-DD (the job's creation date, so a re-run prints the same). */
  date: string;
  /** Width over height of the board's frames (16:9 is 1.777…). */
  aspect: number;
  shots: ExportShot[];
  /** A local file with the music bed, or null. */
  music: string | null;
  /** Sounds the board names that could not be found (said in the job's warnings). */
  missingSounds?: readonly string[];
  /** The frames as the board held them (the CSV and XLSX shot lists print scene, cast, location and status too). */
  sourceFrames?: ReadonlyArray<Record<string, unknown>>;
  /** The floor plans with a camera on one of this board's shots (the PDF prints each after the shots). */
  plans?: readonly ExportPlan[];
  /**
   * The board's open review threads when the export carries notes (timeline markers, the PDF's notes pages), read
   * when it was queued (review-notes.ts); `notesLeftOut` counts the open threads past the bound.
   */
  notes?: readonly ThreadView[];
  notesLeftOut?: number;
}

/** A floor plan as an export prints it: its data, and the number of the shot of this board each camera films. */
export interface ExportPlan {
  title: string;
  plan: FloorPlanNodeData;
  /** Camera id → the number of its shot on this board (a camera on another board's shot is not in it). */
  shotNumbers: Readonly<Record<string, string>>;
}

/** A file an export made. */
export interface ExportFile {
  bytes: Buffer;
  contentType: string;
  /** The file name's extension, without the dot. */
  extension: string;
}

/** Told how far an export has come, 0 to 100, with a word on what it is doing. */
export type ExportProgress = (percent: number, message: string) => void;
