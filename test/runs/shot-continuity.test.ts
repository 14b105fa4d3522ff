import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeRun } from '../../src/contract/index.js';
import { ffmpegPath } from '../../src/shared/media-binaries.js';
import { FAL_KEY, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { probe } from '../support/media.js';
import type { ConfigInput } from '../../src/config/index.js';
import { editorStage } from '../support/editor-stage.js';
import { api, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS, type StoreTarget } from '../support/stores.js';
import { projectToken } from '../support/tokens.js';
import { ffmpegFixture, uploadedPicture } from '../support/upload-fixtures.js';
import { waitFor } from '../support/wait.js';

/**
 * Continuity for generated shots (docs/storyboards.md, "Continuity"), on both stores through the engine: a video card
 * that is a board's shot's source is run from the shot's picture as its first frame; asked to start from the previous
 * shot, it is given that shot's last frame (taken out of its video with ffmpeg) as its first frame and its own
 * picture as its last. Against fal's stand-in, with fal's official client in the path and a model that takes both
 * frames, what the stand-in receives is decoded and compared pixel for pixel with the last frame of the previous
 * shot's film; on the offline provider, the film it makes starts on the previous shot's picture and ends on this one's.
 */

const CANVAS = '/api/v2/projects/p/canvases/c';
const KLING = 'fal-ai/kling-video/v1.6/pro/image-to-video';
const BLUE = { r: 20, g: 90, b: 200 };
const RED = { r: 210, g: 40, b: 30 };

interface Stage {
  server: TestServer;
  as: (request?: ApiRequest) => ApiRequest;
  run: (nodeId: string, key: string, query?: string) => Promise<NodeRun>;
}

/** A board of two shots, blue then red, each the source of its video card; an editor signed in. */
async function stage(target: StoreTarget, overrides: ConfigInput): Promise<Stage> {
  const { server, cookie } = await editorStage(target, overrides);
  const as = (request: ApiRequest = {}): ApiRequest => ({
    ...request,
    headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
  });
  const token = await projectToken(server.store, 'p', 'editor');
  const picture = (name: string, colour: typeof BLUE) =>
    uploadedPicture(server, { projectId: 'p', canvasId: 'c', token, name, colour });
  const [blue, red] = [await picture('shot-1.png', BLUE), await picture('shot-2.png', RED)];
  const nodes = [
    ...['v1', 'v2'].map((id, index) => ({
      id,
      type: 'videoNode',
      position: { x: 600, y: index * 300 },
      data: { prompt: `shot ${index + 1}`, videoUrl: null, aspectRatio: '16:9', durationMs: 1000 },
    })),
    {
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: {
        title: 'Pier',
        aspectRatio: '16:9',
        frames: [
          { id: 's1', number: '1', imageUrl: blue, sourceNodeId: 'v1' },
          { id: 's2', number: '2', imageUrl: red, sourceNodeId: 'v2' },
        ],
      },
    },
  ];
  const created = await api(
    server.url,
    `${CANVAS}/changes`,
    as({
      method: 'POST',
      body: { base_revision: 0, client_save_id: null, operations: nodes.map((node) => ({ op: 'create_node', node })) },
    }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const run = async (nodeId: string, key: string, query = '') => {
    const submitted = await api(
      server.url,
      `${CANVAS}/nodes/${nodeId}/runs${query}`,
      as({ method: 'POST', headers: { 'idempotency-key': key } }),
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const runId = (submitted.body as NodeRun).run_id;
    return waitFor(
      async () => (await api(server.url, `${CANVAS}/runs/${runId}`, as())).body as NodeRun,
      (found) => found.status === 'succeeded' || found.status === 'failed',
      30_000,
    );
  };
  return { server, as, run };
}

/** Every frame of a film, decoded by ffmpeg to RGB: its size and the frames' bytes in order. */
function decodedFrames(film: Buffer): { width: number; height: number; frames: Buffer[] } {
  const video = probe(film).streams.find((stream) => stream.codec_type === 'video')!;
  const [width, height] = [video.width!, video.height!];
  const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-frames-'));
  try {
    const file = join(dir, 'film.mp4');
    writeFileSync(file, film);
    const raw = execFileSync(ffmpegPath(), ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    const size = width * height * 3;
    return {
      width,
      height,
      frames: Array.from({ length: raw.length / size }, (_, index) => raw.subarray(index * size, (index + 1) * size)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A `data:` URI's picture, decoded: its format, size and RGB bytes. */
async function dataUriPicture(uri: unknown) {
  expect(typeof uri).toBe('string');
  const [head, base64] = (uri as string).split(',', 2);
  const { data, info } = await sharp(Buffer.from(base64!, 'base64'))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { type: head, width: info.width, height: info.height, rgb: data };
}

/** The mean colour of a frame of RGB bytes. */
function meanColour(rgb: Buffer): [number, number, number] {
  const sums = [0, 0, 0];
  for (let at = 0; at < rgb.length; at += 1) sums[at % 3]! += rgb[at]!;
  const pixels = rgb.length / 3;
  return [sums[0]! / pixels, sums[1]! / pixels, sums[2]! / pixels];
}

const near = (actual: [number, number, number], expected: typeof BLUE, within = 12) =>
  expect(
    actual.every((value, channel) => Math.abs(value - [expected.r, expected.g, expected.b][channel]!) <= within),
    `${actual.map(Math.round).join(',')} near ${JSON.stringify(expected)}`,
  ).toBe(true);

describe.each(STORE_TARGETS)('continuity of generated shots: $name', (target) => {
  describe.skipIf(!target.available)('against fal’s stand-in, a model that takes a first and a last frame', () => {
    let standIn: HostedStandIn;
    let shots: Stage;
    /** The film shot 1's run makes: 1 s of ffmpeg's moving test card, its last frame unlike its first. */
    const film = ffmpegFixture('mp4', 1);
    const lastSubmission = () =>
      standIn.requests.filter((request) => request.line === `POST /fal/${KLING}`).at(-1)!.body!;

    beforeAll(async () => {
      standIn = await startHostedStandIn();
      shots = await stage(target, {
        workers: 1,
        videoProvider: 'fal',
        falKey: FAL_KEY,
        falQueueUrl: standIn.falUrl,
        falVideoModel: KLING,
        providerPollMs: 20,
      });
    }, 60_000);
    afterAll(async () => {
      await shots?.server.close();
      await standIn?.close();
    });

    it("gives a shot's video run the shot's picture as its first frame, and no last frame", async () => {
      standIn.plans.push({ kind: 'video', file: { bytes: film, contentType: 'video/mp4' } });
      const record = await shots.run('v1', 'v1-a');
      expect(record, JSON.stringify(record.error)).toMatchObject({ status: 'succeeded', provider: 'fal' });
      const sent = lastSubmission();
      expect(sent).not.toHaveProperty('tail_image_url');
      const first = await dataUriPicture(sent.image_url);
      expect([first.type, first.width, first.height]).toEqual(['data:image/png;base64', 320, 180]);
      near(meanColour(first.rgb), BLUE, 1);
    });

    it("starts from the previous shot's last frame, extracted from its film, and ends on the shot's own picture", async () => {
      standIn.plans.push({ kind: 'video' });
      const record = await shots.run('v2', 'v2-a', '?start_from=previous_last_frame');
      expect(record, JSON.stringify(record.error)).toMatchObject({ status: 'succeeded', provider: 'fal' });
      const sent = lastSubmission();

      // The film shot 1 holds now (as stored: signed with content credentials), decoded here on its own.
      const v1 = (
        (await api(shots.server.url, `${CANVAS}/nodes/v1/versions`, shots.as())).body as {
          versions: Array<{ outputs: Array<{ url: string }> }>;
        }
      ).versions.at(-1)!;
      const stored = await fetch(`${shots.server.url}${v1.outputs[0]!.url}`);
      expect(stored.status).toBe(200);
      const decoded = decodedFrames(Buffer.from(await stored.arrayBuffer()));
      expect(decoded.frames.length).toBeGreaterThan(2);
      expect(decoded.frames.at(-1)!.equals(decoded.frames[0]!)).toBe(false);

      const first = await dataUriPicture(sent.image_url);
      expect([first.type, first.width, first.height]).toEqual(['data:image/png;base64', decoded.width, decoded.height]);
      expect(first.rgb.equals(decoded.frames.at(-1)!)).toBe(true);
      const last = await dataUriPicture(sent.tail_image_url);
      expect([last.width, last.height]).toEqual([320, 180]);
      near(meanColour(last.rgb), RED, 1);
    });

    it('answers which model video runs go to and what it accepts', async () => {
      const listed = await api(shots.server.url, '/api/v1/run-models', shots.as());
      expect(listed.status).toBe(200);
      expect((listed.body as { models: unknown[] }).models).toContainEqual({
        operation: 'video_generation',
        provider: 'fal',
        model: KLING,
        accepts: { firstFrame: true, lastFrame: true, references: 0, cameraControl: false },
      });
    });
  });

  describe.skipIf(!target.available)('on the offline provider', () => {
    let shots: Stage;

    beforeAll(async () => {
      shots = await stage(target, { workers: 1, runDurationMs: 0 });
    }, 60_000);
    afterAll(async () => shots?.server.close());

    it("makes a film that starts on the previous shot's picture (it has no film) and ends on the shot's own", async () => {
      const record = await shots.run('v2', 'v2-local', '?start_from=previous_last_frame');
      expect(record, JSON.stringify(record.error)).toMatchObject({ status: 'succeeded', provider: 'local' });
      const made = await fetch(`${shots.server.url}${record.outputs[0]!.url}`);
      const { frames } = decodedFrames(Buffer.from(await made.arrayBuffer()));
      near(meanColour(frames[0]!), BLUE);
      near(meanColour(frames.at(-1)!), RED);
    });

    it('refuses to start the first shot from a previous one, naming the field, and starts nothing', async () => {
      const refused = await api(
        shots.server.url,
        `${CANVAS}/nodes/v1/runs?start_from=previous_last_frame`,
        shots.as({ method: 'POST', headers: { 'idempotency-key': 'v1-first' } }),
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error: { code: 'not_runnable', details: { field: 'start_from' } } });
      expect(JSON.stringify(refused.body)).toContain('first shot of its board');
      const unknown = await api(
        shots.server.url,
        `${CANVAS}/nodes/v1/runs?start_from=somewhere`,
        shots.as({ method: 'POST', headers: { 'idempotency-key': 'v1-bad' } }),
      );
      expect(unknown.status).toBe(400);
    });
  });
});
