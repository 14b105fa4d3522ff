import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPricingSettings } from '../../src/config/index.js';
import {
  CanvasNode,
  ModelAccepts,
  ModelDeclaration,
  RunModel,
  RunOperation,
  type NodeRun,
} from '../../src/contract/index.js';
import { createFalProvider } from '../../src/runs/providers/hosted/fal-provider.js';
import { ProviderError, type ProviderJob } from '../../src/runs/providers/provider.js';
import { runModelsOf } from '../../src/runs/run-models.js';
import { MODEL_DECLARATIONS, declarationOf } from '../../src/shared/model-declarations.js';
import { FAL_KEY, startHostedStandIn, type HostedStandIn } from '../support/hosted-standins.js';
import { SYSTEM_WRITE } from '../../src/store/edit-authorization.js';
import { editorStage } from '../support/editor-stage.js';
import { api, type ApiRequest, type TestServer } from '../support/servers.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * Model declarations (docs/runs.md, "Model declarations"): every model a provider may run declares what it accepts
 * (first frame, last frame, how many references, camera control) in the contract's shape, each accepted input named;
 * `GET /api/v1/run-models` lists them as configured; a run asking for an input its model does not take is refused
 * naming the field and the model (a retired model, replaced by one nobody declared, takes nothing), and a worker
 * whose model does not take a frame the run was given fails it, naming both, before sending anything.
 */

const PROVIDER_CHOICES = [
  { imageProvider: 'local', videoProvider: 'local', storyboardProvider: 'local' },
  { imageProvider: 'openai', speechProvider: 'openai', videoProvider: 'local', storyboardProvider: 'local' },
  { imageProvider: 'replicate', videoProvider: 'replicate', storyboardProvider: 'replicate' },
  { imageProvider: 'fal', videoProvider: 'fal', storyboardProvider: 'fal' },
] as const;

describe('model declarations', () => {
  it('declares every known model in the contract’s shape, naming the input of each thing it accepts and no other', () => {
    expect(Object.keys(MODEL_DECLARATIONS).length).toBeGreaterThan(10);
    for (const [model, declaration] of Object.entries(MODEL_DECLARATIONS)) {
      expect(ModelDeclaration.safeParse(declaration).success, model).toBe(true);
      const { accepts, inputs } = declaration;
      expect(!!inputs.firstFrame, `${model} firstFrame`).toBe(accepts.firstFrame);
      expect(!!inputs.lastFrame, `${model} lastFrame`).toBe(accepts.lastFrame);
      expect(!!inputs.references, `${model} references`).toBe(accepts.references > 0);
      expect(!!inputs.cameraControl, `${model} cameraControl`).toBe(accepts.cameraControl);
      // A last frame without a first is no model's input.
      if (accepts.lastFrame) expect(accepts.firstFrame, model).toBe(true);
    }
  });

  it('gives every operation, with every provider choice, a model that declares what it accepts, the defaults among the known ones', () => {
    for (const choice of PROVIDER_CHOICES) {
      const models = runModelsOf(loadPricingSettings(choice, {})).list();
      expect(models.map((model) => model.operation)).toEqual(RunOperation.options);
      for (const model of models) {
        expect(RunModel.safeParse(model).success, JSON.stringify(model)).toBe(true);
        expect(ModelAccepts.safeParse(model.accepts).success).toBe(true);
        // The settings' default models are declared, not taken as unknown.
        if (model.provider !== 'local' && model.provider !== 'openai-speech')
          expect(Object.keys(MODEL_DECLARATIONS), `${choice.imageProvider}: ${model.model}`).toContain(model.model);
      }
    }
  });

  it('takes a model nobody declared as accepting nothing, and a Replicate version as its model', () => {
    expect(declarationOf('fal-ai/a-model-from-next-year').accepts).toEqual({
      firstFrame: false,
      lastFrame: false,
      references: 0,
      cameraControl: false,
    });
    expect(declarationOf('kwaivgi/kling-v2.1:0123abcd').inputs).toEqual({
      firstFrame: 'start_image',
      lastFrame: 'end_image',
    });
    // References follow the referenceInputs setting: a known model it leaves out takes none.
    expect(declarationOf('fal-ai/nano-banana/edit', {}).accepts.references).toBe(0);
    expect(declarationOf('fal-ai/nano-banana/edit').inputs.references).toBe('image_urls[]');
  });
});

describe('a worker whose model takes no frame', () => {
  let standIn: HostedStandIn;
  beforeAll(async () => {
    standIn = await startHostedStandIn();
  });
  afterAll(async () => standIn?.close());

  it('fails a run given a first frame, naming the frame and the model, and sends fal nothing', async () => {
    const fal = createFalProvider({
      apiKey: FAL_KEY,
      queueUrl: standIn.falUrl,
      models: { video_generation: 'fal-ai/ltx-video' },
      pollIntervalMs: 10,
    });
    const job: ProviderJob = {
      runId: 'run_test',
      attempt: 1,
      operation: 'video_generation',
      skillId: null,
      input: { prompt: 'the pier', aspectRatio: '16:9', durationMs: 2000 },
      outputs: [{ assetId: 'asset_0000000000000000', kind: 'video' }],
      costEstimated: 5,
      references: [],
      frames: { first: { asset_id: 'asset_1111111111111111', from: 'picture', shot_id: 's2' } },
    };
    const before = standIn.requests.length;
    const failure = await fal
      .execute(job, { signal: new AbortController().signal, progress: () => undefined, inputFile: async () => null })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ code: 'input_not_accepted', retryable: false });
    expect((failure as Error).message).toContain('first frame');
    expect((failure as Error).message).toContain('fal-ai/ltx-video');
    expect(standIn.requests.length).toBe(before);
  });
});

describe.each(STORE_TARGETS)('a run asking for what its model does not take: $name', (target) => {
  describe.skipIf(!target.available)('over real HTTP', () => {
    const RETIRED_SUCCESSOR = 'fal-ai/a-model-nobody-declared';
    let server: TestServer;
    let cookie: string;
    let viewer: string;
    const asEditor = (request: ApiRequest): ApiRequest => ({
      ...request,
      headers: { cookie, origin: server.url, 'x-requested-by': 'canvas-mcp', ...request.headers },
    });

    beforeAll(async () => {
      // The board was made while a model that takes frames ran video; that model retired, another was configured.
      ({ server, cookie, viewer } = await editorStage(target, {
        videoProvider: 'fal',
        falKey: FAL_KEY,
        falQueueUrl: 'http://127.0.0.1:9/',
        falVideoModel: RETIRED_SUCCESSOR,
      }));
      const board = {
        id: 'board',
        type: 'storyboardNode',
        position: { x: 400, y: 0 },
        data: {
          frames: [
            { id: 's1', imageUrl: null, sourceNodeId: 'v1' },
            { id: 's2', imageUrl: null, sourceNodeId: 'v2' },
          ],
        },
      };
      const videos = ['v1', 'v2'].map((id, index) => ({
        id,
        type: 'videoNode',
        position: { x: 0, y: index * 300 },
        data: { videoUrl: null, prompt: id },
      }));
      for (const node of [...videos, board])
        await server.store.writes.createNode(
          {
            projectId: 'p',
            canvasId: 'c',
            baseRevision: (await server.store.layout.readCanvas('p', 'c'))!.revision,
            clientSaveId: null,
            authorization: SYSTEM_WRITE,
          },
          CanvasNode.parse(node),
        );
    }, 60_000);
    afterAll(async () => server?.close());

    it('lists the configured model as accepting nothing', async () => {
      const listed = await api(server.url, '/api/v1/run-models', { token: viewer });
      expect(listed.status).toBe(200);
      expect(
        (listed.body as { models: RunModel[] }).models.find((model) => model.operation === 'video_generation'),
      ).toEqual({
        operation: 'video_generation',
        provider: 'fal',
        model: RETIRED_SUCCESSOR,
        accepts: { firstFrame: false, lastFrame: false, references: 0, cameraControl: false },
      });
    });

    it('refuses start_from naming the field and the model, and queues no run', async () => {
      const refused = await api(
        server.url,
        '/api/v2/projects/p/canvases/c/nodes/v2/runs?start_from=previous_last_frame',
        asEditor({ method: 'POST', headers: { 'idempotency-key': 'k1' } }),
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        error: {
          code: 'not_runnable',
          details: { field: 'start_from', model: RETIRED_SUCCESSOR, provider: 'fal', accepts: { firstFrame: false } },
        },
      });
      const message = (refused.body as { error: { message: string } }).error.message;
      expect(message).toContain('start_from');
      expect(message).toContain(RETIRED_SUCCESSOR);
      expect(await server.store.runs.latestRunsByNode('p', 'c')).toEqual([]);
    });

    it('still runs the shot from its prompt alone when nothing is asked of the model (the board does not break)', async () => {
      const submitted = await api(
        server.url,
        '/api/v2/projects/p/canvases/c/nodes/v2/runs',
        asEditor({ method: 'POST', headers: { 'idempotency-key': 'k2' } }),
      );
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      expect((submitted.body as NodeRun).status).toBe('queued');
    });
  });
});
