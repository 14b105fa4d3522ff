import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ServeConfig } from '../config/index.js';
import {
  AssetMissing,
  assetIdOfStagedName,
  type AssetLocation,
  type AssetStore,
  type StagedAsset,
} from './asset-store.js';

/**
 * Assets in any S3-compatible object store (`--asset-store s3`). Readers get a presigned GET that expires with the
 * signed asset URL it replaces; the server never carries the bytes of a download. A run's output is uploaded under a
 * key of its attempt; the run's completing transaction names that key in the asset's row, which publishes it (an
 * attempt that loses its lease deletes its upload).
 *
 * Request checksums are computed only when the API requires them: streamed uploads otherwise go out as
 * `aws-chunked` with a trailer, which several S3-compatible stores (and s3rver, our stand-in) keep verbatim.
 */

export type S3Settings = Pick<
  ServeConfig,
  's3Bucket' | 's3Region' | 's3Endpoint' | 's3Prefix' | 's3ForcePathStyle' | 's3AccessKeyId' | 's3SecretAccessKey'
>;

export function s3ClientConfigOf(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.s3Region,
    ...(settings.s3Endpoint ? { endpoint: settings.s3Endpoint } : {}),
    forcePathStyle: settings.s3ForcePathStyle,
    ...(settings.s3AccessKeyId && settings.s3SecretAccessKey
      ? { credentials: { accessKeyId: settings.s3AccessKeyId, secretAccessKey: settings.s3SecretAccessKey } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** The S3 store when a bucket is configured, else null (this process then cannot read `s3` assets). */
export function s3StoreOf(settings: S3Settings): AssetStore | null {
  if (!settings.s3Bucket) return null;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return createS3AssetStore(new S3Client(s3ClientConfigOf(settings)), settings.s3Bucket, settings.s3Prefix);
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

export function createS3AssetStore(client: S3Client, bucket: string, prefix = ''): AssetStore {
  const keyOf = (name: string) => `${prefix}${name}`;
  const stagedName = (assetId: string, attempt: string) =>
    `staging/${assetId}.${attempt}.${randomBytes(4).toString('hex')}`;

  return {
    storage: 's3',

    async stage(assetId, attempt, bytes): Promise<StagedAsset> {
      const storageKey = keyOf(stagedName(assetId, attempt));
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: storageKey, Body: bytes, ContentLength: bytes.length }),
      );
      return { assetId, storage: 's3', storageKey };
    },

    publish() {
      // The completing transaction records the staged key in the asset's row: that is the publication.
    },

    async discard(staged) {
      for (const asset of staged) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: asset.storageKey }));
    },

    // A run's output stays under its staged key once published, so only objects of assets without a row are removed,
    // a page (up to 1,000 keys) checked at once.
    async sweepStaged(before, known) {
      const stagedPrefix = keyOf('staging/');
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: stagedPrefix, ContinuationToken: token }),
        );
        const old = (page.Contents ?? []).flatMap((object) => {
          const assetId = object.Key ? assetIdOfStagedName(object.Key.slice(stagedPrefix.length)) : null;
          return object.Key && assetId && (object.LastModified?.getTime() ?? before) < before
            ? [{ key: object.Key, assetId }]
            : [];
        });
        const withRows = await known(old.map((object) => object.assetId));
        for (const object of old) {
          if (withRows.has(object.assetId)) continue;
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.key }));
          removed += 1;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      // Direct uploads never completed: their token expired long before `before` (no row ever names them).
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: keyOf('incoming/'), ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (!object.Key || (object.LastModified?.getTime() ?? before) >= before) continue;
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
          removed += 1;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return removed;
    },

    async open(location: AssetLocation, range) {
      if (!location.storageKey) throw new AssetMissing(location.assetId);
      if (location.byteSize === 0) return Readable.from([]);
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: location.storageKey,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) throw new AssetMissing(location.assetId);
        throw error;
      }
    },

    async directUrl(location, expiresInSeconds, options) {
      if (!location.storageKey) return null;
      // The object store answers with our type, and anything not shown inline as a download, as our asset route does.
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket,
          Key: location.storageKey,
          ResponseContentType: location.mimeType,
          ...(options?.attachment ? { ResponseContentDisposition: `attachment; filename="${location.assetId}"` } : {}),
        }),
        { expiresIn: expiresInSeconds },
      );
    },

    async put(assetId, bytes, byteSize) {
      const storageKey = keyOf(`assets/${assetId}.${randomBytes(4).toString('hex')}`);
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: storageKey, Body: bytes, ContentLength: byteSize }),
      );
      return storageKey;
    },

    async remove(location) {
      if (location.storageKey) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: location.storageKey }));
    },

    incoming: {
      presignPut: (uploadId, byteSize, expiresInSeconds) =>
        getSignedUrl(
          client,
          new PutObjectCommand({ Bucket: bucket, Key: keyOf(`incoming/${uploadId}`), ContentLength: byteSize }),
          // The size is signed: S3 refuses a body of any other length.
          { expiresIn: expiresInSeconds, signableHeaders: new Set(['content-length']) },
        ),
      async open(uploadId) {
        try {
          const answer = await client.send(
            new GetObjectCommand({ Bucket: bucket, Key: keyOf(`incoming/${uploadId}`) }),
          );
          return { bytes: answer.Body as Readable, byteSize: answer.ContentLength ?? 0 };
        } catch (error) {
          if (isNotFound(error) || (error as { name?: string }).name === 'NoSuchKey') return null;
          throw error;
        }
      },
      async remove(uploadId) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(`incoming/${uploadId}`) }));
      },
    },

    async close() {
      client.destroy();
    },
  };
}
