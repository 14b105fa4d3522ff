import { execFileSync } from 'node:child_process';
import { NodeIO } from '@gltf-transform/core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import type { NodeRun } from '../../src/contract/index.js';
import { cutFrames } from '../../src/exports/timeline/frame-rate.js';
import { ffmpegPath } from '../../src/shared/media-binaries.js';
import { seedWorld, type World } from '../backend/world.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient, structured, toolError } from '../support/mcp.js';
import { probe } from '../support/media.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Every generation-shaped node type runs on the offline local provider and produces a real file that decodes: a
 * storyboard sheet, videos (generated, from shots, composed from clips with an audio track), a 3D world, trimmed audio.
 * A video story is an animatic of all its shots, each for its own duration.
 */

const ids = { project_id: 'p1', canvas_id: 'c1' };

/** A video story's length in frames at the animatic's 24 fps: each shot's own frames, as the encoder cuts them. */
const storyFrames = (durationsMs: number[]) => cutFrames(durationsMs, '24').reduce((sum, shot) => sum + shot.frames, 0);

/** The frames ffmpeg decoded of a film's video stream. */
const decodedFrames = (bytes: Buffer) =>
  Number(
    (probe(bytes).streams.find((stream) => stream.codec_type === 'video') as { nb_read_frames?: string })
      .nb_read_frames,
  );

/** A film's first frame, as a PNG. */
function firstFrame(bytes: Buffer): PNG {
  const png = execFileSync(
    ffmpegPath(),
    ['-v', 'error', '-i', 'pipe:0', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
    { input: bytes },
  );
  return PNG.sync.read(png);
}

describe('generation-shaped nodes run to real media files', () => {
  let server: TestServer;
  let world: World;
  let agent: Client;

  beforeAll(async () => {
    server = await startTestServer(STORE_TARGETS[0]!, { workers: 2, runDurationMs: 50, enableHiddenTools: true });
    world = await seedWorld(server.store);
    agent = await connectClient(server.server.mcpUrl, {
      Authorization: `Bearer ${world.tokens.editor.secret}`,
      'X-Agent-Run-Id': world.chatRuns.edit,
    });
  });
  afterAll(async () => {
    await agent?.close();
    await server?.close();
  });

  async function revision(): Promise<number> {
    return structured<{ layout: { revision: number } }>(await agent.callTool({ name: 'get_canvas', arguments: ids }))
      .layout.revision;
  }

  async function node(id: string, type: string, data: Record<string, unknown>): Promise<void> {
    const result = await agent.callTool({
      name: 'create_canvas_node',
      arguments: { ...ids, base_revision: await revision(), node: { id, type, position: { x: 0, y: 0 }, data } },
    });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  }

  async function run(nodeId: string): Promise<{ run: NodeRun; bytes: Buffer; contentType: string }> {
    const submitted = structured<NodeRun>(
      await agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: nodeId } }),
    );
    expect(submitted.run_id, JSON.stringify(submitted)).toBeDefined();
    const done = await waitFor(
      async () =>
        structured<NodeRun>(
          await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
        ),
      (current) => current.status === 'succeeded' || current.status === 'failed',
      // Rendering 23 s of 720p took past 30 s with the cores shared with three other test files (CI, 2026-11-29).
      150_000,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    const response = await fetch(done.outputs[0]!.url);
    return {
      run: done,
      bytes: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? '',
    };
  }

  it('storyboardGenNode: a PNG sheet of its frames', async () => {
    await node('board', 'storyboardGenNode', { prompt: 'a chase over rooftops', frameCount: 6, aspectRatio: '16:9' });
    const { bytes, contentType } = await run('board');
    expect(contentType).toBe('image/png');
    const png = PNG.sync.read(bytes);
    // 4 columns of 128 × 72 frames with a 4-pixel gutter: 2 rows.
    expect([png.width, png.height]).toEqual([4 * 128 + 5 * 4, 2 * 72 + 3 * 4]);
  });

  it('videoNode: an MP4 (H.264) video of its duration and aspect', async () => {
    await node('clip', 'videoNode', {
      videoUrl: null,
      prompt: 'waves on a cliff',
      aspectRatio: '16:9',
      durationMs: 2000,
    });
    const { bytes, contentType } = await run('clip');
    expect(contentType).toBe('video/mp4');
    const info = probe(bytes);
    expect(info.streams).toEqual([
      expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 320, height: 180 }),
    ]);
    expect(info.durationSeconds).toBeCloseTo(2, 1);
  });

  it('videoStoryNode: an MP4 animatic of its shots in order, 720p, each shot for its frames at 24 fps', async () => {
    await node('story', 'videoStoryNode', {
      shots: [
        { id: 's1', prompt: 'wide', durationMs: 1000 },
        { id: 's2', prompt: 'close', durationMs: 1500 },
      ],
      aspectRatio: '1:1',
    });
    const { bytes, contentType } = await run('story');
    expect(contentType).toBe('video/mp4');
    const info = probe(bytes);
    expect(info.streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 1280, height: 720 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]),
    );
    expect(decodedFrames(bytes)).toBe(storyFrames([1000, 1500]));
    expect(info.durationSeconds).toBeCloseTo(2.5, 1);
    // The square story's picture is pillarboxed in the 16:9 frame: black at the sides, the picture in the middle.
    const frame = firstFrame(bytes);
    const pixel = (x: number, y: number) => Array.from(frame.data.subarray((y * 1280 + x) * 4, (y * 1280 + x) * 4 + 3));
    for (const channel of pixel(100, 360)) expect(channel).toBeLessThan(16);
    expect(Math.max(...pixel(640, 360))).toBeGreaterThan(32);
  });

  it('videoStoryNode: every shot is kept and none is capped (14 shots of 1 s and one of 9 s last 23 s)', async () => {
    const durations = [...Array.from({ length: 14 }, () => 1000), 9000];
    await node('long-story', 'videoStoryNode', {
      shots: durations.map((durationMs, index) => ({ id: `s${index + 1}`, prompt: `shot ${index + 1}`, durationMs })),
      aspectRatio: '16:9',
    });
    const { run: done, bytes } = await run('long-story');
    // 3 credits a shot: all 15 were planned.
    expect(done.cost.estimated).toBe(45);
    expect(decodedFrames(bytes)).toBe(storyFrames(durations));
    expect(storyFrames(durations)).toBe(23 * 24);
    expect(probe(bytes).durationSeconds).toBeCloseTo(23, 1);
  }, 240_000);

  it('videoStoryNode: a story longer than 30 minutes, or of more than 500 shots, is refused naming it, never cut', async () => {
    await node('epic', 'videoStoryNode', {
      shots: Array.from({ length: 4 }, (_, index) => ({ id: `s${index}`, prompt: 'a long take', durationMs: 480_500 })),
    });
    const tooLong = await agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'epic' } });
    expect(toolError(tooLong)).toMatchObject({ code: 'not_runnable' });
    expect(toolError(tooLong).message).toContain('it lasts 32:02 (4 shots)');
    expect(toolError(tooLong).message).toContain('at most 30:00');

    await node('crowded', 'videoStoryNode', {
      shots: Array.from({ length: 501 }, (_, index) => ({ id: `s${index}`, prompt: 'a beat', durationMs: 500 })),
    });
    const tooMany = await agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'crowded' } });
    expect(toolError(tooMany)).toMatchObject({ code: 'not_runnable' });
    expect(toolError(tooMany).message).toContain('it has 501 shots');
    expect(toolError(tooMany).message).toContain('at most 500');
  });

  it('videoComposeNode: its clips trimmed and joined, with an audio track', async () => {
    const clip = await run('clip');
    await node('voice', 'audioNode', {
      audioUrl: null,
      text: 'A storm is coming, and nobody listens to the keeper of the light.',
    });
    const voice = await run('voice');
    await node('cut', 'videoComposeNode', {
      clips: [
        { id: 'a', videoUrl: clip.run.outputs[0]!.url, startMs: 0, trimStartMs: 500, trimEndMs: 1500 },
        { id: 'b', videoUrl: 'https://elsewhere.example/clip.mp4', startMs: 1000 },
      ],
      audioTrackUrl: voice.run.outputs[0]!.url,
      aspectRatio: '16:9',
    });
    const info = probe((await run('cut')).bytes);
    expect(info.streams.map((stream) => stream.codec_type).sort()).toEqual(['audio', 'video']);
    // One second of the first clip and the two of the second: the sound is cut to the film, not the film to the sound.
    expect(info.durationSeconds).toBeCloseTo(3.0, 1);
  });

  it('videoComposeNode: a clip whose asset is not on this server fails the run naming the clip and the asset, never a server path', async () => {
    await node('cut-missing', 'videoComposeNode', {
      clips: [{ id: 'a', videoUrl: '/assets/asset_missingmissing00', startMs: 0 }],
      aspectRatio: '16:9',
    });
    const submitted = structured<NodeRun>(
      await agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'cut-missing' } }),
    );
    const done = await waitFor(
      async () =>
        structured<NodeRun>(
          await agent.callTool({ name: 'get_canvas_node_run', arguments: { ...ids, run_id: submitted.run_id } }),
        ),
      (current) => current.status === 'succeeded' || current.status === 'failed',
      30_000,
    );
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'input_missing' });
    expect(done.error!.message).toContain('clip 1');
    expect(done.error!.message).toContain('asset_missingmissing00');
    expect(done.error!.message).not.toContain(server.server.config.dataDir);
    expect(done.error!.message).not.toMatch(/\/(tmp|home|var|root)\//);
  });

  it('threeDWorldNode: a GLB world with a ground and blocks', async () => {
    await node('world', 'threeDWorldNode', { sources: [], prompt: 'a harbour town' });
    const { bytes, contentType } = await run('world');
    expect(contentType).toBe('model/gltf-binary');
    const document = await new NodeIO().readBinary(new Uint8Array(bytes));
    expect(
      document
        .getRoot()
        .listMeshes()
        .map((mesh) => mesh.getName()),
    ).toEqual(['ground', ...Array.from({ length: 6 }, (_, index) => `block-${index + 1}`)]);
  });

  it("audioTrimNode: the connected audio node's audio, trimmed; without one it is not runnable", async () => {
    await node('trim', 'audioTrimNode', { trimStartMs: 200, trimEndMs: 800 });
    const refused = await agent.callTool({ name: 'submit_canvas_node_run', arguments: { ...ids, node_id: 'trim' } });
    expect(toolError(refused)).toMatchObject({ code: 'not_runnable' });
    expect(toolError(refused).message).toContain('connect an audio node');
    await server.store.writes.createEdge(
      {
        projectId: 'p1',
        canvasId: 'c1',
        baseRevision: await revision(),
        clientSaveId: null,
        authorization: SYSTEM_WRITE,
      },
      { id: 'voice-trim', source: 'voice', target: 'trim' },
    );
    const info = probe((await run('trim')).bytes);
    expect(info.streams).toEqual([
      expect.objectContaining({ codec_type: 'audio', codec_name: 'pcm_s16le', sample_rate: '16000' }),
    ]);
    expect(info.durationSeconds).toBeCloseTo(0.6, 1);
  });
});
