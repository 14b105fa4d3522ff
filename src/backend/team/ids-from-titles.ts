import { CANVAS_ID_MAX_LENGTH } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';

/**
 * People name projects and canvases by title ("Spring Commercial"); the id agents and URLs use is derived from it:
 * lower case, words joined by hyphens, made unique with -2, -3 … when taken. Project ids keep letters of any script
 * (the spec allows them); canvas ids are ASCII letters, digits, _ and - only, so accents are dropped and a title of
 * other scripts falls back to "canvas".
 */

const PROJECT_ID_CHARS = 60;

function words(title: string): string[] {
  return title
    .toLowerCase()
    .split(/[\s_]+/u)
    .filter(Boolean);
}

export function projectIdFrom(title: string): string {
  const id = words(title)
    .map((word) => word.replace(/[/\\?#%\p{C}]/gu, ''))
    .filter(Boolean)
    .join('-')
    .slice(0, PROJECT_ID_CHARS)
    .replace(/^\.{1,2}$/, '');
  return id || 'project';
}

export function canvasIdFrom(title: string): string {
  const id = words(title.normalize('NFKD').replace(/\p{M}/gu, ''))
    .map((word) => word.replace(/[^a-z0-9-]/g, ''))
    .filter(Boolean)
    .join('-')
    .slice(0, CANVAS_ID_MAX_LENGTH - 4)
    .replace(/^-+|-+$/g, '');
  return id || 'canvas';
}

/**
 * Creates under the first free id of `base`, `base-2`, `base-3` …: `create` throws already_exists when an id is taken
 * (ids of deleted projects and canvases count: they are never reused).
 */
export async function createUnder(base: string, create: (id: string) => Promise<void>): Promise<string> {
  for (let attempt = 1; attempt <= 100; attempt += 1) {
    const id = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      await create(id);
      return id;
    } catch (error) {
      if (!(error instanceof CanvasError && error.code === 'already_exists')) throw error;
    }
  }
  throw new CanvasError('already_exists', `Every id from ${base} to ${base}-100 is taken: choose another title.`);
}
