import type { CanvasController } from './canvas-state.js';
import { fillBoard, pictureRefusal, setShotPicture } from './shots.js';
import { sendFiles } from './uploads.js';

/**
 * Files onto a board's shots (docs/storyboards.md, "Pictures on shots"): checked before anything is sent (a file that
 * is not a picture is refused, naming it and what it is, and nothing is uploaded or written), sent through the upload
 * route like any upload, then written as one change of the board: one file onto a shot makes it that shot's picture;
 * several fill the board's empty shots in order, then add shots after the last.
 */

export interface ShotTarget {
  boardId: string;
  /** The shot a single file goes to; null: the board (its empty shots, then new ones). */
  shotId: string | null;
  /** How the notice names the place: "Shot 2", "The board Opening". */
  where: string;
}

/** Answers whether the board changed. */
export async function picturesOntoShots(
  controller: CanvasController,
  target: ShotTarget,
  files: readonly File[],
  onProgress: (fraction: number) => void = () => undefined,
): Promise<boolean> {
  if (files.length === 0) return false;
  const refusals = files.map(pictureRefusal).filter((reason): reason is string => reason !== null);
  if (refusals.length > 0) {
    controller.notify('warning', `${target.where}: ${refusals.join(' ')} Nothing was changed.`);
    return false;
  }
  const state = () => controller.store.getState();
  let urls: string[];
  let names: string[];
  try {
    const receipt = await sendFiles(state().address, files, onProgress);
    // The server decides from the bytes: a file named like a picture that is something else is not put on a shot.
    const other = receipt.uploads.filter((upload) => upload.media_kind !== 'image');
    if (other.length > 0) {
      controller.notify(
        'warning',
        `${target.where}: ${other.map((upload) => `${upload.file_name} is ${upload.mime_type}, not a picture.`).join(' ')} Nothing was changed.`,
      );
      return false;
    }
    urls = receipt.uploads.map((upload) => upload.url);
    names = receipt.uploads.map((upload) => upload.file_name);
  } catch (error) {
    controller.notify('error', `${target.where}: nothing was uploaded: ${(error as Error).message}`);
    return false;
  }
  const authors = () => state().lastAuthor;
  const states = () => state().states;
  const intent =
    target.shotId && urls.length === 1
      ? setShotPicture(target.boardId, target.shotId, urls[0]!, `Picture from ${names[0]}`, authors, states)
      : fillBoard(target.boardId, urls, authors, states);
  return controller.submit(intent);
}

/** The files a paste or a drop carries (none when it carries only text or cards). */
export function filesIn(data: DataTransfer | null): File[] {
  return data ? [...data.files] : [];
}
