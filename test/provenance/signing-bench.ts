/**
 * What content credentials add to a run (docs/performance.md, "Content credentials"): the time to sign a 2 MB JPEG, a
 * 20 MB JPEG and a 10 MB MP4 with a run output's manifest, as the run engine does, after the one-time WebAssembly load.
 * Not a test (vitest runs *.test.ts only): `npx tsx test/provenance/signing-bench.ts`.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import sharp from 'sharp';
import { createEs256Signer, loadC2pa, readCredentials, signBytes } from '../../src/provenance/c2pa-signer.js';
import { makeDeploymentCertificate } from '../../src/provenance/credentials.js';
import { runOutputManifest } from '../../src/provenance/manifests.js';
import { ffmpegPath } from '../../src/shared/media-binaries.js';

const ROUNDS = 5;

/** A JPEG of noise (it does not compress), about `megabytes` large. */
async function noiseJpeg(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

function film(seconds: number, bitrate: string): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-bench-'));
  try {
    const file = join(dir, 'film.mp4');
    execFileSync(ffmpegPath(), [
      ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=24:duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', bitrate, '-minrate', bitrate, '-maxrate', bitrate],
      ...['-bufsize', '1M', '-pix_fmt', 'yuv420p', '-y', file],
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const loadStarted = performance.now();
await loadC2pa();
const loadMs = performance.now() - loadStarted;
const certificate = await makeDeploymentCertificate();
const signer = await createEs256Signer(certificate.keyPem, certificate.chainPem);

const cases: Array<[string, Buffer, string]> = [
  ['JPEG', await noiseJpeg(1700, 1300), 'image/jpeg'],
  ['JPEG', await noiseJpeg(5600, 4200), 'image/jpeg'],
  ['MP4', film(10, '11M'), 'video/mp4'],
];
console.log(`WebAssembly load (once per process): ${loadMs.toFixed(0)} ms`);
for (const [name, bytes, mimeType] of cases) {
  const manifest = runOutputManifest(
    {
      runId: 'run_bench',
      projectId: 'p',
      canvasId: 'c',
      nodeId: 'n',
      operation: mimeType.startsWith('video/') ? 'video_generation' : 'image_generation',
      provider: 'local',
      model: 'bench',
      inputsHash: null,
      assetId: 'asset_bench',
      mimeType,
      title: 'bench',
      createdAt: new Date(),
    },
    [],
  );
  const times: number[] = [];
  let signed = bytes;
  // How long signing holds the event loop (it runs where the worker runs: in `serve`, beside the requests).
  const stalls = monitorEventLoopDelay({ resolution: 5 });
  stalls.enable();
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    signed = await signBytes({ bytes, mimeType, manifest, ingredients: [], signer });
    times.push(performance.now() - started);
  }
  stalls.disable();
  const report = await readCredentials(signed, mimeType, certificate.caPem);
  console.log(
    `${name} ${mb(bytes.length)}: sign median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) over ${ROUNDS}; longest event-loop stall ${(stalls.max / 1e6).toFixed(0)} ms; +${signed.length - bytes.length} bytes; reads ${report?.state}`,
  );
}
console.log(`rss after: ${mb(process.memoryUsage().rss)}`);
