import { z } from 'zod';
import { ASSET_STORAGES } from '../../store/records.js';
import { Bool, HttpUrl, Int, setting } from '../setting.js';

/** Where files are kept, what uploads may be, content credentials and metrics. */
export const FILE_SETTINGS = {
  // Where run outputs are kept (docs/runs.md, "Where assets are kept"), and how long a signed asset URL works.
  assetStore: setting({
    schema: z.enum(ASSET_STORAGES),
    default: 'local',
    arg: 'store',
    help: 'where run outputs are kept: local (the data dir), postgres (in the database: many servers share them) or s3',
    docs: 'where run outputs are kept: `local` (the data dir), `postgres` (the database: many servers share them; needs `--database-url`) or `s3` (docs/runs.md, "Where assets are kept")',
    commands: ['worker'],
  }),
  assetUrlTtlSeconds: setting({
    schema: Int(60, 7 * 86_400),
    default: 3600,
    flag: '--asset-url-ttl',
    arg: 'seconds',
    help: 'how long a signed asset URL in a tool result or run record stays valid',
    docs: 'how long a signed asset URL in a tool result, run record or canvas snapshot works (60 s to 7 days)',
  }),
  uploadMaxBytes: setting({
    schema: Int(1024, 64 * 1024 * 1024 * 1024),
    default: 2 * 1024 * 1024 * 1024,
    arg: 'bytes',
    help: 'largest file a person or agent may upload (2 GiB)',
    docs: 'largest file a person or agent may upload (2 GiB); a larger one is refused while it arrives, leaving nothing behind (docs/storyboards.md, "Uploads")',
  }),
  uploadImageMaxPixels: setting({
    schema: Int(1, 1_000_000_000),
    default: 100_000_000,
    arg: 'pixels',
    help: 'largest uploaded picture in pixels (100 million: a 12,000 × 8,000 photo); larger ones are refused before decoding',
  }),
  uploadFilesPerRequest: setting({
    schema: Int(1, 100),
    default: 20,
    arg: 'n',
    help: 'files one upload request may carry',
  }),
  // What one project may keep and one person may send (docs/security.md, "Storage and media bounds").
  projectStorageQuotaBytes: setting({
    schema: Int(1024 * 1024, 2 ** 50),
    default: 10 * 1024 * 1024 * 1024,
    arg: 'bytes',
    help: "bytes one project's assets may take in all (10 GiB); an upload past it is refused",
    docs: 'bytes one project\'s assets may take in all (10 GiB: run outputs, uploads, thumbnails and exports counted together); an upload that would pass it is refused with 422 `limit_exceeded`, naming what the project keeps; owners see it on the team page (docs/security.md, "Storage and media bounds")',
  }),
  uploadBytesPerHour: setting({
    schema: Int(1024 * 1024, 2 ** 50),
    default: 2 * 1024 * 1024 * 1024,
    arg: 'bytes',
    help: 'bytes one person (or a token acting for nobody) may upload in an hour (2 GiB), per process',
    docs: 'bytes one person (all their sessions, and tokens acting for them; a token acting for nobody on its own) may upload in any hour (2 GiB), counted per process; past it: 429 `rate_limited` with `Retry-After`',
  }),
  uploadMediaJobs: setting({
    schema: Int(1, 64),
    default: 2,
    arg: 'n',
    help: 'uploaded films and sounds read by ffprobe and ffmpeg at once in this process',
    docs: 'uploaded films and sounds this process reads and copies (ffprobe, ffmpeg) at once; the others wait their turn',
  }),
  uploadMediaQueue: setting({
    schema: Int(0, 10_000),
    default: 16,
    arg: 'n',
    help: 'uploaded films and sounds that may wait for their turn in this process; more are refused (503)',
    docs: 'uploaded films and sounds that may wait for their turn in this process; one more is refused with 503 `unavailable` (retry later)',
  }),
  uploadMediaJobsPerPerson: setting({
    schema: Int(1, 64),
    default: 2,
    arg: 'n',
    help: "one person's uploaded films and sounds being read or waiting at once in this process; more are refused (429)",
    docs: "one person's uploaded films and sounds being read or waiting at once in this process; one more is refused with 429 `rate_limited`",
  }),
  // Drawings on shots (docs/drawing.md, "Limits"): what one drawing may hold; past any, a save is refused naming it.
  drawingMaxStrokes: setting({
    schema: Int(1, 20_000),
    default: 5_000,
    arg: 'n',
    help: 'strokes one drawing may hold, all layers together (5,000)',
  }),
  drawingMaxStrokePoints: setting({
    schema: Int(2, 20_000),
    default: 5_000,
    arg: 'n',
    help: 'input points one stroke may hold (5,000: a long, slow line of a 240 Hz pen)',
  }),
  drawingMaxPoints: setting({
    schema: Int(2, 2_000_000),
    default: 400_000,
    arg: 'n',
    help: 'input points one drawing may hold, all strokes together (400,000)',
  }),
  // Content credentials (docs/provenance.md, "Keys"): the key and certificate run outputs and exports are signed with.
  c2paKeyFile: setting({
    schema: z.string().min(1),
    arg: 'file',
    help: 'sign content credentials with this key (PEM, PKCS#8 P-256); with --c2pa-cert-file; read at first use, never logged',
    docs: 'sign the content credentials of run outputs and exports with this key (a PEM file, PKCS#8, EC P-256) and `--c2pa-cert-file`; without them, a certificate this deployment makes itself (docs/provenance.md, "Keys"); given, a file that cannot be signed fails its run or export',
    commands: ['worker'],
  }),
  c2paCertFile: setting({
    schema: z.string().min(1),
    arg: 'file',
    help: "the content credentials key's certificate chain (PEM, leaf first, then its CAs); with --c2pa-key-file",
    docs: 'the certificate chain of `--c2pa-key-file` (a PEM file, the leaf first, then the CAs that issued it); one from a CA on the C2PA trust list makes readers call the signer trusted',
    commands: ['worker'],
  }),
  c2paSignMaxBytes: setting({
    schema: Int(1, 512 * 1024 * 1024),
    default: 512 * 1024 * 1024,
    arg: 'bytes',
    help: 'largest file signed with content credentials (512 MiB); a larger export is kept unsigned, with a warning',
    docs: 'largest file signed with content credentials (512 MiB, what c2pa-wasm holds in memory at most); a larger run output is kept unsigned with a logged warning, a larger PDF or animatic export with a warning on the export saying it is not signed and why (docs/provenance.md)',
    commands: ['worker'],
  }),
  s3Bucket: setting({
    schema: z.string().min(1),
    arg: 'bucket',
    help: 'the bucket of --asset-store s3 (credentials: CANVAS_MCP_S3_ACCESS_KEY_ID and _SECRET_ACCESS_KEY, or the AWS defaults)',
    docs: 'the bucket of `--asset-store s3`; also lets a server with another store read assets kept there',
    commands: ['worker', 'assets'],
  }),
  s3Region: setting({
    schema: z.string().min(1),
    default: 'us-east-1',
    arg: 'region',
    help: "the bucket's region",
    commands: ['worker', 'assets'],
  }),
  s3Endpoint: setting({
    schema: HttpUrl,
    arg: 'url',
    help: 'an S3-compatible endpoint (MinIO, R2, Ceph) instead of AWS',
    shownDefault: 'AWS',
    commands: ['worker', 'assets'],
  }),
  s3Prefix: setting({
    schema: z.string(),
    default: '',
    arg: 'prefix',
    help: 'a key prefix for every object (e.g. canvas-mcp/)',
    shownDefault: 'none',
    commands: ['worker', 'assets'],
  }),
  s3ForcePathStyle: setting({
    schema: Bool,
    default: false,
    switch: true,
    help: 'address the bucket in the path, as most S3-compatible stores need',
    commands: ['worker', 'assets'],
  }),
  s3AccessKeyId: setting({
    schema: z.string().min(1),
    flag: false,
    help: 'the S3 access key id (with CANVAS_MCP_S3_SECRET_ACCESS_KEY; both or neither)',
    docs: 'the S3 access key id: with `CANVAS_MCP_S3_SECRET_ACCESS_KEY`, both or neither (the AWS default chain); never logged',
    shownDefault: 'the AWS default chain',
  }),
  s3SecretAccessKey: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: 'the S3 secret access key',
    docs: 'its secret key; never logged',
    shownDefault: 'the AWS default chain',
  }),

  metricsToken: setting({
    schema: z.string().min(16, { error: 'must be at least 16 characters' }),
    arg: 'token',
    secret: true,
    help: 'bearer token required at /metrics (needed to serve /metrics beyond loopback; prefer CANVAS_MCP_METRICS_TOKEN)',
    docs: 'bearer token required at `/metrics` (at least 16 characters); without it `/metrics` is open on a loopback bind and off otherwise (below, "Metrics"); prefer the variable',
  }),
};
