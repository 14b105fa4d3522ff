import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials } from '../../src/provenance/c2pa-signer.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { createOpenAiSpeechProvider } from '../../src/runs/providers/openai-speech-provider.js';
import { ProviderError, type ProviderJob } from '../../src/runs/providers/provider.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Audio nodes' speech through an OpenAI-compatible speech API, by the AI SDK's OpenAI provider, against a local
 * stand-in of the documented API: POST /v1/audio/speech with a bearer key and {model, input, voice, response_format,
 * instructions?}, answering the audio bytes (or an {error: {message}} body with a 4xx/5xx status).
 */

const API_KEY = 'sk-speech-test-not-a-real-key';
// A few bytes that stand for an MP3 stream (an ID3 header, then an MPEG audio frame header): the adapter stores what
// the API sends, and the engine keeps it because its bytes are an MP3's (types come from the bytes).
const STUB_AUDIO = Buffer.concat([
  Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'),
  Buffer.from([0xff, 0xfb, 0x90, 0x64]),
  Buffer.alloc(60, 0),
]);

interface SpeechCall {
  authorization: string | undefined;
  body: { model: string; input: string; voice: string; response_format: string; instructions?: string };
}

/** What the stand-in answers next: a list consumed one call at a time; the last entry repeats. */
type Answer = 'ok' | 'rate_limited' | 'server_error' | 'bad_request' | 'slow';

function startStub() {
  const calls: SpeechCall[] = [];
  const script: { answers: Answer[] } = { answers: ['ok'] };
  const closedEarly = { count: 0 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
        res.writeHead(404).end();
        return;
      }
      const call = { authorization: req.headers.authorization, body: JSON.parse(text) as SpeechCall['body'] };
      calls.push(call);
      const error = (status: number, message: string, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify({ error: { message, type: 'test', code: null, param: null } }));
      if (call.authorization !== `Bearer ${API_KEY}`) return error(401, 'Incorrect API key provided');
      const answer = script.answers.length > 1 ? script.answers.shift()! : script.answers[0]!;
      switch (answer) {
        case 'ok':
          return res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(STUB_AUDIO);
        case 'rate_limited':
          // retry-after-ms keeps the SDK's backoff short in a test; real APIs send retry-after in seconds.
          return error(429, 'Rate limit reached for requests', { 'retry-after-ms': '20' });
        case 'server_error':
          return error(500, 'The server had an error while processing your request', { 'retry-after-ms': '20' });
        case 'bad_request':
          return error(400, "Invalid value for 'voice'");
        case 'slow': {
          const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(STUB_AUDIO), 10_000);
          res.on('close', () => {
            if (!res.writableEnded) {
              closedEarly.count += 1;
              clearTimeout(timer);
            }
          });
          return;
        }
      }
    });
  });
  return new Promise<{
    server: Server;
    url: string;
    calls: SpeechCall[];
    script: typeof script;
    closedEarly: typeof closedEarly;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        calls,
        script,
        closedEarly,
      }),
    ),
  );
}

const speechJob = (input: Record<string, unknown>): ProviderJob => ({
  runId: 'run_test',
  attempt: 1,
  operation: 'speech_generation',
  skillId: null,
  input,
  outputs: [{ assetId: 'asset_0000000000000000', kind: 'audio' }],
  costEstimated: 1,
  references: [],
});

describe('OpenAI-compatible speech adapter', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(() => new Promise<void>((resolve) => stub.server.close(() => resolve())));

  const provider = (apiKey = API_KEY) =>
    createOpenAiSpeechProvider({ baseUrl: stub.url, apiKey, model: 'gpt-4o-mini-tts', voice: 'alloy' });
  const context = (signal = new AbortController().signal) => ({
    signal,
    progress: () => undefined,
    inputFile: async () => null,
  });
  const failureOf = async (job: ProviderJob, apiKey = API_KEY) =>
    (await provider(apiKey)
      .execute(job, context())
      .catch((caught: unknown) => caught)) as ProviderError;

  it("sends the node's text, its voice and its emotion as instructions, and stores the API's audio as MP3", async () => {
    stub.script.answers = ['ok'];
    const result = await provider().execute(
      speechJob({
        text: ' Hello, lighthouse. ',
        voiceRef: { scope: 'user_custom', voiceId: 'coral' },
        emotionPrompt: 'whispering',
      }),
      context(),
    );
    expect(stub.calls.at(-1)).toEqual({
      authorization: `Bearer ${API_KEY}`,
      body: {
        model: 'gpt-4o-mini-tts',
        input: 'Hello, lighthouse.',
        voice: 'coral',
        response_format: 'mp3',
        instructions: 'whispering',
      },
    });
    expect(result.assets).toHaveLength(1);
    expect(result.assets[0]).toMatchObject({
      assetId: 'asset_0000000000000000',
      kind: 'audio',
      mimeType: 'audio/mpeg',
    });
    expect(result.assets[0]!.bytes.equals(STUB_AUDIO)).toBe(true);
  });

  it('uses the configured voice when the node names none', async () => {
    stub.script.answers = ['ok'];
    await provider().execute(speechJob({ text: 'Narration' }), context());
    expect(stub.calls.at(-1)!.body).toMatchObject({ voice: 'alloy', input: 'Narration' });
    expect(stub.calls.at(-1)!.body).not.toHaveProperty('instructions');
  });

  it('retries a rate limit and a server error with backoff, then succeeds', async () => {
    stub.script.answers = ['rate_limited', 'server_error', 'ok'];
    const before = stub.calls.length;
    const result = await provider().execute(speechJob({ text: 'Again' }), context());
    expect(stub.calls.length - before).toBe(3);
    expect(result.assets[0]!.bytes.equals(STUB_AUDIO)).toBe(true);
  });

  it('gives up after its retries with a provider_error naming the API and its status, not tried again by the engine', async () => {
    stub.script.answers = ['server_error'];
    const before = stub.calls.length;
    const error = await failureOf(speechJob({ text: 'Never' }));
    expect(stub.calls.length - before).toBe(3);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_error', retryable: false });
    expect(error.message).toBe(
      'The speech API answered HTTP 500 after 3 attempts: The server had an error while processing your request.',
    );
  });

  it('reports a refused request at once, without the key', async () => {
    stub.script.answers = ['bad_request'];
    const before = stub.calls.length;
    const error = await failureOf(speechJob({ text: 'Refused' }));
    expect(stub.calls.length - before).toBe(1);
    expect(error).toMatchObject({
      code: 'provider_error',
      retryable: false,
      message: "The speech API answered HTTP 400: Invalid value for 'voice'.",
    });
    const wrongKey = await failureOf(speechJob({ text: 'Refused' }), 'sk-wrong-key');
    expect(wrongKey.message).toContain('HTTP 401');
    expect(wrongKey.message).not.toContain('sk-wrong-key');
  });

  it('refuses a node without text before calling the API', async () => {
    const before = stub.calls.length;
    const error = await failureOf(speechJob({ text: '   ' }));
    expect(error).toMatchObject({ code: 'invalid_input', retryable: false });
    expect(stub.calls.length).toBe(before);
  });

  it('aborts the HTTP request when the run is cancelled', async () => {
    stub.script.answers = ['slow'];
    const controller = new AbortController();
    const before = stub.calls.length;
    const pending = provider().execute(speechJob({ text: 'Slow' }), context(controller.signal));
    await waitFor(
      async () => stub.calls.length,
      (count) => count > before,
    );
    controller.abort(new Error('cancelled by test'));
    await expect(pending).rejects.toThrow('cancelled by test');
    await waitFor(
      async () => stub.closedEarly.count,
      (count) => count >= 1,
      5000,
    );
  });

  describe.each(STORE_TARGETS)('through the engine: $name', (target) => {
    describe.skipIf(!target.available)('with --speech-provider openai', () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await startTestServer(target, {
          workers: 1,
          runDurationMs: 0,
          speechProvider: 'openai',
          openaiBaseUrl: stub.url,
          openaiApiKey: API_KEY,
        });
        await server.store.projects.createWorkspace('w');
        await server.store.projects.createProject('p', 'w');
        await server.store.projects.createCanvas('p', 'c', false);
      });
      afterAll(async () => server?.close());

      async function run(
        id: string,
        answers: Answer[],
        revision: number,
        audioKind: 'speech' | 'music' = 'speech',
      ): Promise<NodeRun> {
        stub.script.answers = answers;
        const node = CanvasNode.parse({
          id,
          type: 'audioNode',
          position: { x: 0, y: 0 },
          data: { audioUrl: null, audioKind, text: `Line ${id}` },
        });
        await server.store.writes.createNode(
          { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
          node,
        );
        const { run: submitted } = await submitNodeRun(server.store, {
          projectId: 'p',
          canvasId: 'c',
          nodeId: id,
          idempotencyKey: null,
          triggeredBy: { kind: 'system', name: 'test' },
        });
        server.server.engine!.runQueued();
        return (await waitFor(
          () => server.store.runs.getRun('p', 'c', submitted.run_id),
          (current) => ['succeeded', 'failed'].includes(current!.status),
        ))!;
      }

      it("stores the API's voice as the run's audio and serves it, and the run says which provider ran; a music node still runs locally", async () => {
        const done = await run('line', ['ok'], 0);
        expect(done).toMatchObject({
          status: 'succeeded',
          provider: 'openai-speech',
          outputs: [{ kind: 'audio', mime_type: 'audio/mpeg' }],
        });
        const { secret } = await server.store.tokens.createToken({
          name: 'reader',
          kind: 'backend',
          role: 'viewer',
          projects: ['p'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        });
        const served = await fetch(`${server.url}${done.outputs[0]!.url}`, {
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(served.headers.get('content-type')).toBe('audio/mpeg');
        // The API's sound, its MPEG frames untouched, with content credentials added in an ID3 frame.
        const bytes = Buffer.from(await served.arrayBuffer());
        const frames = STUB_AUDIO.subarray(10);
        expect(bytes.subarray(bytes.length - frames.length).equals(frames)).toBe(true);
        expect(JSON.stringify((await readCredentials(bytes, 'audio/mpeg'))?.manifest.assertions)).toContain(
          'trainedAlgorithmicMedia',
        );
        const callsBefore = stub.calls.length;
        const music = await run('theme', ['ok'], 1, 'music');
        expect(music).toMatchObject({
          status: 'succeeded',
          provider: 'local',
          outputs: [{ kind: 'audio', mime_type: 'audio/wav' }],
        });
        expect(stub.calls.length).toBe(callsBefore);
      });

      it('fails a run the API refuses with its message, charged nothing, and never logs the key', async () => {
        const refused = await run('refused', ['bad_request'], 2);
        expect(refused).toMatchObject({
          status: 'failed',
          attempt: 1,
          provider: 'openai-speech',
          cost: { charged: 0 },
          error: { code: 'provider_error', message: expect.stringContaining("Invalid value for 'voice'") },
        });
        expect(server.logs.join('')).not.toContain(API_KEY);
      });
    });
  });
});
