import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { scripted, startModelStandin, type ModelStandin } from '../support/model-standin.js';

/**
 * `canvas-mcp doctor` says which model the chat would use and whether it answers, never showing its key; and which
 * ffmpeg and ffprobe read uploads, so an operator sees an old build (docs/security.md, "Storage and media bounds").
 */

describe('canvas-mcp doctor', () => {
  let model: ModelStandin;
  const KEY = 'sk-doctor-secret-123456';
  beforeAll(async () => {
    model = await startModelStandin('openai', scripted({ text: 'OK' }));
  });
  afterAll(async () => model?.close());

  const env = () => ({
    CANVAS_MCP_MODEL_PROVIDER: 'openai-compatible',
    CANVAS_MCP_MODEL: 'standin-model',
    CANVAS_MCP_MODEL_BASE_URL: model.baseUrl,
    CANVAS_MCP_MODEL_API_KEY: KEY,
  });

  it('says which model is configured and that it answers', async () => {
    const result = await cli(['doctor', '--json'], env());
    expect(result).toMatchObject({
      code: 0,
      json: { configured: true, provider: 'openai-compatible', model: 'standin-model', answers: true, reply: 'OK' },
    });
    expect(model.requests.at(-1)!.raw).toMatchObject({ model: 'standin-model' });
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
  });

  it('says in one sentence that the provider refused the key, with exit code 1 and without the key', async () => {
    model.setBrain(scripted({ fail: 401 }));
    const result = await cli(['doctor', '--json'], env());
    expect(result).toMatchObject({
      code: 1,
      json: { error: { code: 'unavailable', message: expect.stringContaining('refused the API key (HTTP 401)') } },
    });
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
    model.setBrain(scripted({ text: 'OK' }));
  });

  it('says what to set when no model is configured', async () => {
    const result = await cli(['doctor', '--json']);
    expect(result).toMatchObject({
      code: 0,
      json: { configured: false, answers: null, message: expect.stringContaining('CANVAS_MCP_MODEL_PROVIDER') },
    });
  });

  it('names the ffmpeg and ffprobe it runs with their versions, warning of an old or missing build', async () => {
    const bundled = await cli(['doctor', '--json']);
    expect(bundled.json).toMatchObject({
      media: [
        {
          tool: 'ffmpeg',
          path: expect.stringContaining('@ffmpeg-installer'),
          source: 'bundled',
          version: expect.stringMatching(/^ffmpeg version .*Copyright \(c\) 2000-2018/),
          // The build npm ships is from 2018.
          warning: expect.stringContaining('set CANVAS_MCP_FFMPEG to a current ffmpeg'),
        },
        { tool: 'ffprobe', source: 'bundled', version: expect.stringMatching(/^ffprobe version /) },
      ],
    });
    const missing = await cli(['doctor'], { CANVAS_MCP_FFPROBE: '/nowhere/ffprobe' });
    expect(missing.code).toBe(0);
    expect(missing.stdout).toMatch(/^ffmpeg: \S+ffmpeg \(ffmpeg version /m);
    expect(missing.stdout).toContain('ffprobe: /nowhere/ffprobe (does not run)');
    expect(missing.stdout).toContain('warning: /nowhere/ffprobe does not run');
  });

  it('refuses half a configuration at start, naming the missing setting', async () => {
    const noModel = await cli(['doctor', '--json', '--model-provider', 'anthropic']);
    expect(noModel).toMatchObject({
      code: 2,
      json: { error: { code: 'configuration', message: expect.stringContaining('--model (CANVAS_MCP_MODEL)') } },
    });
    const noKey = await cli(['doctor', '--json', '--model-provider', 'anthropic', '--model', 'claude-sonnet-4-5']);
    expect(noKey).toMatchObject({
      code: 2,
      json: { error: { message: expect.stringContaining('CANVAS_MCP_MODEL_API_KEY') } },
    });
    const noBase = await cli(['doctor', '--json', '--model-provider', 'openai-compatible', '--model', 'llama3.1']);
    expect(noBase).toMatchObject({
      code: 2,
      json: { error: { message: expect.stringContaining('--model-base-url') } },
    });
  });
});
