import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { StoreLocation } from './store/store.js';
import { sqliteFileIn } from './store/store.js';
import { ASSET_STORAGES } from './assets/asset-store.js';

/**
 * Configuration of `serve` (and the store flags every command shares), from command-line flags over
 * environment variables over the settings file (canvas-mcp.config.json) over defaults, validated once at start.
 * Every setting is listed in docs/operations.md.
 */

export const ENVIRONMENT = {
  configFile: 'CANVAS_MCP_CONFIG',
  host: 'CANVAS_MCP_HOST',
  port: 'CANVAS_MCP_PORT',
  dataDir: 'CANVAS_MCP_DATA_DIR',
  databaseUrl: 'CANVAS_MCP_DATABASE_URL',
  backendUrl: 'CANVAS_MCP_BACKEND_URL',
  backendToken: 'CANVAS_MCP_BACKEND_TOKEN',
  publicUrl: 'CANVAS_MCP_PUBLIC_URL',
  allowedOrigins: 'CANVAS_MCP_ALLOWED_ORIGINS',
  rateLimitPerMinute: 'CANVAS_MCP_RATE_LIMIT_PER_MINUTE',
  bodyLimitBytes: 'CANVAS_MCP_BODY_LIMIT_BYTES',
  logLevel: 'CANVAS_MCP_LOG_LEVEL',
  enableHiddenTools: 'CANVAS_MCP_ENABLE_HIDDEN_TOOLS',
  seedDemo: 'CANVAS_MCP_SEED_DEMO',
  workers: 'CANVAS_MCP_WORKERS',
  sqliteSynchronous: 'CANVAS_MCP_SQLITE_SYNCHRONOUS',
  runDurationMs: 'CANVAS_MCP_RUN_DURATION_MS',
  runLeaseMs: 'CANVAS_MCP_RUN_LEASE_MS',
  runTimeoutMs: 'CANVAS_MCP_RUN_TIMEOUT_MS',
  imageProvider: 'CANVAS_MCP_IMAGE_PROVIDER',
  openaiBaseUrl: 'CANVAS_MCP_OPENAI_BASE_URL',
  openaiApiKey: 'CANVAS_MCP_OPENAI_API_KEY',
  openaiModel: 'CANVAS_MCP_OPENAI_MODEL',
  speechProvider: 'CANVAS_MCP_SPEECH_PROVIDER',
  videoProvider: 'CANVAS_MCP_VIDEO_PROVIDER',
  storyboardProvider: 'CANVAS_MCP_STORYBOARD_PROVIDER',
  replicateApiToken: 'CANVAS_MCP_REPLICATE_API_TOKEN',
  replicateBaseUrl: 'CANVAS_MCP_REPLICATE_BASE_URL',
  replicateImageModel: 'CANVAS_MCP_REPLICATE_IMAGE_MODEL',
  replicateVideoModel: 'CANVAS_MCP_REPLICATE_VIDEO_MODEL',
  replicateStoryboardModel: 'CANVAS_MCP_REPLICATE_STORYBOARD_MODEL',
  falKey: 'CANVAS_MCP_FAL_KEY',
  falQueueUrl: 'CANVAS_MCP_FAL_QUEUE_URL',
  falImageModel: 'CANVAS_MCP_FAL_IMAGE_MODEL',
  falVideoModel: 'CANVAS_MCP_FAL_VIDEO_MODEL',
  falStoryboardModel: 'CANVAS_MCP_FAL_STORYBOARD_MODEL',
  providerPollMs: 'CANVAS_MCP_PROVIDER_POLL_MS',
  webhookRetryMs: 'CANVAS_MCP_WEBHOOK_RETRY_MS',
  runPrices: 'CANVAS_MCP_RUN_PRICES',
  webhookGiveUpMs: 'CANVAS_MCP_WEBHOOK_GIVE_UP_MS',
  openaiSpeechModel: 'CANVAS_MCP_OPENAI_SPEECH_MODEL',
  openaiSpeechVoice: 'CANVAS_MCP_OPENAI_SPEECH_VOICE',
  localExecutionLog: 'CANVAS_MCP_LOCAL_EXECUTION_LOG',
  sessionIdleHours: 'CANVAS_MCP_SESSION_IDLE_HOURS',
  sessionMaxDays: 'CANVAS_MCP_SESSION_MAX_DAYS',
  metricsToken: 'CANVAS_MCP_METRICS_TOKEN',
  feedHeartbeatMs: 'CANVAS_MCP_FEED_HEARTBEAT_MS',
  modelProvider: 'CANVAS_MCP_MODEL_PROVIDER',
  model: 'CANVAS_MCP_MODEL',
  modelBaseUrl: 'CANVAS_MCP_MODEL_BASE_URL',
  modelApiKey: 'CANVAS_MCP_MODEL_API_KEY',
  modelApiKeyFile: 'CANVAS_MCP_MODEL_API_KEY_FILE',
  chatMaxSteps: 'CANVAS_MCP_CHAT_MAX_STEPS',
  chatTokenBudget: 'CANVAS_MCP_CHAT_TOKEN_BUDGET',
  chatApprovalMinutes: 'CANVAS_MCP_CHAT_APPROVAL_MINUTES',
  assetStore: 'CANVAS_MCP_ASSET_STORE',
  assetUrlTtlSeconds: 'CANVAS_MCP_ASSET_URL_TTL_SECONDS',
  s3Bucket: 'CANVAS_MCP_S3_BUCKET',
  s3Region: 'CANVAS_MCP_S3_REGION',
  s3Endpoint: 'CANVAS_MCP_S3_ENDPOINT',
  s3Prefix: 'CANVAS_MCP_S3_PREFIX',
  s3ForcePathStyle: 'CANVAS_MCP_S3_FORCE_PATH_STYLE',
  s3AccessKeyId: 'CANVAS_MCP_S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'CANVAS_MCP_S3_SECRET_ACCESS_KEY',
  oidcIssuer: 'CANVAS_MCP_OIDC_ISSUER',
  oidcClientId: 'CANVAS_MCP_OIDC_CLIENT_ID',
  oidcClientSecret: 'CANVAS_MCP_OIDC_CLIENT_SECRET',
  oidcName: 'CANVAS_MCP_OIDC_NAME',
} as const;

export type ConfigKey = keyof typeof ENVIRONMENT;

/** Command-line flags; settings without one (secrets) come from the environment only. */
const FLAG: Partial<Record<ConfigKey, string>> = {
  configFile: '--config',
  host: '--host',
  port: '--port',
  dataDir: '--data',
  databaseUrl: '--database-url',
  backendUrl: '--backend-url',
  backendToken: '--backend-token',
  publicUrl: '--public-url',
  allowedOrigins: '--allowed-origins',
  rateLimitPerMinute: '--rate-limit',
  bodyLimitBytes: '--body-limit',
  logLevel: '--log-level',
  enableHiddenTools: '--enable-hidden-tools',
  seedDemo: '--seed-demo',
  workers: '--workers',
  sqliteSynchronous: '--sqlite-synchronous',
  runDurationMs: '--run-duration-ms',
  runLeaseMs: '--run-lease-ms',
  runTimeoutMs: '--run-timeout-ms',
  imageProvider: '--image-provider',
  openaiBaseUrl: '--openai-base-url',
  openaiModel: '--openai-model',
  speechProvider: '--speech-provider',
  videoProvider: '--video-provider',
  storyboardProvider: '--storyboard-provider',
  replicateBaseUrl: '--replicate-base-url',
  replicateImageModel: '--replicate-image-model',
  replicateVideoModel: '--replicate-video-model',
  replicateStoryboardModel: '--replicate-storyboard-model',
  falQueueUrl: '--fal-queue-url',
  falImageModel: '--fal-image-model',
  falVideoModel: '--fal-video-model',
  falStoryboardModel: '--fal-storyboard-model',
  providerPollMs: '--provider-poll-ms',
  webhookRetryMs: '--webhook-retry-ms',
  runPrices: '--run-prices',
  webhookGiveUpMs: '--webhook-give-up-ms',
  openaiSpeechModel: '--openai-speech-model',
  openaiSpeechVoice: '--openai-speech-voice',
  sessionIdleHours: '--session-idle-hours',
  sessionMaxDays: '--session-max-days',
  metricsToken: '--metrics-token',
  feedHeartbeatMs: '--feed-heartbeat-ms',
  modelProvider: '--model-provider',
  model: '--model',
  modelBaseUrl: '--model-base-url',
  modelApiKeyFile: '--model-api-key-file',
  oidcIssuer: '--oidc-issuer',
  oidcClientId: '--oidc-client-id',
  oidcName: '--oidc-name',
  chatMaxSteps: '--chat-max-steps',
  chatTokenBudget: '--chat-token-budget',
  chatApprovalMinutes: '--chat-approval-minutes',
  assetStore: '--asset-store',
  assetUrlTtlSeconds: '--asset-url-ttl',
  s3Bucket: '--s3-bucket',
  s3Region: '--s3-region',
  s3Endpoint: '--s3-endpoint',
  s3Prefix: '--s3-prefix',
  s3ForcePathStyle: '--s3-force-path-style',
};

const Bool = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
]);
const Int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const PostgresUrl = z.string().regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' });
const OriginList = z.union([
  z.array(z.string()),
  z.string().transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  ),
]);

// Where run outputs are kept (issue 19; docs/runs.md, "Assets"), and how long a signed asset URL works.
const ASSET_SETTINGS = {
  assetStore: z.enum(ASSET_STORAGES).default('local'),
  assetUrlTtlSeconds: Int(60, 7 * 86_400).default(3600),
  s3Bucket: z.string().min(1).optional(),
  s3Region: z.string().min(1).default('us-east-1'),
  s3Endpoint: HttpUrl.optional(),
  s3Prefix: z.string().default(''),
  s3ForcePathStyle: Bool.default(false),
  s3AccessKeyId: z.string().min(1).optional(),
  s3SecretAccessKey: z.string().min(1).optional(),
};

function checkAssetSettings(
  config: {
    assetStore: string;
    databaseUrl?: string | undefined;
    s3Bucket?: string | undefined;
    s3AccessKeyId?: string | undefined;
    s3SecretAccessKey?: string | undefined;
  },
  context: z.RefinementCtx,
): void {
  if (config.assetStore === 'postgres' && !config.databaseUrl) {
    context.addIssue({
      code: 'custom',
      path: ['assetStore'],
      message: 'postgres keeps assets in the database: it needs --database-url (PostgreSQL)',
    });
  }
  if (config.assetStore === 's3' && !config.s3Bucket) {
    context.addIssue({ code: 'custom', path: ['s3Bucket'], message: 'is required with --asset-store s3' });
  }
  if ((config.s3AccessKeyId === undefined) !== (config.s3SecretAccessKey === undefined)) {
    context.addIssue({
      code: 'custom',
      path: ['s3SecretAccessKey'],
      message: 'goes with CANVAS_MCP_S3_ACCESS_KEY_ID: set both, or neither (the AWS default credentials)',
    });
  }
}

const ServeSettings = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: Int(0, 65535).default(8787),
  dataDir: z.string().min(1).default('./data'),
  databaseUrl: PostgresUrl.optional(),
  backendUrl: HttpUrl.optional(),
  backendToken: z.string().min(1).optional(),
  publicUrl: HttpUrl.optional(),
  allowedOrigins: OriginList.default([]),
  rateLimitPerMinute: Int(0, 1_000_000).default(600),
  bodyLimitBytes: Int(1024, 64 * 1024 * 1024).default(1024 * 1024),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  enableHiddenTools: Bool.default(false),
  seedDemo: Bool.default(true),
  workers: Int(0, 64).default(2),
  sqliteSynchronous: z.enum(['full', 'normal']).default('full'),
  runDurationMs: Int(0, 3_600_000).default(3000),
  runLeaseMs: Int(200, 3_600_000).default(10_000),
  runTimeoutMs: Int(1000, 24 * 3_600_000).default(600_000),
  imageProvider: z.enum(['local', 'openai', 'replicate', 'fal']).default('local'),
  openaiBaseUrl: HttpUrl.default('https://api.openai.com/v1'),
  openaiApiKey: z.string().min(1).optional(),
  openaiModel: z.string().min(1).default('gpt-image-1'),
  speechProvider: z.enum(['local', 'openai']).default('local'),
  videoProvider: z.enum(['local', 'replicate', 'fal']).default('local'),
  storyboardProvider: z.enum(['local', 'replicate', 'fal']).default('local'),
  replicateApiToken: z.string().min(1).optional(),
  replicateBaseUrl: HttpUrl.default('https://api.replicate.com/v1'),
  replicateImageModel: z.string().min(1).default('black-forest-labs/flux-schnell'),
  replicateVideoModel: z.string().min(1).default('minimax/video-01'),
  replicateStoryboardModel: z.string().min(1).default('black-forest-labs/flux-schnell'),
  falKey: z.string().min(1).optional(),
  falQueueUrl: HttpUrl.default('https://queue.fal.run'),
  falImageModel: z.string().min(1).default('fal-ai/flux/schnell'),
  falVideoModel: z.string().min(1).default('fal-ai/ltx-video'),
  falStoryboardModel: z.string().min(1).default('fal-ai/flux/schnell'),
  providerPollMs: Int(10, 60_000).default(1000),
  webhookRetryMs: Int(10, 3_600_000).default(5000),
  runPrices: z
    .union([z.record(z.string(), z.number()), z.string()])
    .transform((value, context) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.addIssue({
          code: 'custom',
          message: 'must be a JSON object of model id to credits per output, e.g. {"fal-ai/flux/schnell": 0.4}',
        });
        return z.NEVER;
      }
    })
    .pipe(
      z.record(z.string().min(1), z.number().min(0).max(1_000_000), {
        error: 'must map model ids to credits per output (numbers of 0 or more)',
      }),
    )
    .default({}),
  webhookGiveUpMs: Int(1000, 7 * 86_400_000).default(86_400_000),
  openaiSpeechModel: z.string().min(1).default('gpt-4o-mini-tts'),
  openaiSpeechVoice: z.string().min(1).default('alloy'),
  localExecutionLog: z.string().min(1).optional(),
  sessionIdleHours: Int(1, 24 * 30).default(12),
  sessionMaxDays: Int(1, 365).default(7),
  metricsToken: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  feedHeartbeatMs: Int(100, 3_600_000).default(15_000),
  // The canvas chat's model (docs/chat.md): none configured, the chat panel says what to set.
  modelProvider: z.enum(['anthropic', 'openai', 'openai-compatible']).optional(),
  model: z.string().min(1).optional(),
  modelBaseUrl: HttpUrl.optional(),
  modelApiKey: z.string().min(1).optional(),
  modelApiKeyFile: z.string().min(1).optional(),
  chatMaxSteps: Int(1, 200).default(24),
  chatTokenBudget: Int(1000, 100_000_000).default(400_000),
  chatApprovalMinutes: Int(1, 24 * 60).default(10),
  // OpenID Connect sign-in beside links (issue 21, docs/security.md): the provider's issuer and this client.
  oidcIssuer: HttpUrl.optional(),
  oidcClientId: z.string().min(1).optional(),
  oidcClientSecret: z.string().min(1).optional(),
  oidcName: z.string().min(1).max(60).default('single sign-on'),
  ...ASSET_SETTINGS,
});

/**
 * What prices a run: the provider of each operation, their models and `--run-prices`. Commands that submit runs
 * without serving (the admin CLI) read these alone, so they price as the server does without needing its keys.
 */
export const PricingSettingsSchema = ServeSettings.pick({
  imageProvider: true,
  speechProvider: true,
  videoProvider: true,
  storyboardProvider: true,
  openaiModel: true,
  openaiSpeechModel: true,
  replicateImageModel: true,
  replicateVideoModel: true,
  replicateStoryboardModel: true,
  falImageModel: true,
  falVideoModel: true,
  falStoryboardModel: true,
  runPrices: true,
});
export type PricingSettings = z.output<typeof PricingSettingsSchema>;

export function loadPricingSettings(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): PricingSettings {
  return parseConfig(PricingSettingsSchema, mergeSources(flags, env));
}

export const ServeConfigSchema = ServeSettings.superRefine((config, context) => {
  if (config.backendUrl && !config.backendToken) {
    context.addIssue({
      code: 'custom',
      path: ['backendToken'],
      message: 'is required with --backend-url (the gateway credential issued with --kind gateway)',
    });
  }
  if (config.imageProvider === 'openai' && !config.openaiApiKey) {
    context.addIssue({ code: 'custom', path: ['openaiApiKey'], message: 'is required with --image-provider openai' });
  }
  if (config.speechProvider === 'openai' && !config.openaiApiKey) {
    context.addIssue({ code: 'custom', path: ['openaiApiKey'], message: 'is required with --speech-provider openai' });
  }
  const hosted = {
    '--image-provider': config.imageProvider,
    '--video-provider': config.videoProvider,
    '--storyboard-provider': config.storyboardProvider,
  };
  for (const [flag, choice] of Object.entries(hosted)) {
    if (choice === 'replicate' && !config.replicateApiToken)
      context.addIssue({ code: 'custom', path: ['replicateApiToken'], message: `is required with ${flag} replicate` });
    if (choice === 'fal' && !config.falKey)
      context.addIssue({ code: 'custom', path: ['falKey'], message: `is required with ${flag} fal` });
  }
  if (config.modelProvider && !config.model) {
    context.addIssue({
      code: 'custom',
      path: ['model'],
      message: 'is required with a model provider (the model id, e.g. claude-sonnet-4-5)',
    });
  }
  if (config.model && !config.modelProvider) {
    context.addIssue({
      code: 'custom',
      path: ['modelProvider'],
      message: 'is required with a model: anthropic, openai or openai-compatible',
    });
  }
  if (config.modelProvider === 'openai-compatible' && !config.modelBaseUrl) {
    context.addIssue({
      code: 'custom',
      path: ['modelBaseUrl'],
      message: 'is required with openai-compatible (e.g. http://127.0.0.1:11434/v1 for Ollama)',
    });
  }
  if (config.modelApiKey && config.modelApiKeyFile) {
    context.addIssue({
      code: 'custom',
      path: ['modelApiKeyFile'],
      message: 'cannot be combined with CANVAS_MCP_MODEL_API_KEY: give the key one way',
    });
  }
  if (config.oidcIssuer && !config.oidcClientId) {
    context.addIssue({
      code: 'custom',
      path: ['oidcClientId'],
      message: 'is required with --oidc-issuer (the client id registered at the provider)',
    });
  }
  if (config.oidcClientId && !config.oidcIssuer) {
    context.addIssue({
      code: 'custom',
      path: ['oidcIssuer'],
      message: "is required with --oidc-client-id (the provider's issuer URL)",
    });
  }
  checkAssetSettings(config, context);
  if (config.backendUrl && config.databaseUrl) {
    context.addIssue({
      code: 'custom',
      path: ['databaseUrl'],
      message: 'cannot be combined with --backend-url (a gateway has no store)',
    });
  }
});

export type ServeConfig = z.output<typeof ServeConfigSchema>;
export type ConfigInput = Partial<Record<ConfigKey, unknown>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Flags win over environment variables, which win over the settings file; unset values fall back to defaults. */
export function mergeSources(flags: ConfigInput, env: NodeJS.ProcessEnv): ConfigInput {
  const file = settingsFile(flags.configFile ?? env[ENVIRONMENT.configFile]);
  const merged: ConfigInput = {};
  for (const key of Object.keys(ENVIRONMENT) as ConfigKey[]) {
    const value = flags[key] ?? (env[ENVIRONMENT[key]] || undefined) ?? file[key];
    if (value !== undefined && value !== '') merged[key] = value;
  }
  return merged;
}

/** Settings whose values are secrets: never echoed in an error (they come from the environment only). */
const SECRET_KEYS = new Set<string>([
  'openaiApiKey',
  'backendToken',
  'metricsToken',
  'modelApiKey',
  's3SecretAccessKey',
  'oidcClientSecret',
  'replicateApiToken',
  'falKey',
]);

export const SETTINGS_FILE = 'canvas-mcp.config.json';

/**
 * A value of the settings file as the text a flag would give (so it is checked exactly as a flag is: `"port": false`
 * is refused, not read as 0), or null when it has no such form: null, a list (except allowed-origins) or an object
 * (except run-prices).
 */
function settingText(key: ConfigKey, value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (key === 'allowedOrigins' && Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return value.join(',');
  if (key === 'runPrices' && typeof value === 'object' && value !== null && !Array.isArray(value))
    return JSON.stringify(value);
  return null;
}

/**
 * The settings file (docs/operations.md, "Settings file"): `--config FILE`, else ./canvas-mcp.config.json when it
 * exists. A JSON object whose keys are the flags' names without `--` (`"image-provider": "fal"`, `"run-prices": {…}`).
 * Secrets are refused there: they come from the environment only.
 */
function settingsFile(path: unknown): ConfigInput {
  const chosen = typeof path === 'string' && path !== '' ? resolve(path) : null;
  const file = chosen ?? resolve(SETTINGS_FILE);
  if (!existsSync(file)) {
    if (chosen) throw new ConfigError([`--config (CANVAS_MCP_CONFIG): there is no file ${chosen}`]);
    return {};
  }
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // At most where (when the parser says): its message quotes the text around the error, which may be a secret.
    const position = Number(/position (\d+)/.exec((error as Error).message)?.[1] ?? NaN);
    const before = Number.isNaN(position) ? null : text.slice(0, position).split('\n');
    const where = before ? ` at line ${before.length}, column ${before.at(-1)!.length + 1}` : '';
    throw new ConfigError([`${file}: not valid JSON${where}`]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError([`${file}: must be a JSON object of settings, such as {"image-provider": "fal"}`]);
  }
  const kebab = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  // Flag names, and for the settings without a flag (secrets) their names in the same style, to say where they go.
  const byName = new Map<string, ConfigKey>([
    ...(Object.keys(ENVIRONMENT) as ConfigKey[]).map((key) => [kebab(key), key] as const),
    ...Object.entries(FLAG).map(([key, flag]) => [flag.slice(2), key as ConfigKey] as const),
  ]);
  const settings: ConfigInput = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    const key = byName.get(name);
    if (key && SECRET_KEYS.has(key))
      problems.push(`${file}: "${name}" is a secret; set ${ENVIRONMENT[key]} in the environment instead`);
    else if (!key || key === 'configFile' || !FLAG[key])
      problems.push(
        `${file}: "${name}" is not a setting (the settings are the serve flags without --, such as "image-provider")`,
      );
    else {
      const text = settingText(key, value);
      if (text === null)
        problems.push(
          `${file}: "${name}" must be ${key === 'runPrices' ? 'an object of model ids to credits' : key === 'allowedOrigins' ? 'a list of origins or a string' : 'a string, a number or true/false'}`,
        );
      else settings[key] = text;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

export function parseConfig<S extends z.ZodType>(schema: S, input: ConfigInput): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '') as ConfigKey;
      const flag = FLAG[key];
      const source = flag ? `${flag} (${ENVIRONMENT[key]})` : (ENVIRONMENT[key] ?? key);
      const secret = SECRET_KEYS.has(key);
      const received = key in input && !secret ? `, got ${JSON.stringify(input[key])}` : '';
      return `${source}: ${issue.message}${received}`;
    }),
  );
}

export function loadServeConfig(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): ServeConfig {
  return parseConfig(ServeConfigSchema, mergeSources(flags, env));
}

/** The store settings shared by every command: --data or --database-url. */
export const StoreConfigSchema = z.object({
  dataDir: z.string().min(1).default('./data'),
  databaseUrl: PostgresUrl.optional(),
});

/** The store and asset settings of admin commands that move asset bytes (backup, restore, assets migrate). */
export const AssetConfigSchema = StoreConfigSchema.extend(ASSET_SETTINGS).superRefine(checkAssetSettings);
export type AssetConfig = z.output<typeof AssetConfigSchema>;

export function loadAssetConfig(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): AssetConfig {
  return parseConfig(AssetConfigSchema, mergeSources(flags, env));
}

export function loadStoreLocation(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  const merged = mergeSources(flags, env);
  const config = parseConfig(StoreConfigSchema, { dataDir: merged.dataDir, databaseUrl: merged.databaseUrl });
  return storeLocationOf(config);
}

export function storeLocationOf(config: {
  dataDir: string;
  databaseUrl?: string | undefined;
  sqliteSynchronous?: 'full' | 'normal';
}): StoreLocation {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'sqlite', file: sqliteFileIn(resolve(config.dataDir)), synchronous: config.sqliteSynchronous ?? 'full' };
}
