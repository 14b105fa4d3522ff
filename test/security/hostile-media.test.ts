import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareAudioVideo } from '../../src/assets/uploads/av-intake.js';
import { UploadRefused } from '../../src/assets/uploads/prepared.js';
import { ffmpegPath } from '../../src/shared/media-binaries.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';

/**
 * A playlist in disguise (docs/security.md, "Storage and media bounds"): an HLS playlist (`#EXTM3U`) read by ffmpeg
 * as a playlist opens every segment it names, a file anywhere on the server or a URL. Uploads are read as the format
 * their bytes were found to be, through the file protocol only, so such a file is bytes that do not parse: refused,
 * with nothing opened. The intake is driven here as if the sniffing had been fooled and the work file carried a
 * playlist's name (the worst case: newer ffprobe builds guess a playlist only from that name; the bundled ffmpeg, from
 * 2018, guesses it from the bytes alone).
 */

/** A local web server that counts what it is asked for: a URL segment must never be fetched. */
async function listening(): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const playlist = (segment: string) =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXTINF:3.0,\n${segment}\n#EXT-X-ENDLIST\n`;

describe('a playlist uploaded as a sound', () => {
  let dir: string;
  let secret: string;
  let web: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-hostile-media-'));
    // Another file on the server, in a place an upload's work folder is not: three seconds of a tone.
    mkdirSync(join(dir, 'elsewhere'));
    secret = join(dir, 'elsewhere', 'private.wav');
    execFileSync(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', secret]);
    web = await listening();
  });
  afterAll(async () => {
    await new Promise((resolve) => web?.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  async function intake(name: string, bytes: string, mimeType: string) {
    const work = mkdtempSync(join(dir, 'upload-'));
    const source = join(work, name);
    writeFileSync(source, bytes);
    const prepared = join(work, 'prepared');
    mkdirSync(prepared);
    const outcome = await prepareAudioVideo(source, mimeType, prepared).then(
      (upload) => ({ upload, refused: null }),
      (error: unknown) => ({ upload: null, refused: error }),
    );
    return { ...outcome, written: readdirSync(prepared) };
  }

  it.each([
    ['audio/wav', 'wav'],
    ['audio/mpeg', 'mp3'],
    ['video/mp4', 'mp4'],
  ])('cannot make ffmpeg read another file of the server (taken for %s)', async (mimeType) => {
    const { upload, refused, written } = await intake('film.m3u8', playlist(secret), mimeType);
    // Read as a playlist, this kept the other file's three seconds of sound as the upload.
    expect(upload?.durationMs ?? null).toBeNull();
    expect(refused).toBeInstanceOf(UploadRefused);
    expect((refused as UploadRefused).message).toMatch(/could not be read|holds no picture or sound/);
    expect(written).toEqual([]);
  });

  it('cannot make ffprobe or ffmpeg fetch a URL', async () => {
    const { refused } = await intake('film.m3u8', playlist(`${web.url}/segment.wav`), 'audio/wav');
    expect(refused).toBeInstanceOf(UploadRefused);
    expect(web.requests).toEqual([]);
  });
});

describe.each([STORE_TARGETS[0]!])('a playlist sent to the upload route: $name', (target) => {
  let server: TestServer;
  let editor: string;
  let web: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    web = await listening();
    server = await startTestServer(target);
    await server.store.projects.createWorkspace('w');
    await server.store.projects.createProject('p', 'w');
    await server.store.projects.createCanvas('p', 'c', false);
    editor = await projectToken(server.store, 'p', 'editor');
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => web?.server.close(resolve));
  });

  it.each([
    ['named as a film', (segment: string) => Buffer.from(playlist(segment))],
    // An ID3 tag that claims to run past the file's end: file-type takes the whole file for an MP3.
    [
      'behind an MP3 tag',
      (segment: string) =>
        Buffer.concat([
          Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0x7f, 0x7f, 0x7f, 0x7f]),
          Buffer.from(playlist(segment)),
        ]),
    ],
  ])('is refused %s, keeping nothing and fetching nothing', async (_, disguised) => {
    const bytes = disguised(`${web.url}/segment.wav`);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'video/mp4' }), 'film.mp4');
    const response = await fetch(`${server.url}/api/v2/projects/p/canvases/c/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editor}` },
      body: form,
    });
    expect([400, 415]).toContain(response.status);
    expect(web.requests).toEqual([]);
    expect(await server.store.assets.listAssets()).toEqual([]);
  });
});
