import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import sharp from 'sharp';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deterministicPng } from '../../src/runs/providers/artifacts.js';
import { readCredentials } from '../../src/provenance/c2pa-signer.js';
import { createOpenAiImagesProvider } from '../../src/runs/providers/openai-images-provider.js';
import { ProviderError, type ProviderJob } from '../../src/runs/providers/provider.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import { startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * The OpenAI-compatible images adapter against a local stub server that speaks that API: POST
 * /v1/images/generations with a bearer key, answering { data: [{ b64_json }] }.
 */

const API_KEY = 'sk-test-not-a-real-key';
const STUB_IMAGE = deterministicPng('stub', 32, 1);

interface StubCall {
  authorization: string | undefined;
  path: string;
  body: { model: string; prompt: string; n: number; size: string; response_format?: string };
  /** The edits endpoint's `image[]` files. */
  images: Array<{ field: string; mimeType: string; bytes: Buffer }>;
}

/** The edits endpoint's multipart body, read as the API does (fields and `image[]` files). */
function readEditForm(req: IncomingMessage): Promise<{ fields: Record<string, string>; images: StubCall['images'] }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const images: StubCall['images'] = [];
    const form = busboy({ headers: req.headers });
    form.on('field', (name, value) => (fields[name] = value));
    form.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => images.push({ field, mimeType: info.mimeType, bytes: Buffer.concat(chunks) }));
    });
    form.on('close', () => resolve({ fields, images }));
    form.on('error', reject);
    req.pipe(form);
  });
}

type Behaviour = 'ok' | 'bad_request' | 'unavailable_once' | 'slow';

function startStub(): Promise<{
  server: Server;
  url: string;
  calls: StubCall[];
  behaviour: { next: Behaviour };
  aborted: { count: number };
}> {
  const calls: StubCall[] = [];
  const behaviour = { next: 'ok' as Behaviour };
  const aborted = { count: 0 };
  const server = createServer((req: IncomingMessage, res) => {
    const edits = req.method === 'POST' && req.url === '/v1/images/edits';
    const read: Promise<{ body: StubCall['body']; images: StubCall['images'] }> = edits
      ? readEditForm(req).then(({ fields, images }) => ({
          body: { model: fields.model!, prompt: fields.prompt!, n: Number(fields.n), size: fields.size! },
          images,
        }))
      : new Promise((resolve) => {
          let text = '';
          req.on('data', (chunk: Buffer) => (text += chunk.toString()));
          req.on('end', () => resolve({ body: (text ? JSON.parse(text) : {}) as StubCall['body'], images: [] }));
        });
    void read.then(({ body, images }) => {
      if (req.method !== 'POST' || (req.url !== '/v1/images/generations' && !edits)) {
        res.writeHead(404).end();
        return;
      }
      const call = { authorization: req.headers.authorization, path: req.url ?? '', body, images };
      calls.push(call);
      if (call.authorization !== `Bearer ${API_KEY}`) {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
        return;
      }
      const answer = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            created: 1,
            data: Array.from({ length: call.body.n }, () => ({ b64_json: STUB_IMAGE.toString('base64') })),
          }),
        );
      switch (behaviour.next) {
        case 'bad_request':
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'Your prompt was rejected' } }));
          return;
        case 'unavailable_once':
          behaviour.next = 'ok';
          res.writeHead(503).end('upstream busy');
          return;
        case 'slow': {
          const timer = setTimeout(answer, 10_000);
          res.on('close', () => {
            if (!res.writableEnded) {
              aborted.count += 1;
              clearTimeout(timer);
            }
          });
          return;
        }
        case 'ok':
          answer();
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        calls,
        behaviour,
        aborted,
      }),
    ),
  );
}

const job = (outputs: number, aspectRatio = '16:9'): ProviderJob => ({
  runId: 'run_test',
  attempt: 1,
  operation: 'image_generation',
  skillId: null,
  input: { prompt: 'a lighthouse', aspectRatio, size: '1K', count: outputs },
  outputs: Array.from({ length: outputs }, (_, index) => ({
    assetId: `asset_${String(index).padStart(16, '0')}`,
    kind: 'image' as const,
  })),
  costEstimated: outputs,
  references: [],
});

describe('OpenAI-compatible images adapter', () => {
  let stub: Awaited<ReturnType<typeof startStub>>;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(() => new Promise<void>((resolve) => stub.server.close(() => resolve())));

  const provider = () => createOpenAiImagesProvider({ baseUrl: stub.url, apiKey: API_KEY, model: 'gpt-image-1' });
  const context = (signal = new AbortController().signal) => ({
    signal,
    progress: () => undefined,
    inputFile: async () => null,
  });

  it('sends the prompt, model, count and size with the key, and returns the decoded images', async () => {
    stub.behaviour.next = 'ok';
    const result = await provider().execute(job(2), context());
    expect(stub.calls.at(-1)).toEqual({
      authorization: `Bearer ${API_KEY}`,
      path: '/v1/images/generations',
      body: { model: 'gpt-image-1', prompt: 'a lighthouse', n: 2, size: '1536x1024', response_format: 'b64_json' },
      images: [],
    });
    expect(result.assets.map((asset) => [asset.assetId, asset.mimeType])).toEqual([
      ['asset_0000000000000000', 'image/png'],
      ['asset_0000000000000001', 'image/png'],
    ]);
    expect(result.assets[0]!.bytes.equals(STUB_IMAGE)).toBe(true);
  });

  it.each([
    ['9:16', '1024x1536'],
    ['1:1', '1024x1024'],
  ])('maps aspect ratio %s to size %s', async (aspectRatio, size) => {
    stub.behaviour.next = 'ok';
    await provider().execute(job(1, aspectRatio), context());
    expect(stub.calls.at(-1)?.body.size).toBe(size);
  });

  it("sends the elements' reference pictures to the edits endpoint as image[] files when the model takes them", async () => {
    stub.behaviour.next = 'ok';
    const dir = mkdtempSync(join(tmpdir(), 'canvas-mcp-refs-'));
    const files = [join(dir, 'a.png'), join(dir, 'b.png')];
    await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#a03020' } })
      .png()
      .toFile(files[0]!);
    await sharp({ create: { width: 40, height: 60, channels: 4, background: '#2040a0' } })
      .png()
      .toFile(files[1]!);
    const referencing = createOpenAiImagesProvider({
      baseUrl: stub.url,
      apiKey: API_KEY,
      model: 'gpt-image-1',
      referenceInputs: { 'gpt-image-1': 'image[]' },
    });
    const withRefs = { ...job(1), references: ['asset_aaaaaaaaaaaaaaaa', 'asset_bbbbbbbbbbbbbbbb'] };
    const inputs = { asset_aaaaaaaaaaaaaaaa: files[0]!, asset_bbbbbbbbbbbbbbbb: files[1]! } as Record<string, string>;
    const result = await referencing.execute(withRefs, { ...context(), inputFile: async (id) => inputs[id] ?? null });
    const call = stub.calls.at(-1)!;
    expect(call.path).toBe('/v1/images/edits');
    expect(call.body).toEqual({ model: 'gpt-image-1', prompt: 'a lighthouse', n: 1, size: '1536x1024' });
    expect(call.images.map((image) => [image.field, image.mimeType])).toEqual([
      ['image[]', 'image/jpeg'],
      ['image[]', 'image/jpeg'],
    ]);
    // Sent as upright JPEGs of at most 1024 pixels a side; a small picture is not enlarged.
    const sizes = await Promise.all(call.images.map(async (image) => sharp(image.bytes).metadata()));
    expect(sizes.map((size) => [size.format, size.width, size.height])).toEqual([
      ['jpeg', 1024, 512],
      ['jpeg', 40, 60],
    ]);
    expect(result.referencesUsed).toBe(true);

    // The same job on a model that takes none: generations, the prompt alone, and the run says so.
    const plain = await provider().execute(withRefs, context());
    expect(stub.calls.at(-1)!.path).toBe('/v1/images/generations');
    expect(plain.referencesUsed).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a refused request as a non-retryable provider error that never contains the key', async () => {
    stub.behaviour.next = 'bad_request';
    const error = await provider()
      .execute(job(1), context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'provider_error',
      retryable: false,
      message: 'The images API answered HTTP 400: Your prompt was rejected.',
    });
    const wrongKey = createOpenAiImagesProvider({ baseUrl: stub.url, apiKey: 'sk-wrong', model: 'gpt-image-1' });
    const refused = (await wrongKey.execute(job(1), context()).catch((caught: unknown) => caught)) as ProviderError;
    expect(refused.retryable).toBe(false);
    expect(refused.message).not.toContain('sk-wrong');
  });

  it('reports an unavailable API as retryable', async () => {
    stub.behaviour.next = 'unavailable_once';
    const error = await provider()
      .execute(job(1), context())
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider_error', retryable: true });
  });

  it('aborts the HTTP request when the run is cancelled', async () => {
    stub.behaviour.next = 'slow';
    const controller = new AbortController();
    const callsBefore = stub.calls.length;
    const pending = provider().execute(job(1), context(controller.signal));
    // Cancel once the request is in flight: the stub has it and holds its answer.
    await waitFor(
      async () => stub.calls.length,
      (count) => count > callsBefore,
    );
    controller.abort(new Error('cancelled by test'));
    await expect(pending).rejects.toThrow('cancelled by test');
    await waitFor(
      async () => stub.aborted.count,
      (count) => count >= 1,
      5000,
    );
  });

  describe('through the engine', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(STORE_TARGETS[0]!, {
        workers: 1,
        imageProvider: 'openai',
        openaiBaseUrl: stub.url,
        openaiApiKey: API_KEY,
      });
      await server.store.projects.createWorkspace('w');
      await server.store.projects.createProject('p', 'w');
      await server.store.projects.createCanvas('p', 'c', false);
    });
    afterAll(async () => server?.close());

    async function run(id: string, behaviour: Behaviour, revision: number): Promise<NodeRun> {
      stub.behaviour.next = behaviour;
      const node = CanvasNode.parse({
        id,
        type: 'imageGenNode',
        position: { x: 0, y: 0 },
        data: { prompt: id, size: '1K', imageUrl: null, aspectRatio: '1:1' },
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

    it('stores the API image as the run asset and serves it', async () => {
      const done = await run('ok', 'ok', 0);
      expect(done).toMatchObject({ status: 'succeeded', attempt: 1 });
      // Read as a member of the project would (an unsigned asset URL needs a credential).
      const { secret } = await server.store.tokens.createToken({
        name: 'reader',
        kind: 'backend',
        role: 'viewer',
        projects: ['p'],
        workspaces: [],
        actor: null,
        expiresAt: null,
      });
      const served = Buffer.from(
        await (
          await fetch(`${server.url}${done.outputs[0]!.url}`, { headers: { authorization: `Bearer ${secret}` } })
        ).arrayBuffer(),
      );
      // The API's picture, pixel for pixel, with content credentials added: made by the OpenAI provider.
      const pixels = async (bytes: Buffer) => sharp(bytes).raw().toBuffer();
      expect((await pixels(served)).equals(await pixels(STUB_IMAGE))).toBe(true);
      const credentials = await readCredentials(served, 'image/png');
      expect(JSON.stringify(credentials?.manifest.assertions)).toContain('trainedAlgorithmicMedia');
    });

    it('retries a transient failure and fails a refused prompt with the API message', async () => {
      expect(await run('flaky', 'unavailable_once', 1)).toMatchObject({ status: 'succeeded', attempt: 2 });
      const refused = await run('refused', 'bad_request', 2);
      expect(refused).toMatchObject({
        status: 'failed',
        cost: { charged: 0 },
        error: { code: 'provider_error', message: expect.stringContaining('Your prompt was rejected') },
      });
      expect(server.logs.join('')).not.toContain(API_KEY);
    });
  });
});
