import { loadSharp } from '../../shared/sharp.js';
import type { CallerContext } from '../auth/caller.js';
import { projectRole } from '../auth/access.js';
import type { Actor } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { personKeyOf } from '../../store/people-name-store.js';
import { prepareUpload, type UploadLimits } from '../../assets/uploads/intake.js';
import { UploadRefused } from '../../assets/uploads/prepared.js';
import { CanvasError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { pictureUrlOf } from '../../contract/index.js';

/**
 * The picture a person is shown by (docs/ui.md, "Names"): sent through the upload rules (its type found in its bytes,
 * its pixels bounded before decoding, re-encoded without metadata), then cut to a square of PICTURE_EDGE pixels as WebP
 * and kept with the person, not in any project. It is shown to the people who share a project with its person, and
 * to its person.
 */

export const PICTURE_EDGE = 256;
/** A picture sent is read up to this size (or the upload limit, if lower): a phone's photo fits. */
export const PICTURE_MAX_BYTES = 12 * 1024 * 1024;
const PICTURE_ID_PREFIX = 'pic_';

export function createPeoplePictures(store: Store, limits: UploadLimits) {
  const maxBytes = Math.min(limits.maxBytes, PICTURE_MAX_BYTES);
  function ownPerson(ctx: CallerContext, what: string): Actor {
    if (ctx.principal.kind !== 'session') throw new CanvasError('forbidden', `Only a signed-in person ${what}.`);
    return ctx.principal.person;
  }

  /** Whether the caller shares a project with the person (or is the person). */
  async function canSee(ctx: CallerContext, person: Actor): Promise<boolean> {
    if (ctx.principal.kind === 'session' && personKeyOf(ctx.principal.person) === personKeyOf(person)) return true;
    for (const { projectId } of await store.directory.membershipsOf(person)) {
      if (await projectRole(store, ctx, projectId).catch(() => null)) return true;
    }
    return false;
  }

  return {
    limits: { maxBytes },

    /** Only a signed-in person sets their own picture: checked before a byte of the body is read. */
    authorize(ctx: CallerContext): void {
      ownPerson(ctx, 'sets their own picture');
    },

    /** Makes the received file the caller's picture; answers its URL. */
    async set(ctx: CallerContext, file: string, workDir: string): Promise<{ picture_url: string }> {
      const person = ownPerson(ctx, 'sets their own picture');
      let prepared;
      try {
        prepared = await prepareUpload(file, workDir, { maxBytes, maxImagePixels: limits.maxImagePixels });
      } catch (error) {
        if (error instanceof UploadRefused) throw new CanvasError(error.code, error.message, error.details);
        throw error;
      }
      if (prepared.mediaKind !== 'image')
        throw new CanvasError(
          'unsupported_media_type',
          `This file is ${prepared.main.mimeType}; a picture of yourself is a PNG, JPEG, WebP, GIF or AVIF.`,
          { found: prepared.main.mimeType },
        );
      // The first frame, upright, cut to a centred square: what every screen shows in a circle.
      const sharp = await loadSharp();
      const webp = await sharp(prepared.main.path, { limitInputPixels: limits.maxImagePixels, pages: 1 })
        .resize({ width: PICTURE_EDGE, height: PICTURE_EDGE, fit: 'cover', position: 'attention' })
        .webp({ quality: 82 })
        .toBuffer();
      const pictureId = newId(PICTURE_ID_PREFIX);
      await store.pictures.setPicture(person, pictureId, webp);
      return { picture_url: pictureUrlOf(pictureId) };
    },

    async remove(ctx: CallerContext): Promise<void> {
      await store.pictures.removePicture(ownPerson(ctx, 'removes their own picture'));
    },

    /** A picture by its id, to a caller who may see its person; anyone else learns nothing (404, as for none). */
    async read(ctx: CallerContext, pictureId: string): Promise<Buffer> {
      const picture = await store.pictures.picture(pictureId);
      if (!picture || !(await canSee(ctx, picture.person))) throw new CanvasError('not_found', 'No such picture.');
      return picture.webp;
    },

    /** The picture URL of each of these people that has one, keyed `issuer|subject`. */
    async urlsOf(people: readonly Actor[]): Promise<Map<string, string>> {
      const ids = await store.pictures.pictureIdsOf(people);
      return new Map([...ids].map(([key, id]) => [key, pictureUrlOf(id)]));
    },
  };
}

export type PeoplePictures = ReturnType<typeof createPeoplePictures>;
