import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { CanvasRef, DirectUploadBody, DirectUploadTicket, UploadReceipt } from '../../contract/index.js';
import type { AssetStore } from '../../assets/asset-store.js';
import { cleanFileName } from '../../assets/uploads/file-name.js';
import { CanvasError } from '../../shared/errors.js';
import type { Store } from '../../store/store.js';
import type { CallerContext } from '../auth/caller.js';
import type { Uploads } from './uploads.js';

/**
 * Direct uploads (docs/storyboards.md, "Uploads"): with the S3 asset store a large file is PUT
 * straight to the bucket by a presigned URL, so the server never carries it in; completing the upload takes the
 * object through exactly the checks of any upload (type from the bytes, limits, pictures encoded again) and keeps the
 * result, then removes the object. The ticket's token is signed and names the project, the canvas, the upload and its
 * size, so a completion cannot take in anything else; an upload never completed is removed by the staged sweep.
 */

/** The presigned PUT's life, and the token's: the token outlives the URL so a slow PUT can still be completed. */
const PUT_SECONDS = 15 * 60;
const TOKEN_MS = 45 * 60_000;

const TokenClaims = z.object({
  p: z.string(),
  c: z.string(),
  u: z.string().regex(/^up_[A-Za-z0-9_-]{22}$/),
  s: z.int().min(1),
  n: z.string(),
  e: z.int(),
});
type TokenClaims = z.infer<typeof TokenClaims>;

export function createDirectUploads(options: {
  store: Store;
  uploads: Uploads;
  assetStore: AssetStore;
  clock?: () => number;
}) {
  const { store, uploads, assetStore } = options;
  const clock = options.clock ?? Date.now;
  const secret = () => store.sharedSecret('direct-uploads', () => randomBytes(32).toString('base64url'));
  const signature = async (body: string) =>
    createHmac('sha256', await secret())
      .update(body)
      .digest('base64url');

  function incomingStore() {
    if (!assetStore.incoming)
      throw new CanvasError(
        'invalid_arguments',
        'Direct uploads need the S3 asset store (--asset-store s3); send the file to …/uploads instead.',
        { asset_store: assetStore.storage },
      );
    return assetStore.incoming;
  }

  async function claimsOf(token: string, ref: CanvasRef): Promise<TokenClaims> {
    const [body = '', sig = ''] = token.split('.');
    const expected = Buffer.from(await signature(body));
    const given = Buffer.from(sig);
    const invalid = new CanvasError('invalid_arguments', 'upload_token: this is not a token this server gave.', {
      field: 'upload_token',
    });
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
    const claims = TokenClaims.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
    if (!claims.success || claims.data.p !== ref.projectId || claims.data.c !== ref.canvasId) throw invalid;
    if (claims.data.e < clock())
      throw new CanvasError('invalid_arguments', 'upload_token: this upload expired; start it again.', {
        field: 'upload_token',
      });
    return claims.data;
  }

  return {
    /**
     * A presigned PUT for one file of the announced size (editors; checked first against the upload limit, the
     * caller's hourly upload budget and the project's storage quota).
     */
    async ticket(ctx: CallerContext, ref: CanvasRef, body: DirectUploadBody): Promise<DirectUploadTicket> {
      await uploads.authorize(ctx, ref);
      const incoming = incomingStore();
      if (body.byte_size > uploads.settings.maxBytes)
        throw new CanvasError(
          'payload_too_large',
          `${body.file_name}: ${body.byte_size} bytes is over the upload limit of ${uploads.settings.maxBytes} bytes.`,
          { file_name: body.file_name, limit_bytes: uploads.settings.maxBytes },
        );
      // A cheap look before the bytes are sent; completing the upload checks again, in its own transaction.
      await uploads.requireRoomFor(ctx, ref, body.byte_size);
      const uploadId = `up_${randomBytes(16).toString('base64url')}`;
      const now = clock();
      const claims: TokenClaims = {
        p: ref.projectId,
        c: ref.canvasId,
        u: uploadId,
        s: body.byte_size,
        n: cleanFileName(body.file_name),
        e: now + TOKEN_MS,
      };
      const encoded = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return {
        upload_token: `${encoded}.${await signature(encoded)}`,
        method: 'PUT',
        url: await incoming.presignPut(uploadId, body.byte_size, PUT_SECONDS),
        headers: { 'content-length': String(body.byte_size) },
        expires_at: new Date(now + PUT_SECONDS * 1000).toISOString(),
      };
    },

    /** Takes the sent file in as an upload of this canvas, and removes it from the bucket's landing place. */
    async complete(ctx: CallerContext, ref: CanvasRef, token: string): Promise<UploadReceipt> {
      await uploads.authorize(ctx, ref);
      const incoming = incomingStore();
      const claims = await claimsOf(token, ref);
      const sent = await incoming.open(claims.u);
      if (!sent)
        throw new CanvasError('not_found', `${claims.n}: nothing was sent for this upload (PUT the file first).`, {
          file_name: claims.n,
        });
      const work = await uploads.workDir();
      try {
        const path = join(work.dir, 'direct');
        let seen = 0;
        // The signed length makes S3 refuse any other size; counted again here rather than trusted.
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            seen += chunk.length;
            done(seen > claims.s ? new Error('longer than announced') : null, chunk);
          },
        });
        try {
          await pipeline(sent.bytes, counted, createWriteStream(path));
        } catch (error) {
          if (seen <= claims.s) throw error;
        }
        if (seen !== claims.s)
          throw new CanvasError(
            'invalid_arguments',
            `${claims.n}: ${seen} bytes arrived where ${claims.s} were announced; start the upload again.`,
            { file_name: claims.n },
          );
        const receipt = await uploads.accept(ctx, ref, [{ path, fileName: claims.n }]);
        await incoming.remove(claims.u).catch(() => undefined);
        return receipt;
      } catch (error) {
        // A refused file is not kept anywhere: neither here nor in the bucket.
        await incoming.remove(claims.u).catch(() => undefined);
        throw error;
      } finally {
        await work.release();
      }
    },
  };
}

export type DirectUploads = ReturnType<typeof createDirectUploads>;
