import { ProviderError } from '../shared/provider-error.js';
import type { Logger } from '../shared/logger.js';
import type { AssetRecord } from '../store/asset-records.js';
import { createEs256Signer, readCredentials, signableType, signBytes, type CoseSigner } from './c2pa-signer.js';
import { createHash } from 'node:crypto';
import { CredentialsError, signingCredentials, type SigningCredentials } from './credentials.js';
import { gatherIngredients, type Ingredient, type IngredientUse } from './ingredients.js';
import {
  exportManifest,
  runOutputManifest,
  uploadManifest,
  type ExportFacts,
  type ManifestDefinition,
  type RunFacts,
} from './manifests.js';

/**
 * Content credentials on what canvas-mcp makes (docs/provenance.md, "What is signed"): every picture, sound and film a
 * run produces and every PDF or animatic export is signed with a C2PA manifest before it is stored. Types C2PA cannot
 * carry (WebM, Ogg, GLB, JSON, text exports) are stored as they are. Uploads are people's own files: never signed.
 *
 * When signing fails: with a key and certificate configured (`c2paKeyFile`, `c2paCertFile`) the deployment promised
 * signed outputs, so the run or export fails (code `content_credentials_failed`) and nothing unsigned is kept; with
 * the deployment's own certificate the output is kept unsigned and a warning is logged (never the key).
 */

/**
 * Larger files are stored unsigned (c2pa-wasm holds the whole file, and its copy, in WebAssembly memory); a deployment
 * may set a lower limit (`--c2pa-sign-max-bytes`), never a higher one.
 */
export const SIGN_BYTES_LIMIT = 512 * 1024 * 1024;

export interface ContentCredentialsOptions {
  store: {
    sharedSecret(name: string, make?: () => string | Promise<string>): Promise<string>;
    assets: { getAsset(assetId: string): Promise<AssetRecord | null | undefined> };
  };
  /** A local file with an asset's bytes (src/assets/assets.ts). */
  inputFile(assetId: string): Promise<{ path: string; release(): Promise<void> } | null>;
  keyFile?: string | undefined;
  certFile?: string | undefined;
  /** The largest file signed (`--c2pa-sign-max-bytes`); SIGN_BYTES_LIMIT when not given. */
  signMaxBytes?: number | undefined;
  logger: Logger;
  clock?: () => number;
}

/** What a run knows of itself when its outputs are signed. */
export interface RunToSign extends RunFacts {
  input: Record<string, unknown>;
  /** The reference pictures the run was given (asset ids). */
  references: readonly string[];
}

export interface FileToSign {
  bytes: Buffer;
  mimeType: string;
  title: string;
}

export interface ExportToSign extends Omit<ExportFacts, 'mimeType' | 'title' | 'createdAt'> {
  /** The assets the board's shots show and play (pictures, films, sounds, the logo), as local files. */
  components: readonly string[];
  fileOf(assetId: string): string | null;
}

export interface ContentCredentials {
  /** Whether a failure fails the run or export (credentials configured) or keeps the file unsigned. */
  readonly failClosed: boolean;
  /** A signer for one run's outputs: its ingredients are gathered once, at the first output that is signed. */
  forRun(run: RunToSign, log: Logger): { sign(output: FileToSign & { assetId: string }): Promise<Buffer> };
  /**
   * An export's file signed, or kept unsigned with the reason in words for the export's warnings (docs/provenance.md):
   * an export that is not signed never ends a silent `succeeded`.
   */
  signExport(job: ExportToSign, file: FileToSign, log: Logger): Promise<SignedExport>;
  /**
   * An upload whose original carried credentials: the kept (re-encoded) file gets a manifest naming the original as
   * its parent ingredient, with the original's own manifest. The kept bytes as they are when the original carried none.
   */
  signUpload(upload: UploadToSign, log: Logger): Promise<Buffer>;
}

export interface SignedExport {
  bytes: Buffer;
  /** Why the file was kept without content credentials, for the export's warnings; null when signed or not signable. */
  unsigned: string | null;
}

export interface UploadToSign {
  projectId: string;
  fileName: string;
  /** The file as kept, and its type. */
  kept: FileToSign;
  /** The file as the person sent it. */
  original: { bytes: Buffer; mimeType: string };
}

const asString = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The input assets a run's input names (src/runs/operations.ts), and how each took part. */
export function runIngredientUses(run: Pick<RunToSign, 'input' | 'references'>): IngredientUse[] {
  const uses: IngredientUse[] = [];
  const source = asString(run.input.sourceAssetId);
  if (source) uses.push({ assetId: source, relationship: 'parentOf' });
  const clips = Array.isArray(run.input.clips) ? (run.input.clips as unknown[]) : [];
  for (const clip of clips) {
    const assetId = asString((clip as { assetId?: unknown } | null)?.assetId);
    if (assetId) uses.push({ assetId, relationship: 'componentOf' });
  }
  const audio = asString(run.input.audioAssetId);
  if (audio) uses.push({ assetId: audio, relationship: 'componentOf' });
  for (const reference of run.references) uses.push({ assetId: reference, relationship: 'inputTo' });
  return uses;
}

/** A composition all of whose clips are this server's uploads: nothing in it was generated. */
function composedOfUploads(run: RunToSign, ingredients: readonly Ingredient[]): boolean {
  const clips = Array.isArray(run.input.clips) ? (run.input.clips as Array<{ assetId?: unknown }>) : [];
  const known = new Set(ingredients.map((ingredient) => ingredient.facts.assetId));
  return (
    clips.every((clip) => typeof clip?.assetId === 'string' && known.has(clip.assetId)) &&
    ingredients.every((ingredient) => !ingredient.facts.generated)
  );
}

const reasonOf = (error: unknown) =>
  error instanceof CredentialsError
    ? error.message
    : (error instanceof Error ? error.message : String(error)).slice(0, 300);

export function createContentCredentials(options: ContentCredentialsOptions): ContentCredentials {
  const clock = options.clock ?? Date.now;
  const failClosed = !!(options.keyFile && options.certFile);
  const signMaxBytes = Math.min(options.signMaxBytes ?? SIGN_BYTES_LIMIT, SIGN_BYTES_LIMIT);
  let signer: Promise<{ cose: CoseSigner; source: SigningCredentials['source'] }> | undefined;

  /** Loaded at first need and kept; a failure is tried again at the next file. */
  function signerOf() {
    signer ??= (async () => {
      const credentials = await signingCredentials({
        keyFile: options.keyFile,
        certFile: options.certFile,
        store: options.store,
      });
      const cose = await createEs256Signer(credentials.keyPem, credentials.chainPem);
      options.logger.info({ source: credentials.source }, 'content credentials: signing key loaded');
      return { cose, source: credentials.source };
    })().catch((error: unknown) => {
      signer = undefined;
      throw error;
    });
    return signer;
  }

  /** The file signed; or kept as it is, with why in words (`unsigned`), when it is too large or signing failed open. */
  async function signing(
    what: string,
    file: FileToSign,
    log: Logger,
    build: () => Promise<{ manifest: ManifestDefinition; ingredients: readonly Ingredient[] }>,
  ): Promise<{ bytes: Buffer; unsigned: string | null }> {
    if (!signableType(file.mimeType)) return { bytes: file.bytes, unsigned: null };
    if (file.bytes.length > signMaxBytes) {
      log.warn(
        { bytes: file.bytes.length, limit: signMaxBytes },
        `content credentials: ${what} is too large to sign here; stored without them`,
      );
      return {
        bytes: file.bytes,
        unsigned: `The file is not signed with content credentials: at ${sizeInWords(file.bytes.length)} it is over this server's signing limit of ${sizeInWords(signMaxBytes)} (--c2pa-sign-max-bytes).`,
      };
    }
    try {
      const { cose } = await signerOf();
      const { manifest, ingredients } = await build();
      const bytes = await signBytes({
        bytes: file.bytes,
        mimeType: file.mimeType,
        manifest,
        ingredients: ingredients.map((ingredient) => ingredient.input),
        signer: cose,
      });
      return { bytes, unsigned: null };
    } catch (error) {
      const reason = reasonOf(error);
      if (failClosed) {
        log.error({ reason }, `content credentials: ${what} could not be signed; it was not kept`);
        throw new ProviderError(
          'content_credentials_failed',
          `The ${what} could not be signed with this deployment's content credentials, so it was not kept. An operator can see why in the server log.`,
          false,
        );
      }
      log.warn({ reason }, `content credentials: ${what} could not be signed; stored without them`);
      return {
        bytes: file.bytes,
        unsigned:
          'The file is not signed with content credentials: signing failed on this server (an operator can see why in the server log).',
      };
    }
  }

  /** Run outputs and uploads: the bytes alone (an unsigned one is in the log; a run has no warnings to carry it). */
  const signed = async (...args: Parameters<typeof signing>): Promise<Buffer> => (await signing(...args)).bytes;

  return {
    failClosed,
    forRun(run, log) {
      let ingredients: Promise<Ingredient[]> | undefined;
      const gathered = () =>
        (ingredients ??= gatherIngredients({
          records: options.store.assets,
          inputFile: options.inputFile,
          projectId: run.projectId,
          uses: runIngredientUses(run),
          withBytes: true,
        }));
      return {
        sign: (output) =>
          signed(`${run.operation} output`, output, log, async () => {
            const found = await gathered();
            return {
              manifest: runOutputManifest(
                {
                  runId: run.runId,
                  projectId: run.projectId,
                  canvasId: run.canvasId,
                  nodeId: run.nodeId,
                  operation: run.operation,
                  provider: run.provider,
                  model: run.model,
                  inputsHash: run.inputsHash,
                  assetId: output.assetId,
                  mimeType: signableType(output.mimeType) ?? output.mimeType,
                  title: output.title,
                  createdAt: new Date(clock()),
                  uploadsOnly: composedOfUploads(run, found),
                },
                found.map((ingredient) => ingredient.facts),
              ),
              ingredients: found,
            };
          }),
      };
    },
    signExport(job, file, log) {
      return signing(`${job.kind} export`, file, log, async () => {
        const found = await gatherIngredients({
          records: options.store.assets,
          // The export's own local copies: read where they are, removed by the export engine.
          inputFile: async (assetId) => {
            const path = job.fileOf(assetId);
            return path ? { path, release: async () => undefined } : null;
          },
          projectId: job.projectId,
          uses: job.components.map((assetId) => ({ assetId, relationship: 'componentOf' as const })),
          // Named by title and hash only: a board of a hundred shots is not parsed a hundred times.
          withBytes: false,
        });
        const { components: _components, fileOf: _fileOf, ...facts } = job;
        return {
          manifest: exportManifest(
            {
              ...facts,
              mimeType: signableType(file.mimeType) ?? file.mimeType,
              title: file.title,
              createdAt: new Date(clock()),
            },
            found.map((ingredient) => ingredient.facts),
          ),
          ingredients: found,
        };
      });
    },
    async signUpload(upload, log) {
      const originalType = signableType(upload.original.mimeType);
      if (!originalType || !signableType(upload.kept.mimeType)) return upload.kept.bytes;
      const carried = await readCredentials(upload.original.bytes, originalType).catch(() => null);
      if (!carried) return upload.kept.bytes;
      const sha256 = createHash('sha256').update(upload.original.bytes).digest('hex');
      const parent = {
        title: upload.fileName,
        format: originalType,
        relationship: 'parentOf' as const,
        instance_id: 'canvas-mcp:original',
        metadata: { 'com.canvas-mcp.sha256': sha256, 'com.canvas-mcp.byte_size': String(upload.original.bytes.length) },
      };
      return signed('upload', upload.kept, log, async () => ({
        manifest: uploadManifest(
          {
            projectId: upload.projectId,
            fileName: upload.fileName,
            mimeType: signableType(upload.kept.mimeType) ?? upload.kept.mimeType,
            createdAt: new Date(clock()),
          },
          parent,
        ),
        // With its bytes, so the original's own manifest travels with it.
        ingredients: [
          {
            facts: {
              assetId: 'original',
              title: upload.fileName,
              mimeType: originalType,
              sha256,
              byteSize: upload.original.bytes.length,
              relationship: 'parentOf',
              generated: false,
            },
            input: { definition: parent, bytes: { mimeType: originalType, data: upload.original.bytes } },
          },
        ],
      }));
    },
  };
}

/** A byte count for people: "1.2 MB", "512 MiB" for the default limit, "4 KB". */
function sizeInWords(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1_000_000) return `${Number((bytes / 1_000_000).toFixed(1))} MB`;
  return `${Number((bytes / 1000).toFixed(1))} KB`;
}
