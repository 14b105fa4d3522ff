import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { CanvasNode, type NodeRun } from '../../src/contract/index.js';
import { createFalProvider } from '../../src/runs/providers/hosted/fal-provider.js';
import { createReplicateProvider } from '../../src/runs/providers/hosted/replicate-provider.js';
import { ProviderError, type ProviderJob } from '../../src/runs/providers/provider.js';
import { submitNodeRun } from '../../src/runs/submit.js';
import {
  FAL_KEY,
  REPLICATE_TOKEN,
  STANDIN_IMAGE,
  STANDIN_VIDEO,
  startHostedStandIn,
  type HostedStandIn,
} from '../support/hosted-standins.js';
import { api, startTestServer, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';
import { waitFor } from '../support/wait.js';

/**
 * Replicate and fal as providers, through their official clients (`replicate`, `@fal-ai/client`), against local
 * stand-ins of their documented APIs: states mapped onto ours, queue positions in the run's progress, retries of
 * 429/5xx, failures as provider_error, our cancel calling theirs (and a cancel that loses the race to completion
 * delivering the result), result files copied into our assets (a result URL that 404s fails the run).
 */

const job = (operation: ProviderJob['operation'], outputs: number, kind: 'image' | 'video' = 'image'): ProviderJob => ({
  runId: 'run_test',
  attempt: 1,
  operation,
  skillId: null,
  input: { prompt: 'a lighthouse at dusk', aspectRatio: '16:9', durationMs: 4000 },
  outputs: Array.from({ length: outputs }, (_, index) => ({
    assetId: `asset_${String(index).padStart(16, '0')}`,
    kind,
  })),
  costEstimated: 1,
  references: [],
});

function recorder(signal = new AbortController().signal) {
  const messages: string[] = [];
  return {
    messages,
    context: {
      signal,
      progress: (_percent: number, message: string) => messages.push(message),
      inputFile: async () => null,
    },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const caught = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(ProviderError);
  return caught as ProviderError;
}

describe('hosted providers against stand-ins of their APIs', () => {
  let standIn: HostedStandIn;
  beforeAll(async () => {
    standIn = await startHostedStandIn();
  });
  afterAll(async () => standIn?.close());
  // A test that fails midway must not leave its plans to the next one.
  beforeEach(() => {
    standIn.plans.length = 0;
  });

  const requestsSince = (count: number) => standIn.requests.slice(count).map((request) => request.line);

  describe('Replicate (predictions API, official client)', () => {
    const replicate = (pollIntervalMs = 10) =>
      createReplicateProvider({
        apiToken: REPLICATE_TOKEN,
        baseUrl: standIn.replicateUrl,
        models: { image_generation: 'black-forest-labs/flux-schnell', video_generation: 'minimax/video-01:abc123' },
        pollIntervalMs,
      });

    it('creates an image prediction with Prefer: wait and copies the files it answered into assets', async () => {
      standIn.plans.push({ doneWithinWait: true });
      const before = standIn.requests.length;
      const { context } = recorder();
      const result = await replicate().execute(job('image_generation', 2), context);
      const created = standIn.requests[before]!;
      expect(created).toMatchObject({
        line: 'POST /replicate/v1/models/black-forest-labs/flux-schnell/predictions',
        authorization: `Bearer ${REPLICATE_TOKEN}`,
        prefer: 'wait=30',
        body: { input: { prompt: 'a lighthouse at dusk', aspect_ratio: '16:9', num_outputs: 2 } },
      });
      expect(requestsSince(before + 1)).toEqual(['GET /files/job1-0.png', 'GET /files/job1-1.png']);
      expect(result.assets.map((asset) => [asset.assetId, asset.kind, asset.mimeType])).toEqual([
        ['asset_0000000000000000', 'image', 'image/png'],
        ['asset_0000000000000001', 'image', 'image/png'],
      ]);
      expect(result.assets[1]!.bytes.equals(STANDIN_IMAGE)).toBe(true);
    });

    it('takes the base64 data: files of a sync-mode answer as its outputs', async () => {
      standIn.plans.push({ doneWithinWait: true, dataUriOutputs: true });
      const result = await replicate().execute(job('image_generation', 2), recorder().context);
      expect(result.assets.map((asset) => [asset.kind, asset.mimeType, asset.bytes.equals(STANDIN_IMAGE)])).toEqual([
        ['image', 'image/png', true],
        ['image', 'image/png', true],
      ]);
    });

    it('a cancel while Replicate holds the creation (Prefer: wait) cancels the prediction by its id once it answers', async () => {
      standIn.plans.push({ outcome: 'never', holdCreateMs: 400 });
      const before = standIn.cancels.length;
      const controller = new AbortController();
      const creates = () =>
        standIn.requests.filter((request) => request.line.startsWith('POST /replicate/v1/models/')).length;
      const createsAtStart = creates();
      const pending = replicate().execute(job('image_generation', 1), recorder(controller.signal).context);
      await waitFor(
        async () => creates(),
        (count) => count > createsAtStart,
      );
      controller.abort(new Error('cancelled by test'));
      await expect(pending).rejects.toThrow('cancelled by test');
      // Told to stop: the prediction it created is not left running (and billing) at Replicate.
      expect(standIn.cancels.length).toBe(before + 1);
    });

    it('follows a video prediction by version from starting (queued) through processing (running) to its file', async () => {
      standIn.plans.push({ kind: 'video', queuedReads: 1, runningReads: 2 });
      const before = standIn.requests.length;
      const { context, messages } = recorder();
      const result = await replicate().execute(job('video_generation', 1, 'video'), context);
      expect(standIn.requests[before]).toMatchObject({
        line: 'POST /replicate/v1/predictions',
        prefer: undefined,
        body: { version: 'abc123', input: { duration: 4 } },
      });
      expect(new Set(messages)).toEqual(
        new Set(['queued at Replicate', 'running at Replicate', 'copying the result from Replicate']),
      );
      expect(result.assets[0]).toMatchObject({ kind: 'video', mimeType: 'video/mp4' });
      expect(result.assets[0]!.bytes.equals(STANDIN_VIDEO)).toBe(true);
    });

    it('rides out a rate limit on creation and a 503 on a read (the client retries)', async () => {
      standIn.plans.push({ createFailures: [429], readFailures: [503] });
      const before = standIn.requests.length;
      const { context } = recorder();
      const result = await replicate().execute(job('image_generation', 1), context);
      expect(result.assets).toHaveLength(1);
      const lines = requestsSince(before);
      expect(lines.filter((line) => line.startsWith('POST')).length).toBe(2);
    });

    it("fails with Replicate's reason when the prediction fails, and when the result file is gone", async () => {
      standIn.plans.push({ outcome: 'failed' });
      const failed = await failureOf(replicate().execute(job('image_generation', 1), recorder().context));
      expect(failed).toMatchObject({ code: 'provider_error', retryable: false });
      expect(failed.message).toMatch(/^Replicate's prediction job\d+ failed: NSFW content detected in the output$/);
      standIn.plans.push({ fileStatus: 404 });
      const gone = await failureOf(replicate().execute(job('image_generation', 1), recorder().context));
      expect(gone).toMatchObject({ code: 'provider_error', message: "Replicate's result file answered HTTP 404." });
    });

    it('a refused token fails at once, naming the status but never the token', async () => {
      const wrong = createReplicateProvider({
        apiToken: 'r8_wrong',
        baseUrl: standIn.replicateUrl,
        models: { image_generation: 'a/b' },
      });
      const refused = await failureOf(wrong.execute(job('image_generation', 1), recorder().context));
      expect(refused.message).toBe('Replicate answered HTTP 401: You did not pass a valid authentication token.');
      expect(refused.message).not.toContain('r8_wrong');
    });

    it('our cancel cancels the prediction at Replicate; a prediction that finished first is delivered', async () => {
      standIn.plans.push({ outcome: 'never' });
      const controller = new AbortController();
      const before = standIn.cancels.length;
      const reads = () => standIn.requests.filter((request) => request.line.startsWith('GET /replicate')).length;
      const readsAtStart = reads();
      const pending = replicate().execute(job('video_generation', 1, 'video'), recorder(controller.signal).context);
      await waitFor(
        async () => reads(),
        (count) => count >= readsAtStart + 2,
      );
      controller.abort(new Error('cancelled by test'));
      await expect(pending).rejects.toThrow('cancelled by test');
      expect(standIn.cancels.length).toBe(before + 1);

      standIn.plans.push({ outcome: 'never', completesOnCancel: true });
      const racing = new AbortController();
      const readsBefore = reads();
      const raced = replicate().execute(job('image_generation', 1), recorder(racing.signal).context);
      await waitFor(
        async () => reads(),
        (count) => count > readsBefore,
      );
      racing.abort(new Error('cancelled by test'));
      const delivered = await raced;
      expect(delivered.assets[0]!.bytes.equals(STANDIN_IMAGE)).toBe(true);
    });
  });

  describe('fal (queue API, official client)', () => {
    const fal = (pollIntervalMs = 10) =>
      createFalProvider({
        apiKey: FAL_KEY,
        queueUrl: standIn.falUrl,
        models: { image_generation: 'fal-ai/flux/schnell', video_generation: 'fal-ai/ltx-video' },
        pollIntervalMs,
      });

    it('submits, shows the queue position while queued, and copies the images of the result', async () => {
      standIn.plans.push({ queuedReads: 2, runningReads: 1 });
      const before = standIn.requests.length;
      const { context, messages } = recorder();
      const result = await fal().execute(job('image_generation', 2), context);
      expect(standIn.requests[before]).toMatchObject({
        line: 'POST /fal/fal-ai/flux/schnell',
        authorization: `Key ${FAL_KEY}`,
        body: { prompt: 'a lighthouse at dusk', aspect_ratio: '16:9', num_images: 2 },
      });
      expect(requestsSince(before).filter((line) => line.endsWith('/status'))[0]).toMatch(
        /^GET \/fal\/fal-ai\/flux\/requests\/job\d+\/status$/,
      );
      expect(messages.slice(0, 3)).toEqual([
        'queued at fal, position 3',
        'queued at fal, position 2',
        'queued at fal, position 1',
      ]);
      expect(messages).toContain('running at fal');
      expect(result.assets.map((asset) => asset.mimeType)).toEqual(['image/png', 'image/png']);
      expect(result.assets[0]!.bytes.equals(STANDIN_IMAGE)).toBe(true);
    });

    it("fails with fal's reason when the request completes with an error", async () => {
      standIn.plans.push({ outcome: 'failed' });
      const failed = await failureOf(fal().execute(job('image_generation', 1), recorder().context));
      expect(failed.message).toMatch(/^fal's request job\d+ failed: The model could not generate this prompt$/);
    });

    it('rides out a 503 on submission (the client retries with backoff)', async () => {
      standIn.plans.push({ createFailures: [503], kind: 'video' });
      const before = standIn.requests.length;
      const result = await fal().execute(job('video_generation', 1, 'video'), recorder().context);
      expect(result.assets[0]!.bytes.equals(STANDIN_VIDEO)).toBe(true);
      expect(requestsSince(before).filter((line) => line.startsWith('POST')).length).toBe(2);
    });

    it('our cancel cancels the request at fal; a request fal completed first is delivered', async () => {
      standIn.plans.push({ outcome: 'never' });
      const controller = new AbortController();
      const before = standIn.cancels.length;
      const statusReads = () => standIn.requests.filter((request) => request.line.endsWith('/status')).length;
      const readsAtStart = statusReads();
      const pending = fal().execute(job('image_generation', 1), recorder(controller.signal).context);
      await waitFor(
        async () => statusReads(),
        (count) => count >= readsAtStart + 2,
      );
      controller.abort(new Error('cancelled by test'));
      await expect(pending).rejects.toThrow('cancelled by test');
      expect(standIn.cancels.length).toBe(before + 1);

      standIn.plans.push({ outcome: 'never', completesOnCancel: true });
      const racing = new AbortController();
      const reads = statusReads();
      const raced = fal().execute(job('image_generation', 1), recorder(racing.signal).context);
      await waitFor(
        async () => statusReads(),
        (count) => count > reads,
      );
      racing.abort(new Error('cancelled by test'));
      expect((await raced).assets[0]!.bytes.equals(STANDIN_IMAGE)).toBe(true);
    });

    it('a result file that is gone fails the run with a provider_error', async () => {
      standIn.plans.push({ fileStatus: 404 });
      const gone = await failureOf(fal().execute(job('image_generation', 1), recorder().context));
      expect(gone).toMatchObject({ code: 'provider_error', message: "fal's result file answered HTTP 404." });
    });
  });

  describe.each(STORE_TARGETS)('through the engine: $name', (target) => {
    describe.skipIf(!target.available)('images on Replicate, videos on fal', () => {
      let server: TestServer;
      let revision = 0;
      beforeAll(async () => {
        server = await startTestServer(target, {
          workers: 1,
          imageProvider: 'replicate',
          videoProvider: 'fal',
          replicateBaseUrl: standIn.replicateUrl,
          replicateApiToken: REPLICATE_TOKEN,
          falQueueUrl: standIn.falUrl,
          falKey: FAL_KEY,
          providerPollMs: 20,
          runPrices: JSON.stringify({ 'black-forest-labs/flux-schnell': 0.4, 'fal-ai/ltx-video': 12 }),
        });
        await server.store.projects.createWorkspace('w');
        await server.store.projects.createProject('p', 'w');
        await server.store.projects.createCanvas('p', 'c', false);
      });
      afterAll(async () => server?.close());

      async function submit(node: unknown): Promise<string> {
        const parsed = CanvasNode.parse(node);
        await server.store.writes.createNode(
          { projectId: 'p', canvasId: 'c', baseRevision: revision, clientSaveId: null, authorization: SYSTEM_WRITE },
          parsed,
        );
        revision += 1;
        const { run } = await submitNodeRun(server.store, {
          projectId: 'p',
          canvasId: 'c',
          nodeId: parsed.id,
          idempotencyKey: null,
          triggeredBy: { kind: 'system', name: 'test' },
        });
        server.server.engine!.runQueued();
        return run.run_id;
      }
      const until = (runId: string, statuses: string[]) =>
        waitFor(
          () => server.store.runs.getRun('p', 'c', runId),
          (run) => statuses.includes(run!.status),
        ) as Promise<NodeRun>;

      it('an image runs on Replicate and a video on fal; each run says which, and its asset is ours', async () => {
        standIn.plans.push({ doneWithinWait: true });
        const image = await until(
          await submit({
            id: 'still',
            type: 'imageGenNode',
            position: { x: 0, y: 0 },
            data: { prompt: 'still', size: '1K', imageUrl: null, aspectRatio: '1:1' },
          }),
          ['succeeded', 'failed'],
        );
        expect(image).toMatchObject({ status: 'succeeded', provider: 'replicate' });
        standIn.plans.push({ kind: 'video' });
        const video = await until(
          await submit({
            id: 'clip',
            type: 'videoNode',
            position: { x: 0, y: 200 },
            data: { prompt: 'waves', videoUrl: null, aspectRatio: '16:9', durationMs: 3000 },
          }),
          ['succeeded', 'failed'],
        );
        expect(video).toMatchObject({ status: 'succeeded', provider: 'fal', outputs: [{ mime_type: 'video/mp4' }] });

        const { secret } = await server.store.tokens.createToken({
          name: 'reader',
          kind: 'backend',
          role: 'viewer',
          projects: ['p'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        });
        const served = await fetch(`${server.url}${video.outputs[0]!.url}`, {
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(Buffer.from(await served.arrayBuffer()).equals(STANDIN_VIDEO)).toBe(true);
        expect(video.outputs[0]!.url).toMatch(/^\/assets\/asset_/);
        const logs = server.logs.join('');
        expect(logs).not.toContain(REPLICATE_TOKEN);
        expect(logs).not.toContain(FAL_KEY);
      });

      it('prices per model drive the estimate, the run record and the budget check', async () => {
        const { tokenId, secret } = await server.store.tokens.createToken({
          name: 'pricing',
          kind: 'backend',
          role: 'editor',
          projects: ['p'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        });
        const chatRun = await server.store.chatRuns.createChatRun({
          projectId: 'p',
          canvasId: 'c',
          actor: null,
          tokenId,
          canEdit: true,
          expiresAt: null,
        });
        const estimate = await api(server.url, '/api/v2/projects/p/canvases/c/nodes/clip/run-estimate', {
          token: secret,
        });
        expect(estimate.body).toMatchObject({ operation: 'video_generation', cost: { estimated: 12 } });
        // Through the backend, as every client submits: the run record carries the model's price.
        const image = await api(server.url, '/api/v2/projects/p/canvases/c/nodes/still/runs', {
          method: 'POST',
          token: secret,
          headers: { 'idempotency-key': 'priced-image', 'x-agent-run-id': chatRun },
        });
        expect(image.status).toBe(202);
        expect((image.body as NodeRun).cost.estimated).toBe(0.4);
        await until((image.body as NodeRun).run_id, ['succeeded', 'failed']);
        const { spent } = await server.store.runs.budget('p');
        await server.store.projects.setProjectBudget('p', spent + 5);
        try {
          const refused = await api(server.url, '/api/v2/projects/p/canvases/c/nodes/clip/runs', {
            method: 'POST',
            token: secret,
            headers: { 'idempotency-key': 'priced', 'x-agent-run-id': chatRun },
          });
          expect(refused.status).toBe(402);
          expect(JSON.stringify(refused.body)).toContain('estimated at 12 credits');
        } finally {
          await server.store.projects.setProjectBudget('p', null);
        }
      });

      it('a queued fal request shows its position; cancelling the run cancels it at fal and charges nothing', async () => {
        standIn.plans.push({ outcome: 'never', queuedReads: 1_000 });
        const runId = await submit({
          id: 'long',
          type: 'videoNode',
          position: { x: 0, y: 400 },
          data: { prompt: 'slow', videoUrl: null, aspectRatio: '16:9', durationMs: 3000 },
        });
        const queued = await waitFor(
          () => server.store.runs.getRun('p', 'c', runId),
          (run) => /^queued at fal, position \d+$/.test(run?.progress.message ?? ''),
        );
        expect(queued?.status).toBe('running');
        const cancelsBefore = standIn.cancels.length;
        const { secret } = await server.store.tokens.createToken({
          name: 'canceller',
          kind: 'backend',
          role: 'editor',
          projects: ['p'],
          workspaces: [],
          actor: null,
          expiresAt: null,
        });
        const cancel = await api(server.url, `/api/v2/projects/p/canvases/c/runs/${runId}/cancel`, {
          method: 'POST',
          token: secret,
        });
        expect(cancel.status).toBe(200);
        // Cancelled while fal still queued it: charged nothing, as fal bills no queue time.
        expect(await until(runId, ['cancelled'])).toMatchObject({
          status: 'cancelled',
          provider: 'fal',
          cost: { charged: 0 },
        });
        expect(standIn.cancels.length).toBe(cancelsBefore + 1);
      });
    });
  });
});
