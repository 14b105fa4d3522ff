import { z } from 'zod';
import { ASSET_STORAGES } from '../store/records.js';
import { Bool, HttpUrl, Int, OriginList, PostgresUrl, setting } from './setting.js';

/**
 * Every setting of canvas-mcp, one row each (src/config/setting.ts says what a row holds). The order is the order of
 * `serve --help` and of docs/operations.md's table (rendered from these rows: `npm run docs:settings`).
 */

export const SETTINGS_FILE = 'canvas-mcp.config.json';

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
const ReferenceInputs = modelMap(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}(\[\])?$/), {
  json: 'must be a JSON object of model id to the input that takes reference pictures, e.g. {"fal-ai/nano-banana/edit": "image_urls[]"}',
  values: 'must map model ids to an input name, with [] at its end when the input is a list',
});

/** Models known to take reference pictures, and where (their published input schemas). */
export const DEFAULT_REFERENCE_INPUTS: Record<string, string> = {
  'gpt-image-1': 'image[]',
  'gpt-image-1-mini': 'image[]',
  'fal-ai/flux-pro/kontext': 'image_url',
  'fal-ai/nano-banana/edit': 'image_urls[]',
  'black-forest-labs/flux-kontext-pro': 'input_image',
  'google/nano-banana': 'image_input[]',
};

const MODEL = 'owner/name or owner/name:version';

export const SETTINGS = {
  configFile: setting({
    schema: z.string().min(1),
    flag: '--config',
    arg: 'file',
    env: 'CANVAS_MCP_CONFIG',
    help: 'settings file (JSON): flags and the environment win over it',
    docs: 'the settings file (below)',
    shownDefault: `\`./${SETTINGS_FILE}\` when it exists`,
    commands: ['worker', 'doctor'],
  }),

  // Where it listens and who may reach it.
  host: setting({
    schema: z.string().min(1),
    default: '127.0.0.1',
    arg: 'host',
    help: 'interface to bind',
    docs: 'interface to bind; loopback also turns on Host checks',
  }),
  port: setting({
    schema: Int(0, 65535),
    default: 8787,
    arg: 'port',
    help: 'port to listen on (0 picks a free one)',
    docs: '`0` picks a free port',
  }),
  dataDir: setting({
    schema: z.string().min(1),
    default: './data',
    flag: '--data',
    arg: 'dir',
    help: 'data directory of the embedded SQLite store',
    docs: 'directory of the SQLite store (`canvas.db`)',
    commands: ['worker'],
  }),
  databaseUrl: setting({
    schema: PostgresUrl,
    arg: 'url',
    help: 'use PostgreSQL instead of SQLite',
    docs: '`postgres://…`: use PostgreSQL instead of SQLite',
    commands: ['worker'],
  }),
  feedBus: setting({
    schema: z.string().regex(/^nats:\/\/[^,\s]+(,nats:\/\/[^,\s]+)*$/, {
      error: 'must be a nats://host:port URL (several: comma-separated)',
    }),
    arg: 'url',
    help: 'signal other processes through NATS (nats://host:port) instead of PostgreSQL NOTIFY',
    docs: '`nats://host:port` (several servers of one cluster: comma-separated; credentials as `nats://user:pass@…` or `nats://token@…`): processes signal each other through NATS, each following only the canvases it has feeds or presence open for, instead of PostgreSQL NOTIFY (docs/scaling.md, "A fan-out bus: NATS"); give it to every `serve` and `worker` of one database. Unset: NOTIFY on PostgreSQL, polling on SQLite',
    commands: ['worker'],
  }),
  backendUrl: setting({
    schema: HttpUrl,
    arg: 'url',
    help: 'run as a gateway in front of a canvas backend at this URL',
    docs: 'gateway mode: the canvas backend to forward to',
  }),
  backendToken: setting({
    schema: z.string().min(1),
    arg: 'token',
    secret: true,
    help: 'the gateway credential for --backend-url (a --kind gateway token)',
    docs: 'gateway mode: the gateway credential (`admin token create --name gw --kind gateway --workspace W`, one `--workspace` or `--project` per scope it serves); prefer the variable, since other users of the machine can read command lines in `ps`',
  }),
  publicUrl: setting({
    schema: HttpUrl,
    arg: 'url',
    help: 'the URL clients and browsers use (behind a proxy): sign-in links, cookies, asset URLs in tool results',
    docs: "the URL clients and browsers use, when behind a proxy: sign-in links and the `Secure` cookie flag (https), the CSRF origin check, absolute asset URLs in tool results, the web canvas link in `get_canvas` results and the MCP App's allowed origin",
    shownDefault: '`http://host:port`',
  }),
  tlsCert: setting({
    schema: z.string().min(1),
    arg: 'file',
    help: 'serve https with this certificate (PEM, the chain included); with --tls-key',
    docs: 'serve https directly with this certificate (a PEM file, the chain included) and `--tls-key`; without them, serve http (behind a proxy that terminates TLS: below, "Serving a team")',
  }),
  tlsKey: setting({
    schema: z.string().min(1),
    arg: 'file',
    help: "the certificate's private key (PEM); read once at start, never logged",
  }),
  trustProxy: setting({
    schema: OriginList,
    default: '',
    arg: 'list',
    help: 'comma-separated addresses of reverse proxies whose X-Forwarded-* headers are believed (none by default)',
    docs: 'comma-separated addresses of the reverse proxies in front of this server (e.g. `127.0.0.1`): their `X-Forwarded-For` and `X-Forwarded-Proto` are believed; from anyone else those headers are dropped',
    shownDefault: 'none',
  }),
  allowedOrigins: setting({
    schema: OriginList,
    default: '',
    arg: 'list',
    help: 'comma-separated browser origins allowed to call /mcp',
    docs: 'comma-separated browser origins allowed at `/mcp`',
    shownDefault: 'none',
  }),
  rateLimitPerMinute: setting({
    schema: Int(0, 1_000_000),
    default: 600,
    flag: '--rate-limit',
    arg: 'n',
    help: 'requests per minute per token at /mcp (0 disables)',
    docs: 'requests per minute per token at `/mcp`, and REST writes per minute per person (or per token acting for nobody), who may also cause at most 64 MiB of change log a minute (docs/security.md, "Budgets of the people\'s side"); `0` disables both',
  }),
  bodyLimitBytes: setting({
    schema: Int(1024, 64 * 1024 * 1024),
    default: 1024 * 1024,
    flag: '--body-limit',
    arg: 'bytes',
    help: 'largest accepted request body (1 MiB)',
    docs: 'largest request body (1 MiB: at this size no request holds the event loop past 100 ms; larger limits can, docs/performance.md)',
  }),
  scriptReadSeconds: setting({
    schema: Int(1, 600),
    default: 20,
    arg: 'seconds',
    help: 'longest a script import may spend reading its file (on a worker thread)',
    docs: 'longest a script import may spend reading its file; it is read on a worker thread, and one that takes longer is stopped and refused (422 `limit_exceeded`, naming this limit), so a hostile screenplay can never hold the server (docs/security.md, "Script import")',
  }),
  logLevel: setting({
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    arg: 'level',
    help: 'fatal, error, warn, info, debug, trace or silent',
    docs: '`fatal` … `trace`, or `silent`',
    commands: ['worker'],
  }),
  enableHiddenTools: setting({
    schema: Bool,
    default: false,
    switch: true,
    help: 'also list and allow tools beyond the six published ones',
    docs: 'list and allow tools beyond the six published ones',
  }),
  seedDemo: setting({
    schema: Bool,
    default: true,
    flag: '--no-seed-demo',
    switch: true,
    help: 'do not seed the demo on an empty store',
    docs: 'do not seed the demo on an empty store (`CANVAS_MCP_SEED_DEMO=false`)',
    shownDefault: 'seed',
  }),

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

  // Webhooks.
  webhookRetryMs: setting({
    schema: Int(10, 3_600_000),
    default: 5000,
    arg: 'ms',
    help: 'first retry of a failed webhook delivery, ×4 each time up to an hour',
  }),
  webhooksPrivateNetwork: setting({
    schema: Bool,
    default: false,
    switch: true,
    help: "let project owners deliver webhooks to private, loopback and link-local addresses (an endpoint's allow_private_network)",
    docs: 'let project owners deliver webhooks to private, loopback and link-local addresses and over http (an endpoint\'s `allow_private_network`); off, such endpoints are refused and deliveries to endpoints allowed earlier go to public addresses only (docs/security.md, "Webhooks")',
  }),
  webhookEndpointsPerProject: setting({
    schema: Int(1, 1000),
    default: 20,
    arg: 'n',
    help: 'webhook endpoints one project may have',
  }),
  webhookGiveUpMs: setting({
    schema: Int(1000, 7 * 86_400_000),
    default: 86_400_000,
    arg: 'ms',
    help: 'how long a webhook delivery is retried (24 h)',
  }),

  // People.
  sessionIdleHours: setting({
    schema: Int(1, 24 * 30),
    default: 12,
    arg: 'hours',
    help: 'a signed-in session unused this long ends',
  }),
  sessionMaxDays: setting({
    schema: Int(1, 365),
    default: 7,
    arg: 'days',
    help: 'a signed-in session ends this long after sign-in',
  }),
  sessionRememberDays: setting({
    schema: Int(1, 90),
    default: 30,
    arg: 'days',
    help: 'a session on a device its person chose to remember lasts this long, used or not (at most 90)',
  }),
  feedHeartbeatMs: setting({
    schema: Int(100, 3_600_000),
    default: 15_000,
    arg: 'ms',
    help: 'a comment line on an idle change feed this often, so proxies keep it open',
    docs: 'an idle change feed (`…/events`) gets a `: keep-alive` comment line this often, so proxies and load balancers do not close it; keep it below their idle timeout (at least `100`)',
  }),
  oauthClientIdleDays: setting({
    schema: Int(1, 3650),
    default: 30,
    arg: 'days',
    help: 'an OAuth client registered by an app that no grant has used this long is deleted (it registers again)',
  }),
  oidcIssuer: setting({
    schema: HttpUrl,
    arg: 'url',
    help: 'sign people in with this OpenID Connect provider too (its issuer URL; secret in CANVAS_MCP_OIDC_CLIENT_SECRET)',
    docs: 'sign people in with an OpenID Connect provider too (its issuer URL; discovery at `/.well-known/openid-configuration`); `http:` only on a loopback address',
  }),
  oidcClientId: setting({
    schema: z.string().min(1),
    arg: 'id',
    help: 'the client id registered at the OpenID Connect provider',
    docs: 'the client registered at the provider, with redirect URI `<public URL>/auth/oidc/callback`',
  }),
  oidcClientSecret: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: "the OpenID Connect client's secret",
    docs: "the client's secret (none for a public client, which PKCE alone protects); never logged",
  }),
  oidcName: setting({
    schema: z.string().min(1).max(60),
    default: 'single sign-on',
    arg: 'name',
    help: 'what the sign-in button calls the provider',
    docs: 'what the sign-in button calls the provider ("Sign in with …")',
  }),

  // E-mail (issue 31): sign-in links people ask for themselves, and the ones owners make, sent through an SMTP relay.
  smtpUrl: setting({
    schema: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }),
    arg: 'url',
    help: 'an SMTP relay for e-mailed sign-in links: smtp://host:587 (STARTTLS when offered) or smtps://host:465',
    docs: 'an SMTP relay for e-mailed sign-in links (`smtp://host:587`, STARTTLS when the relay offers it; `smtps://host:465`); without it, links are made by owners and the command line only',
  }),
  smtpUser: setting({
    schema: z.string().min(1),
    arg: 'user',
    help: 'the SMTP user name (password in CANVAS_MCP_SMTP_PASSWORD)',
  }),
  smtpPassword: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: 'the SMTP password',
    docs: 'the SMTP password; never logged',
  }),
  smtpFrom: setting({
    schema: z.string().min(3).max(200),
    default: 'canvas-mcp <no-reply@localhost>',
    arg: 'address',
    help: 'the From of e-mailed sign-in links',
  }),

  // The canvas chat's model (docs/chat.md): none configured, the chat panel says what to set.
  modelProvider: setting({
    schema: z.enum(['anthropic', 'openai', 'openai-compatible']),
    arg: 'name',
    help: "the canvas chat's model provider: anthropic, openai or openai-compatible (key in CANVAS_MCP_MODEL_API_KEY)",
    docs: "the canvas chat's model provider: `anthropic`, `openai` or `openai-compatible` (docs/chat.md)",
    commands: ['doctor'],
  }),
  model: setting({
    schema: z.string().min(1),
    arg: 'id',
    help: "the canvas chat's model id (e.g. claude-sonnet-4-5, gpt-4.1, llama3.1)",
    docs: 'its model id',
    commands: ['doctor'],
  }),
  modelBaseUrl: setting({
    schema: HttpUrl,
    arg: 'url',
    help: "the model API's base URL (required for openai-compatible: Ollama, vLLM, LM Studio, OpenRouter)",
    docs: 'its API base URL; required for `openai-compatible`',
    shownDefault: "the provider's",
    commands: ['doctor'],
  }),
  modelApiKey: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: "the chat model's API key",
    docs: 'its key: never on the command line, never logged; or `--model-api-key-file` (`CANVAS_MCP_MODEL_API_KEY_FILE`)',
  }),
  modelApiKeyFile: setting({
    schema: z.string().min(1),
    arg: 'path',
    help: 'read the model API key from this file instead of CANVAS_MCP_MODEL_API_KEY',
    commands: ['doctor'],
  }),
  chatMaxSteps: setting({
    schema: Int(1, 200),
    default: 24,
    arg: 'n',
    help: "tool steps the chat's agent may take in one turn",
  }),
  chatTokenBudget: setting({
    schema: Int(1000, 100_000_000),
    default: 400_000,
    arg: 'n',
    help: 'model tokens one chat conversation may use',
  }),
  chatPersonTokensPerDay: setting({
    schema: Int(1000, 1_000_000_000),
    default: 2_000_000,
    arg: 'n',
    help: "model tokens one person's chat conversations may use in 24 hours, on every canvas",
    docs: "model tokens one person's chat conversations may use in any 24 hours, on every canvas and server (a provider that reports no usage is counted from the bytes sent and received)",
  }),
  chatProjectTokensPerDay: setting({
    schema: Int(1000, 10_000_000_000),
    default: 10_000_000,
    arg: 'n',
    help: "model tokens one project's chat conversations may use in 24 hours",
  }),
  chatOpenConversations: setting({
    schema: Int(1, 10_000),
    default: 50,
    arg: 'n',
    help: 'chat conversations one person may have open (not ended) at once',
  }),
  chatApprovalMinutes: setting({
    schema: Int(1, 24 * 60),
    default: 10,
    arg: 'n',
    help: 'how long the chat waits for a person to approve a paid run',
  }),

  // Where run outputs are kept (issue 19; docs/runs.md, "Assets"), and how long a signed asset URL works.
  assetStore: setting({
    schema: z.enum(ASSET_STORAGES),
    default: 'local',
    arg: 'store',
    help: 'where run outputs are kept: local (the data dir), postgres (in the database: many servers share them) or s3',
    docs: 'where run outputs are kept: `local` (the data dir), `postgres` (the database: many servers share them; needs `--database-url`) or `s3` (docs/runs.md, "Where assets are kept")',
    commands: ['worker'],
  }),
  assetUrlTtlSeconds: setting({
    schema: Int(60, 7 * 86_400),
    default: 3600,
    flag: '--asset-url-ttl',
    arg: 'seconds',
    help: 'how long a signed asset URL in a tool result or run record stays valid',
    docs: 'how long a signed asset URL in a tool result, run record or canvas snapshot works (60 s to 7 days)',
  }),
  uploadMaxBytes: setting({
    schema: Int(1024, 64 * 1024 * 1024 * 1024),
    default: 2 * 1024 * 1024 * 1024,
    arg: 'bytes',
    help: 'largest file a person or agent may upload (2 GiB)',
    docs: 'largest file a person or agent may upload (2 GiB); a larger one is refused while it arrives, leaving nothing behind (docs/storyboards.md, "Uploads")',
  }),
  uploadImageMaxPixels: setting({
    schema: Int(1, 1_000_000_000),
    default: 100_000_000,
    arg: 'pixels',
    help: 'largest uploaded picture in pixels (100 million: a 12,000 × 8,000 photo); larger ones are refused before decoding',
  }),
  uploadFilesPerRequest: setting({
    schema: Int(1, 100),
    default: 20,
    arg: 'n',
    help: 'files one upload request may carry',
  }),
  // What one project may keep and one person may send (docs/security.md, "Storage and media bounds").
  projectStorageQuotaBytes: setting({
    schema: Int(1024 * 1024, 2 ** 50),
    default: 10 * 1024 * 1024 * 1024,
    arg: 'bytes',
    help: "bytes one project's assets may take in all (10 GiB); an upload past it is refused",
    docs: 'bytes one project\'s assets may take in all (10 GiB: run outputs, uploads, thumbnails and exports counted together); an upload that would pass it is refused with 422 `limit_exceeded`, naming what the project keeps; owners see it on the team page (docs/security.md, "Storage and media bounds")',
  }),
  uploadBytesPerHour: setting({
    schema: Int(1024 * 1024, 2 ** 50),
    default: 2 * 1024 * 1024 * 1024,
    arg: 'bytes',
    help: 'bytes one person (or a token acting for nobody) may upload in an hour (2 GiB), per process',
    docs: 'bytes one person (all their sessions, and tokens acting for them; a token acting for nobody on its own) may upload in any hour (2 GiB), counted per process; past it: 429 `rate_limited` with `Retry-After`',
  }),
  uploadMediaJobs: setting({
    schema: Int(1, 64),
    default: 2,
    arg: 'n',
    help: 'uploaded films and sounds read by ffprobe and ffmpeg at once in this process',
    docs: 'uploaded films and sounds this process reads and copies (ffprobe, ffmpeg) at once; the others wait their turn',
  }),
  uploadMediaQueue: setting({
    schema: Int(0, 10_000),
    default: 16,
    arg: 'n',
    help: 'uploaded films and sounds that may wait for their turn in this process; more are refused (503)',
    docs: 'uploaded films and sounds that may wait for their turn in this process; one more is refused with 503 `unavailable` (retry later)',
  }),
  uploadMediaJobsPerPerson: setting({
    schema: Int(1, 64),
    default: 2,
    arg: 'n',
    help: "one person's uploaded films and sounds being read or waiting at once in this process; more are refused (429)",
    docs: "one person's uploaded films and sounds being read or waiting at once in this process; one more is refused with 429 `rate_limited`",
  }),
  // Content credentials (issue 37; docs/provenance.md): the key and certificate run outputs and exports are signed with.
  c2paKeyFile: setting({
    schema: z.string().min(1),
    arg: 'file',
    help: 'sign content credentials with this key (PEM, PKCS#8 P-256); with --c2pa-cert-file; read at first use, never logged',
    docs: 'sign the content credentials of run outputs and exports with this key (a PEM file, PKCS#8, EC P-256) and `--c2pa-cert-file`; without them, a certificate this deployment makes itself (docs/provenance.md, "Keys"); given, a file that cannot be signed fails its run or export',
    commands: ['worker'],
  }),
  c2paCertFile: setting({
    schema: z.string().min(1),
    arg: 'file',
    help: "the content credentials key's certificate chain (PEM, leaf first, then its CAs); with --c2pa-key-file",
    docs: 'the certificate chain of `--c2pa-key-file` (a PEM file, the leaf first, then the CAs that issued it); one from a CA on the C2PA trust list makes readers call the signer trusted',
    commands: ['worker'],
  }),
  s3Bucket: setting({
    schema: z.string().min(1),
    arg: 'bucket',
    help: 'the bucket of --asset-store s3 (credentials: CANVAS_MCP_S3_ACCESS_KEY_ID and _SECRET_ACCESS_KEY, or the AWS defaults)',
    docs: 'the bucket of `--asset-store s3`; also lets a server with another store read assets kept there',
    commands: ['worker', 'assets'],
  }),
  s3Region: setting({
    schema: z.string().min(1),
    default: 'us-east-1',
    arg: 'region',
    help: "the bucket's region",
    commands: ['worker', 'assets'],
  }),
  s3Endpoint: setting({
    schema: HttpUrl,
    arg: 'url',
    help: 'an S3-compatible endpoint (MinIO, R2, Ceph) instead of AWS',
    shownDefault: 'AWS',
    commands: ['worker', 'assets'],
  }),
  s3Prefix: setting({
    schema: z.string(),
    default: '',
    arg: 'prefix',
    help: 'a key prefix for every object (e.g. canvas-mcp/)',
    shownDefault: 'none',
    commands: ['worker', 'assets'],
  }),
  s3ForcePathStyle: setting({
    schema: Bool,
    default: false,
    switch: true,
    help: 'address the bucket in the path, as most S3-compatible stores need',
    commands: ['worker', 'assets'],
  }),
  s3AccessKeyId: setting({
    schema: z.string().min(1),
    flag: false,
    help: 'the S3 access key id (with CANVAS_MCP_S3_SECRET_ACCESS_KEY; both or neither)',
    docs: 'the S3 access key id: with `CANVAS_MCP_S3_SECRET_ACCESS_KEY`, both or neither (the AWS default chain); never logged',
    shownDefault: 'the AWS default chain',
  }),
  s3SecretAccessKey: setting({
    schema: z.string().min(1),
    flag: false,
    secret: true,
    help: 'the S3 secret access key',
    docs: 'its secret key; never logged',
    shownDefault: 'the AWS default chain',
  }),

  metricsToken: setting({
    schema: z.string().min(16, { error: 'must be at least 16 characters' }),
    arg: 'token',
    secret: true,
    help: 'bearer token required at /metrics (needed to serve /metrics beyond loopback; prefer CANVAS_MCP_METRICS_TOKEN)',
    docs: 'bearer token required at `/metrics` (at least 16 characters); without it `/metrics` is open on a loopback bind and off otherwise (below, "Metrics"); prefer the variable',
  }),
};

export type ConfigKey = keyof typeof SETTINGS;
export const CONFIG_KEYS = Object.keys(SETTINGS) as ConfigKey[];
