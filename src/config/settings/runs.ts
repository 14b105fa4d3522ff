import { z } from 'zod';
// The contract's own file, not its index (which builds every wire shape): every command line reads these rows.
import { ModelInputName } from '../../contract/run-models.js';
import { DEFAULT_REFERENCE_INPUTS } from '../../shared/model-declarations.js';
import { HttpUrl, Int, setting } from '../setting.js';
/** A JSON object of model id to a value, given as an object (settings file) or as its JSON text (flag, environment). */
function modelMap<V extends z.ZodType>(value: V, words: { json: string; values: string }) {
  return z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .transform((given, context) => {
      if (typeof given !== 'string') return given;
      try {
        return JSON.parse(given) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: words.json });
        return z.NEVER;
      }
    })
    .pipe(z.record(z.string().min(1), value, { error: words.values }));
}

const RunPrices = modelMap(z.number().min(0).max(1_000_000), {
  json: 'must be a JSON object of model id to credits per output, e.g. {"fal-ai/flux/schnell": 0.4}',
  values: 'must map model ids to credits per output (numbers of 0 or more)',
});

/** The input a model takes reference pictures in; `[]` at the end: a list. */
const ReferenceInputs = modelMap(ModelInputName, {
  json: 'must be a JSON object of model id to the input that takes reference pictures, e.g. {"fal-ai/nano-banana/edit": "image_urls[]"}',
  values: 'must map model ids to an input name, with [] at its end when the input is a list',
});

/** Models known to take reference pictures, and where: the model declarations' (src/shared/model-declarations.ts). */
export { DEFAULT_REFERENCE_INPUTS };

const MODEL = 'owner/name or owner/name:version';

/** Node runs, the workers that run them and exports, and the providers they call. */
export const RUN_SETTINGS = {
  // Node runs and their providers.
  workers: setting({
    schema: Int(0, 64),
    default: 2,
    arg: 'n',
    help: 'node run workers inside this process (0 for none)',
    docs: 'node run workers in this process (`0`: none)',
    commands: ['worker'],
  }),
  exportWorkers: setting({
    schema: Int(0, 16),
    default: 1,
    arg: 'n',
    help: 'export workers inside this process: PDFs, animatics and timelines (0 for none)',
    docs: 'export workers in this process (`0`: none); each renders one PDF, animatic or timeline at a time (docs/deliverables.md)',
    commands: ['worker'],
  }),
  exportMaxMinutes: setting({
    schema: Int(1, 600),
    default: 30,
    arg: 'minutes',
    help: 'longest animatic an export may make; a longer board is refused before the job starts',
    docs: 'longest animatic an export may make (30 minutes); a longer board is refused before the job starts, naming its length (docs/deliverables.md)',
  }),
  exportsPerPerson: setting({
    schema: Int(1, 1000),
    default: 3,
    arg: 'n',
    help: 'exports one person may have queued or running at once',
    docs: 'exports one person may have queued or running at once, on every project; one more is refused with 429 `rate_limited` until one ends (docs/security.md, "Storage and media bounds")',
  }),
  exportsPerProject: setting({
    schema: Int(1, 10_000),
    default: 10,
    arg: 'n',
    help: 'exports one project may have queued or running at once',
    docs: 'exports one project may have queued or running at once; one more is refused with 429 `rate_limited` until one ends',
  }),
  sqliteSynchronous: setting({
    schema: z.enum(['full', 'normal']),
    default: 'full',
    arg: 'mode',
    help: 'full (survives power loss) or normal (faster writes; see docs/operations.md)',
    docs: '`full`: every commit is fsynced, an acknowledged write survives power loss; `normal`: no fsync per commit, a write survives a process crash but the last ones may be lost on power loss (≈1.4× the sequential write rate here, docs/performance.md)',
    commands: ['worker'],
  }),
  runDurationMs: setting({
    schema: Int(0, 3_600_000),
    default: 3000,
    arg: 'ms',
    help: 'how long the local provider takes per run',
    commands: ['worker'],
  }),
  runLeaseMs: setting({
    schema: Int(200, 3_600_000),
    default: 10_000,
    arg: 'ms',
    help: "lease of a running run; a dead worker's run is picked up after it",
    commands: ['worker'],
  }),
  runTimeoutMs: setting({
    schema: Int(1000, 24 * 3_600_000),
    default: 600_000,
    arg: 'ms',
    help: 'a run still going after this fails with timeout',
    docs: 'a run still going after this fails with `timeout`',
    commands: ['worker'],
  }),
  imageProvider: setting({
    schema: z.enum(['local', 'openai', 'replicate', 'fal']),
    default: 'local',
    arg: 'name',
    help: 'local, openai (CANVAS_MCP_OPENAI_API_KEY), replicate (CANVAS_MCP_REPLICATE_API_TOKEN) or fal (CANVAS_MCP_FAL_KEY)',
    docs: '`local`, `openai`, `replicate` or `fal`',
    commands: ['worker'],
  }),
  openaiBaseUrl: setting({
    schema: HttpUrl,
    default: 'https://api.openai.com/v1',
    arg: 'url',
    help: 'base URL of an OpenAI-compatible images and speech API',
    docs: 'an OpenAI-compatible images and speech API',
    commands: ['worker'],
  }),
  openaiApiKey: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: 'the OpenAI-compatible API key',
    docs: 'its key: never on the command line, never logged',
  }),
  openaiModel: setting({
    schema: z.string().min(1),
    default: 'gpt-image-1',
    arg: 'model',
    help: 'image model for --image-provider openai',
    docs: 'its image model',
    commands: ['worker'],
  }),
  speechProvider: setting({
    schema: z.enum(['local', 'openai']),
    default: 'local',
    arg: 'name',
    help: "audio nodes' speech: local or openai (an OpenAI-compatible /audio/speech at --openai-base-url)",
    docs: "`local` or `openai`: audio nodes' speech through an OpenAI-compatible `/audio/speech` at `--openai-base-url`",
    commands: ['worker'],
  }),
  openaiSpeechModel: setting({
    schema: z.string().min(1),
    default: 'gpt-4o-mini-tts',
    arg: 'model',
    help: 'speech model for --speech-provider openai',
    docs: 'its speech model',
    commands: ['worker'],
  }),
  openaiSpeechVoice: setting({
    schema: z.string().min(1),
    default: 'alloy',
    arg: 'voice',
    help: 'the voice when an audio node names none',
    docs: "the voice when a node's `voiceRef` names none",
    commands: ['worker'],
  }),
  videoProvider: setting({
    schema: z.enum(['local', 'replicate', 'fal']),
    default: 'local',
    arg: 'name',
    help: 'video nodes: local, replicate or fal',
    docs: '`local`, `replicate` or `fal` (docs/runs.md, "Providers")',
    commands: ['worker'],
  }),
  storyboardProvider: setting({
    schema: z.enum(['local', 'replicate', 'fal']),
    default: 'local',
    arg: 'name',
    help: 'storyboard sheets: local, replicate or fal',
    docs: '`local`, `replicate` or `fal`',
    commands: ['worker'],
  }),
  replicateApiToken: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: "Replicate's API token",
    docs: "Replicate's API token (with any provider choice `replicate`)",
  }),
  replicateBaseUrl: setting({
    schema: HttpUrl,
    default: 'https://api.replicate.com/v1',
    arg: 'url',
    help: "Replicate's API",
    commands: ['worker'],
  }),
  replicateImageModel: setting({
    schema: z.string().min(1),
    default: 'black-forest-labs/flux-schnell',
    arg: 'model',
    help: `Replicate's image model: ${MODEL}`,
    commands: ['worker'],
  }),
  replicateVideoModel: setting({
    schema: z.string().min(1),
    default: 'minimax/video-01',
    arg: 'model',
    help: `Replicate's video model: ${MODEL}`,
    commands: ['worker'],
  }),
  replicateStoryboardModel: setting({
    schema: z.string().min(1),
    default: 'black-forest-labs/flux-schnell',
    arg: 'model',
    help: `Replicate's storyboard sheet model: ${MODEL}`,
    commands: ['worker'],
  }),
  falKey: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: "fal's key",
    docs: "fal's key (with any provider choice `fal`)",
  }),
  falQueueUrl: setting({
    schema: HttpUrl,
    default: 'https://queue.fal.run',
    arg: 'url',
    help: "fal's queue API",
    docs: "fal's queue API (or a proxy)",
    commands: ['worker'],
  }),
  falImageModel: setting({
    schema: z.string().min(1),
    default: 'fal-ai/flux/schnell',
    arg: 'endpoint',
    help: "fal's image endpoint id",
    commands: ['worker'],
  }),
  falVideoModel: setting({
    schema: z.string().min(1),
    default: 'fal-ai/ltx-video',
    arg: 'endpoint',
    help: "fal's video endpoint id",
    commands: ['worker'],
  }),
  falStoryboardModel: setting({
    schema: z.string().min(1),
    default: 'fal-ai/flux/schnell',
    arg: 'endpoint',
    help: "fal's storyboard sheet endpoint id",
    commands: ['worker'],
  }),
  providerPollMs: setting({
    schema: Int(10, 60_000),
    default: 1000,
    arg: 'ms',
    help: "how often a hosted provider's request is read again",
    docs: 'how often a hosted job is read while queued or running',
    commands: ['worker'],
  }),
  runPrices: setting({
    schema: RunPrices,
    default: {},
    arg: 'json',
    help: 'credits per output for the models runs use, e.g. {"fal-ai/flux/schnell":0.4}: drives estimates and budgets',
    docs: 'JSON: model id → credits per output; drives estimates and budgets for runs on those models (docs/runs.md, "Providers")',
    shownDefault: '`{}`',
  }),
  referenceInputs: setting({
    schema: ReferenceInputs,
    default: DEFAULT_REFERENCE_INPUTS,
    arg: 'json',
    help: 'which models take reference pictures and in which input, e.g. {"fal-ai/nano-banana/edit":"image_urls[]"}',
    docs: 'JSON: model id → the input that takes the elements\' reference pictures (`[]` at its end: a list; for OpenAI any value: the edits endpoint); models not named run without them (docs/storyboards.md, "Elements")',
    shownDefault: '6 known models (docs/storyboards.md, "Elements")',
    commands: ['worker'],
  }),
  localExecutionLog: setting({
    schema: z.string().min(1),
    flag: false,
    help: 'diagnostics: the local provider appends `run_id attempt` per execution to this file',
  }),
};
