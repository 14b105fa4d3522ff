import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { webcrypto } from 'node:crypto';
import initC2pa, { WasmBuilder, WasmReader } from '@contentauth/c2pa-wasm';
import { Encoder, Tag, type Options as CborOptions } from 'cbor-x';
import type { IngredientDefinition, ManifestDefinition } from './manifests.js';

/**
 * C2PA signing and reading on the Content Authenticity Initiative's WebAssembly build of c2pa-rs
 * (`@contentauth/c2pa-wasm`, pinned exactly: the signer below relies on how this version calls it). Pure WebAssembly:
 * no native binary, nothing fetched at install or run time. The module is compiled once per process, on first use.
 *
 * c2pa-wasm's signer callback receives the claim bytes and must answer a complete COSE_Sign1 (RFC 9052): a protected
 * header with the algorithm (ES256) and the certificate chain (x5chain, leaf first), no payload (detached), the raw
 * r|s signature, padded to exactly the size reserved for it.
 */

/** The types c2pa-rs can embed a manifest into (checked against this version; docs/provenance.md), and their extension. */
const SIGNABLE: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/flac': 'flac',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'application/pdf': 'pdf',
};

/** Names the sniffer (file-type) or a provider may give a type c2pa-rs knows under another. */
const ALIASES: Record<string, string> = {
  'audio/x-wav': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-m4a': 'audio/mp4',
  'audio/mp3': 'audio/mpeg',
  'audio/x-flac': 'audio/flac',
};

/** The type as c2pa-rs names it, or null when it cannot carry a manifest (WebM, Ogg, GLB, JSON, text). */
export function signableType(mimeType: string): string | null {
  const type = mimeType.split(';', 1)[0]!.trim().toLowerCase();
  const named = ALIASES[type] ?? type;
  return Object.hasOwn(SIGNABLE, named) ? named : null;
}

/** A file name for a signable type's asset (`asset_….png`): run outputs have none of their own. */
export function fileNameOf(assetId: string, mimeType: string): string {
  const type = signableType(mimeType);
  return type ? `${assetId}.${SIGNABLE[type]}` : assetId;
}

// Node has no FileReaderSync (a web-worker API c2pa-wasm reads Blobs with): an in-memory Blob and a reader of it.
class MemoryBlob extends Blob {
  constructor(readonly content: Uint8Array<ArrayBuffer>) {
    super([content]);
  }
  override slice(start = 0, end = this.content.length): MemoryBlob {
    return new MemoryBlob(this.content.subarray(start, end));
  }
}

class MemoryFileReaderSync {
  readAsArrayBuffer(blob: Blob): ArrayBuffer {
    if (!(blob instanceof MemoryBlob)) throw new TypeError('only in-memory blobs can be read here');
    const { buffer, byteOffset, byteLength } = blob.content;
    return buffer.slice(byteOffset, byteOffset + byteLength);
  }
}

/** The bytes as a view of a plain ArrayBuffer (what Blob parts and WebAssembly take). */
const plain = (bytes: Uint8Array): Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : new Uint8Array(bytes);

let loading: Promise<void> | undefined;

/** Compiles the WebAssembly module once per process (asynchronously: the event loop keeps serving meanwhile). */
export function loadC2pa(): Promise<void> {
  loading ??= (async () => {
    const scope = globalThis as { FileReaderSync?: unknown };
    scope.FileReaderSync ??= MemoryFileReaderSync;
    const path = createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm');
    await initC2pa({ module_or_path: await readFile(path) });
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** One signing at a time per process: the builders share one WebAssembly instance. */
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work, work);
  queue = result.catch(() => undefined);
  return result;
}

export interface CoseSigner {
  alg: 'es256';
  reserveSize: number;
  sign(claimBytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
}

// Plain CBOR, as COSE needs: byte strings as byte strings, maps as maps (untagged), no records. (`useTag259ForMaps`
// is an option of cbor-x's encoder its typings do not list.)
const CBOR_OPTIONS: CborOptions & { useTag259ForMaps: boolean } = {
  tagUint8Array: false,
  useTag259ForMaps: false,
  useRecords: false,
};
const cbor = new Encoder(CBOR_OPTIONS);

/** The DER bodies of every PEM block in a text, in order. */
export function pemBlocks(pem: string): Uint8Array[] {
  return [...pem.matchAll(/-----BEGIN [^-]+-----([^-]+)-----END [^-]+-----/g)].map(
    (match) => new Uint8Array(Buffer.from(match[1]!.replace(/\s/g, ''), 'base64')),
  );
}

const COSE_ALG = 1;
const COSE_X5CHAIN = 33;
const ES256 = -7;
const COSE_SIGN1_TAG = 18;

/** An ES256 signer over a PKCS#8 P-256 key and its chain (PEM, leaf first). */
export async function createEs256Signer(keyPem: string, chainPem: string, reserveSize = 10_000): Promise<CoseSigner> {
  const chain = pemBlocks(chainPem);
  const [keyDer] = pemBlocks(keyPem);
  if (!keyDer || chain.length === 0) throw new Error('the signing key or certificate chain holds no PEM block');
  const key = await webcrypto.subtle.importKey('pkcs8', keyDer, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ]);
  const protectedHeader = new Uint8Array(
    cbor.encode(
      new Map<number, number | Uint8Array[]>([
        [COSE_ALG, ES256],
        [COSE_X5CHAIN, chain],
      ]),
    ),
  );
  return {
    alg: 'es256',
    reserveSize,
    async sign(claimBytes) {
      const toBeSigned = cbor.encode(['Signature1', protectedHeader, new Uint8Array(0), claimBytes]);
      // WebCrypto answers ECDSA signatures as IEEE P1363 (r|s), as COSE wants them.
      const signature = new Uint8Array(
        await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, toBeSigned),
      );
      const build = (padding: number) =>
        new Uint8Array(
          cbor.encode(
            new Tag([protectedHeader, new Map([['pad', new Uint8Array(padding)]]), null, signature], COSE_SIGN1_TAG),
          ),
        );
      // The padding's own length prefix grows with it: converge on exactly the reserved size.
      let padding = reserveSize - build(0).length;
      for (let attempt = 0; attempt < 4 && padding >= 0; attempt += 1) {
        const signed = build(padding);
        if (signed.length === reserveSize) return signed;
        padding -= signed.length - reserveSize;
      }
      throw new Error('the COSE signature does not fit the size reserved for it');
    },
  };
}

/** Network lookups stay off: no OCSP, no remote manifests (a reader here never leaves the process). */
const CONTEXT = { verify: { ocsp_fetch: false, remote_manifest_fetch: false } };

/** An ingredient with its bytes (its own credentials, if it has some, are kept), or described only. */
export interface IngredientInput {
  definition: IngredientDefinition;
  bytes?: { mimeType: string; data: Uint8Array };
}

/** The bytes with a signed manifest embedded. The type must be signable (`signableType`). */
export async function signBytes(options: {
  bytes: Uint8Array;
  mimeType: string;
  manifest: ManifestDefinition;
  ingredients: readonly IngredientInput[];
  signer: CoseSigner;
}): Promise<Buffer> {
  const format = signableType(options.mimeType);
  if (!format) throw new Error(`${options.mimeType} cannot carry content credentials`);
  await loadC2pa();
  return serially(async () => {
    const builder = WasmBuilder.fromJson(JSON.stringify(options.manifest), JSON.stringify(CONTEXT));
    try {
      for (const ingredient of options.ingredients) {
        const json = JSON.stringify(ingredient.definition);
        const carried = ingredient.bytes && signableType(ingredient.bytes.mimeType);
        if (ingredient.bytes && carried) {
          try {
            await builder.addIngredientFromBlob(json, carried, new MemoryBlob(plain(ingredient.bytes.data)));
            continue;
          } catch {
            // A file c2pa-rs cannot parse is still named, by its title and hash.
          }
        }
        builder.addIngredient(json);
      }
      return Buffer.from(await builder.sign(options.signer, [], format, new MemoryBlob(plain(options.bytes))));
    } finally {
      builder.free();
    }
  });
}

/** What a reader found: the validation state, the failures, and the active manifest. */
export interface CredentialsReport {
  /** `Trusted`: valid and signed by a trust anchor given; `Valid`: intact, signer not trusted here; `Invalid`. */
  state: 'Invalid' | 'Valid' | 'Trusted';
  failures: Array<{ code: string; explanation?: string }>;
  manifest: ReadManifest;
}

export interface ReadManifest {
  title?: string;
  claim_generator_info?: Array<{ name: string; version?: string }>;
  assertions: Array<{ label: string; data: unknown }>;
  ingredients: Array<Record<string, unknown> & { title?: string; relationship?: string }>;
  signature_info?: { alg?: string; issuer?: string; common_name?: string; time?: string };
}

interface ManifestStore {
  active_manifest?: string;
  manifests: Record<string, ReadManifest>;
  validation_state?: CredentialsReport['state'];
  validation_results?: { activeManifest?: { failure?: CredentialsReport['failures'] } };
}

/**
 * Reads and validates the credentials a file carries (tests, and an operator's check); null when it carries none.
 * `trustAnchorsPem`: CA certificates to trust besides none (a deployment's own CA, for instance).
 */
export async function readCredentials(
  bytes: Uint8Array,
  mimeType: string,
  trustAnchorsPem?: string,
): Promise<CredentialsReport | null> {
  const format = signableType(mimeType);
  if (!format) return null;
  await loadC2pa();
  const context = trustAnchorsPem ? { ...CONTEXT, trust: { user_anchors: trustAnchorsPem } } : CONTEXT;
  return serially(async () => {
    let reader: WasmReader;
    try {
      reader = await WasmReader.fromBytes(format, plain(bytes), JSON.stringify(context));
    } catch (error) {
      if (String(error).includes('JumbfNotFound')) return null;
      throw error;
    }
    try {
      const store = JSON.parse(reader.json()) as ManifestStore;
      const manifest = store.active_manifest ? store.manifests[store.active_manifest] : undefined;
      if (!manifest) return null;
      return {
        state: store.validation_state ?? 'Invalid',
        failures: store.validation_results?.activeManifest?.failure ?? [],
        manifest,
      };
    } finally {
      reader.free();
    }
  });
}
