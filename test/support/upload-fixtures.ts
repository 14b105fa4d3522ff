import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { ffmpegPath } from '../../src/shared/media-binaries.js';

/**
 * Files for the upload tests, made when the tests run by real encoders (sharp, ffmpeg) rather than checked in: a
 * phone photo with its EXIF (GPS, a sideways orientation), a film with sound, sounds, a PDF, and hostile files.
 */

/** A 64 × 32 JPEG stored sideways (EXIF orientation 6: show it turned 90° clockwise), with a GPS position. */
export async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A plain picture of one colour (a blue by default). */
export function png(width = 48, height = 27, colour = { r: 20, g: 90, b: 200 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** A file made by ffmpeg from its own test sources (`lavfi`), in the container the extension names. */
export function ffmpegFixture(extension: 'mp4' | 'mp3' | 'wav' | 'webm', seconds = 1, frequency = 440): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-fixture-'));
  try {
    const file = join(dir, `fixture.${extension}`);
    const picture = ['-f', 'lavfi', '-i', `testsrc=size=160x90:rate=12:duration=${seconds}`];
    const sound = ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:duration=${seconds}`];
    const args =
      extension === 'mp4'
        ? [
            ...picture,
            ...sound,
            '-c:v',
            'libx264',
            '-pix_fmt',
            'yuv420p',
            '-c:a',
            'aac',
            '-metadata',
            'location=+51.5-000.1/',
          ]
        : extension === 'webm'
          ? [...picture, '-c:v', 'libvpx', '-b:v', '200k']
          : [...sound];
    execFileSync(ffmpegPath(), ['-v', 'error', '-y', ...args, '-t', String(seconds), file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A one-page PDF written by hand: the smallest file a PDF reader opens. */
export function smallPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A PNG whose header says 30,000 × 30,000 pixels (900 million, 3.6 GB decoded) with a few hundred bytes of data: a
 * decompression bomb's shape. Its chunks carry correct CRCs, so only a pixel limit stops it.
 */
export function hugePngHeader(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(4096))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const HTML_PAGE = Buffer.from(
  '<!doctype html><html><body><script>fetch("/api/v1/me").then((r) => r.text()).then(alert)</script></body></html>',
);

export const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
);

/** A picture uploaded through the upload route as a token-holding script would; answers its asset path. */
export async function uploadedPicture(
  server: { url: string },
  target: {
    projectId: string;
    canvasId: string;
    token: string;
    name: string;
    width?: number;
    height?: number;
    colour?: { r: number; g: number; b: number };
  },
): Promise<string> {
  const form = new FormData();
  const bytes = await png(target.width ?? 320, target.height ?? 180, target.colour);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), target.name);
  const response = await fetch(
    `${server.url}/api/v2/projects/${target.projectId}/canvases/${target.canvasId}/uploads`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}` },
      body: form,
    },
  );
  if (response.status !== 201)
    throw new Error(`upload of ${target.name}: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { uploads: Array<{ url: string }> }).uploads[0]!.url;
}
