/**
 * A local stand-in of the S3 wire protocol for tests (no S3 service is reachable from the test machine): s3rver
 * in-process behind a check of presigned-URL signatures (s3rver verifies only their expiry), with an AWS SDK v3 client
 * configured as the server's own.
 */
import crypto, { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

export interface S3Standin {
  endpoint: string; // e.g. http://127.0.0.1:41234
  bucket: string;
  client: S3Client;
  clientConfig: S3ClientConfig; // same settings, to build the app's own client
  dir: string; // s3rver data directory (deleted by close())
  close(): Promise<void>;
}

// s3rver signs ListObjectsV2 continuation tokens with DES, which OpenSSL 3 (Node >= 17) only has in
// the legacy provider -> any truncated ListObjectsV2 page is a 500 InternalError. Alternative to
// this shim: run the tests with NODE_OPTIONS=--openssl-legacy-provider.
function patchDesForS3rver(): void {
  try {
    crypto.createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
    return;
  } catch {
    /* patch */
  }
  const identity = () => ({
    update: (d: string | Buffer, enc?: BufferEncoding) =>
      typeof d === 'string' ? Buffer.from(d, enc) : Buffer.from(d),
    final: () => Buffer.alloc(0),
  });
  const c = crypto as unknown as Record<'createCipheriv' | 'createDecipheriv', (...a: unknown[]) => unknown>;
  const { createCipheriv, createDecipheriv } = c;
  c.createCipheriv = (alg, ...rest) => (alg === 'des' ? identity() : createCipheriv.call(crypto, alg, ...rest));
  c.createDecipheriv = (alg, ...rest) => (alg === 'des' ? identity() : createDecipheriv.call(crypto, alg, ...rest));
}

// s3rver does NOT verify SigV4 signatures (only the access key id, and presigned-URL expiry), so a
// tampered/forged presigned URL would be served. This checks query-presigned (X-Amz-Signature) requests.
const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
const hmac = (k: Buffer | string, s: string) => createHmac('sha256', k).update(s).digest();
function presignError(req: IncomingMessage, secrets: Record<string, string>): string | null {
  const url = new URL(req.url ?? '/', 'http://x');
  const q = url.searchParams;
  if (q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return null; // not presigned: let s3rver decide
  const [keyId = '', ...scope] = (q.get('X-Amz-Credential') ?? '').split('/');
  const secret = secrets[keyId];
  if (secret === undefined) return 'InvalidAccessKeyId';
  const signed = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const query = [...q]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [enc(k), enc(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signed
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [
    req.method,
    url.pathname,
    query,
    headers,
    signed.join(';'),
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const toSign = [
    'AWS4-HMAC-SHA256',
    q.get('X-Amz-Date') ?? '',
    scope.join('/'),
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const key = scope.reduce<Buffer | string>((k, part) => hmac(k, part), 'AWS4' + secret);
  const want = Buffer.from(hmac(key, toSign).toString('hex'));
  const got = Buffer.from(q.get('X-Amz-Signature') ?? '');
  return got.length === want.length && timingSafeEqual(got, want) ? null : 'SignatureDoesNotMatch';
}

export async function startS3Standin(
  opts: { bucket?: string; verifyPresignedUrls?: boolean } = {},
): Promise<S3Standin> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  patchDesForS3rver();
  const bucket = opts.bucket ?? 'test-assets';
  const dir = await mkdtemp(join(tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  // Simplest form would be: new S3rver({ address: '127.0.0.1', port: 0, ... }).run() -> AddressInfo
  // (and s3rver.close()). We host s3rver's handler ourselves to put the signature check in front.
  await s3rver.configureBuckets();
  const handler = s3rver.callback();
  const verify = opts.verifyPresignedUrls ?? true;
  const http = createServer((req, res) => {
    const code = verify ? presignError(req, { S3RVER: 'S3RVER' }) : null;
    if (code) {
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>rejected by s3-standin</Message></Error>`,
        );
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => http.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const clientConfig: S3ClientConfig = {
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, // s3rver only checks the key id
    // Required: otherwise streaming bodies are sent aws-chunked (+CRC32 trailer), which s3rver
    // stores verbatim -> corrupted object with Content-Encoding: aws-chunked.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1, // fail fast; s3rver errors are deterministic
  };
  const client = new S3Client(clientConfig);
  return {
    endpoint,
    bucket,
    client,
    clientConfig,
    dir,
    async close() {
      client.destroy();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
