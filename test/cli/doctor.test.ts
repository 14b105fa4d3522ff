import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { scripted, startModelStandin, type ModelStandin } from '../support/model-standin.js';

/** Issue 18: `canvas-mcp doctor` says which model the chat would use and whether it answers, never showing its key. */

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
