import type { Readable } from 'node:stream';

/**
 * Where run outputs' bytes live (docs/runs.md, "Where assets are kept"): one interface, three places. `local` is files
 * in this server's data dir (the embedded default); `postgres` is chunks in the database, so every server on one
 * PostgreSQL serves every asset with nothing else to run; `s3` is any S3-compatible object store. The `assets` row of
 * each asset says which one holds it and under which key, so a server reads assets from any place it can reach, also
 * while an operator moves them from one to another (`admin assets migrate`).
 *
 * A run never writes a visible asset itself: it stages its outputs under its own attempt, and they become the asset
 * only inside the transaction that completes the run while the worker still holds its lease (`publish` for files,
 * the row's storage key everywhere else). A worker that lost its lease publishes nothing.
 */

import type { AssetStorage } from '../store/records.js';

export const ASSET_ID = /^asset_[A-Za-z0-9_-]{16}$/;

/** What a reader needs to find an asset's bytes (from its `assets` row). */
export interface AssetLocation {
  assetId: string;
  storage: AssetStorage;
  /** The key in the storage; null for a local file named after the asset. */
  storageKey: string | null;
  byteSize: number;
  mimeType: string;
}

export interface StagedAsset {
  assetId: string;
  storage: AssetStorage;
  storageKey: string;
}

/** Inclusive byte offsets, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface AssetStore {
  readonly storage: AssetStorage;
  /** Writes a run's output where readers cannot see it yet. */
  stage(assetId: string, attempt: string, bytes: Buffer): Promise<StagedAsset>;
  /** Makes staged outputs visible: runs inside the run's completing transaction (a rename for files; else nothing). */
  publish(staged: readonly StagedAsset[]): void;
  /** Removes staged outputs that will never be published. */
  discard(staged: readonly StagedAsset[]): Promise<void>;
  /** The asset's bytes (or a range of them) as a stream, never loaded whole into memory. */
  open(location: AssetLocation, range?: ByteRange): Promise<Readable>;
  /** A URL the client may fetch itself (a presigned S3 GET), or null to stream through this server. */
  directUrl(
    location: AssetLocation,
    expiresInSeconds: number,
    options?: { attachment: boolean },
  ): Promise<string | null>;
  /** Writes a whole asset outside any run (migration, restore); answers its storage key. */
  put(assetId: string, bytes: Readable, byteSize: number): Promise<string>;
  /** Deletes an asset's bytes (after a migration copied them elsewhere). */
  remove(location: AssetLocation): Promise<void>;
  /**
   * Removes what a process left staged when it died between staging a run's outputs and completing the run: staged
   * bytes written before `before` of an asset that has no row at all (`known` answers which of some asset ids have
   * one). Bytes of an asset with a row are kept whatever its row says, so a copy kept by `admin assets migrate
   * --keep-source` or one a migration is writing stays. Answers how many were removed.
   */
  sweepStaged(before: number, known: (assetIds: readonly string[]) => Promise<ReadonlySet<string>>): Promise<number>;
  /** Files sent straight to the store by a presigned upload (S3 only), before the server has taken them in. */
  readonly incoming?: IncomingUploads;
  close(): Promise<void>;
}

/**
 * A direct upload's landing place (`incoming/<upload_id>`): a presigned PUT of exactly the announced size, read once
 * by the server, then removed; one never completed is removed by the staged sweep once its token has expired.
 */
export interface IncomingUploads {
  presignPut(uploadId: string, byteSize: number, expiresInSeconds: number): Promise<string>;
  /** The bytes and their size, or null when nothing was sent. */
  open(uploadId: string): Promise<{ bytes: Readable; byteSize: number } | null>;
  remove(uploadId: string): Promise<void>;
}

/** The asset id at the start of a staged name (`asset_…` then `.`, as stage and put name them), or null. */
export function assetIdOfStagedName(name: string): string | null {
  const candidate = name.slice(0, name.indexOf('.'));
  return ASSET_ID.test(candidate) ? candidate : null;
}

export class AssetMissing extends Error {
  constructor(readonly assetId: string) {
    super(`The bytes of ${assetId} are not where its record says.`);
    this.name = 'AssetMissing';
  }
}
