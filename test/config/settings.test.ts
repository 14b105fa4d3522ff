import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addSettingOptions, configFlagsOf, settingOptions } from '../../src/cli/setting-options.js';
import { TABLE_END, TABLE_START, settingsTable } from '../../src/config/docs-table.js';
import {
  CONFIG_KEYS,
  ConfigError,
  SETTINGS,
  envOfKey,
  flagOfKey,
  loadServeConfig,
  type ConfigKey,
} from '../../src/config/index.js';
import { schemaOf, type SettingRow } from '../../src/config/setting.js';

/**
 * One row per setting: the flag, the variable, the default, `--help` and docs/operations.md's table all come from
 * src/config/settings.ts. Adding a setting is one row; these tests fail when the docs, the names people already use, or
 * a default disagree with it.
 */

/** The names settings had before they became rows: people's scripts and unit files use them. */
const NAMES_IN_USE: Record<string, [env: string, flag: string | null]> = {
  configFile: ['CANVAS_MCP_CONFIG', '--config'],
  host: ['CANVAS_MCP_HOST', '--host'],
  port: ['CANVAS_MCP_PORT', '--port'],
  dataDir: ['CANVAS_MCP_DATA_DIR', '--data'],
  databaseUrl: ['CANVAS_MCP_DATABASE_URL', '--database-url'],
  backendUrl: ['CANVAS_MCP_BACKEND_URL', '--backend-url'],
  backendToken: ['CANVAS_MCP_BACKEND_TOKEN', '--backend-token'],
  publicUrl: ['CANVAS_MCP_PUBLIC_URL', '--public-url'],
  allowedOrigins: ['CANVAS_MCP_ALLOWED_ORIGINS', '--allowed-origins'],
  rateLimitPerMinute: ['CANVAS_MCP_RATE_LIMIT_PER_MINUTE', '--rate-limit'],
  bodyLimitBytes: ['CANVAS_MCP_BODY_LIMIT_BYTES', '--body-limit'],
  logLevel: ['CANVAS_MCP_LOG_LEVEL', '--log-level'],
  enableHiddenTools: ['CANVAS_MCP_ENABLE_HIDDEN_TOOLS', '--enable-hidden-tools'],
  seedDemo: ['CANVAS_MCP_SEED_DEMO', '--no-seed-demo'],
  workers: ['CANVAS_MCP_WORKERS', '--workers'],
  sqliteSynchronous: ['CANVAS_MCP_SQLITE_SYNCHRONOUS', '--sqlite-synchronous'],
  runDurationMs: ['CANVAS_MCP_RUN_DURATION_MS', '--run-duration-ms'],
  runLeaseMs: ['CANVAS_MCP_RUN_LEASE_MS', '--run-lease-ms'],
  runTimeoutMs: ['CANVAS_MCP_RUN_TIMEOUT_MS', '--run-timeout-ms'],
  imageProvider: ['CANVAS_MCP_IMAGE_PROVIDER', '--image-provider'],
  openaiBaseUrl: ['CANVAS_MCP_OPENAI_BASE_URL', '--openai-base-url'],
  openaiApiKey: ['CANVAS_MCP_OPENAI_API_KEY', null],
  openaiModel: ['CANVAS_MCP_OPENAI_MODEL', '--openai-model'],
  speechProvider: ['CANVAS_MCP_SPEECH_PROVIDER', '--speech-provider'],
  videoProvider: ['CANVAS_MCP_VIDEO_PROVIDER', '--video-provider'],
  storyboardProvider: ['CANVAS_MCP_STORYBOARD_PROVIDER', '--storyboard-provider'],
  replicateApiToken: ['CANVAS_MCP_REPLICATE_API_TOKEN', null],
  replicateBaseUrl: ['CANVAS_MCP_REPLICATE_BASE_URL', '--replicate-base-url'],
  replicateImageModel: ['CANVAS_MCP_REPLICATE_IMAGE_MODEL', '--replicate-image-model'],
  replicateVideoModel: ['CANVAS_MCP_REPLICATE_VIDEO_MODEL', '--replicate-video-model'],
  replicateStoryboardModel: ['CANVAS_MCP_REPLICATE_STORYBOARD_MODEL', '--replicate-storyboard-model'],
  falKey: ['CANVAS_MCP_FAL_KEY', null],
  falQueueUrl: ['CANVAS_MCP_FAL_QUEUE_URL', '--fal-queue-url'],
  falImageModel: ['CANVAS_MCP_FAL_IMAGE_MODEL', '--fal-image-model'],
  falVideoModel: ['CANVAS_MCP_FAL_VIDEO_MODEL', '--fal-video-model'],
  falStoryboardModel: ['CANVAS_MCP_FAL_STORYBOARD_MODEL', '--fal-storyboard-model'],
  providerPollMs: ['CANVAS_MCP_PROVIDER_POLL_MS', '--provider-poll-ms'],
  webhookRetryMs: ['CANVAS_MCP_WEBHOOK_RETRY_MS', '--webhook-retry-ms'],
  runPrices: ['CANVAS_MCP_RUN_PRICES', '--run-prices'],
  webhookGiveUpMs: ['CANVAS_MCP_WEBHOOK_GIVE_UP_MS', '--webhook-give-up-ms'],
  openaiSpeechModel: ['CANVAS_MCP_OPENAI_SPEECH_MODEL', '--openai-speech-model'],
  openaiSpeechVoice: ['CANVAS_MCP_OPENAI_SPEECH_VOICE', '--openai-speech-voice'],
  localExecutionLog: ['CANVAS_MCP_LOCAL_EXECUTION_LOG', null],
  sessionIdleHours: ['CANVAS_MCP_SESSION_IDLE_HOURS', '--session-idle-hours'],
  sessionMaxDays: ['CANVAS_MCP_SESSION_MAX_DAYS', '--session-max-days'],
  metricsToken: ['CANVAS_MCP_METRICS_TOKEN', '--metrics-token'],
  feedHeartbeatMs: ['CANVAS_MCP_FEED_HEARTBEAT_MS', '--feed-heartbeat-ms'],
  modelProvider: ['CANVAS_MCP_MODEL_PROVIDER', '--model-provider'],
  model: ['CANVAS_MCP_MODEL', '--model'],
  modelBaseUrl: ['CANVAS_MCP_MODEL_BASE_URL', '--model-base-url'],
  modelApiKey: ['CANVAS_MCP_MODEL_API_KEY', null],
  modelApiKeyFile: ['CANVAS_MCP_MODEL_API_KEY_FILE', '--model-api-key-file'],
  chatMaxSteps: ['CANVAS_MCP_CHAT_MAX_STEPS', '--chat-max-steps'],
  chatTokenBudget: ['CANVAS_MCP_CHAT_TOKEN_BUDGET', '--chat-token-budget'],
  chatApprovalMinutes: ['CANVAS_MCP_CHAT_APPROVAL_MINUTES', '--chat-approval-minutes'],
  assetStore: ['CANVAS_MCP_ASSET_STORE', '--asset-store'],
  assetUrlTtlSeconds: ['CANVAS_MCP_ASSET_URL_TTL_SECONDS', '--asset-url-ttl'],
  s3Bucket: ['CANVAS_MCP_S3_BUCKET', '--s3-bucket'],
  s3Region: ['CANVAS_MCP_S3_REGION', '--s3-region'],
  s3Endpoint: ['CANVAS_MCP_S3_ENDPOINT', '--s3-endpoint'],
  s3Prefix: ['CANVAS_MCP_S3_PREFIX', '--s3-prefix'],
  s3ForcePathStyle: ['CANVAS_MCP_S3_FORCE_PATH_STYLE', '--s3-force-path-style'],
  s3AccessKeyId: ['CANVAS_MCP_S3_ACCESS_KEY_ID', null],
  s3SecretAccessKey: ['CANVAS_MCP_S3_SECRET_ACCESS_KEY', null],
  oidcIssuer: ['CANVAS_MCP_OIDC_ISSUER', '--oidc-issuer'],
  oidcClientId: ['CANVAS_MCP_OIDC_CLIENT_ID', '--oidc-client-id'],
  oidcClientSecret: ['CANVAS_MCP_OIDC_CLIENT_SECRET', null],
  oidcName: ['CANVAS_MCP_OIDC_NAME', '--oidc-name'],
};

describe('settings, one row each', () => {
  it('keeps every flag and environment variable people already use', () => {
    for (const [key, [env, flag]] of Object.entries(NAMES_IN_USE)) {
      expect(CONFIG_KEYS, key).toContain(key);
      expect([envOfKey(key as ConfigKey), flagOfKey(key as ConfigKey)], key).toEqual([env, flag]);
    }
  });

  it('gives each setting a flag and a variable no other setting has', () => {
    const envs = CONFIG_KEYS.map(envOfKey);
    const flags = CONFIG_KEYS.map(flagOfKey).filter((flag) => flag !== null);
    expect(new Set(envs).size).toBe(envs.length);
    expect(new Set(flags).size).toBe(flags.length);
  });

  it.each(CONFIG_KEYS)('%s: its default is a value its own schema accepts', (key) => {
    const row: SettingRow = SETTINGS[key];
    if (row.default === undefined) return;
    expect(row.schema.safeParse(row.default).success).toBe(true);
    expect(schemaOf(row).safeParse(undefined).success).toBe(true);
  });

  it('starts on the defaults alone, and names the flag and the variable of a bad value', () => {
    const config = loadServeConfig({}, {});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8787, allowedOrigins: [], runPrices: {}, seedDemo: true });
    expect(() => loadServeConfig({}, { CANVAS_MCP_PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadServeConfig({}, { CANVAS_MCP_PORT: 'abc' })).toThrow('--port (CANVAS_MCP_PORT):');
    // A secret is named, never echoed.
    expect(() => loadServeConfig({}, { CANVAS_MCP_METRICS_TOKEN: 'short-secret' })).toThrow(
      /--metrics-token \(CANVAS_MCP_METRICS_TOKEN\): must be at least 16 characters$/m,
    );
  });

  it('reads flags from the command line, switches included, over the environment', () => {
    const serve = new Command('serve').exitOverride();
    const options = settingOptions('serve');
    addSettingOptions(serve, options);
    serve.parse(['--port', '9000', '--no-seed-demo', '--enable-hidden-tools'], { from: 'user' });
    const config = loadServeConfig(configFlagsOf(serve, options), { CANVAS_MCP_PORT: '7000' });
    expect(config).toMatchObject({ port: 9000, seedDemo: false, enableHiddenTools: true });
  });

  it('offers a command only the flags its rows name for it', () => {
    const worker = settingOptions('worker').map(({ key }) => key);
    expect(worker).toContain('runLeaseMs');
    expect(worker).not.toContain('publicUrl');
    expect(settingOptions('doctor').map(({ key }) => key)).toEqual([
      'configFile',
      'modelProvider',
      'model',
      'modelBaseUrl',
      'modelApiKeyFile',
    ]);
  });

  it("docs/operations.md's table is the one the rows render (npm run docs:settings writes it)", () => {
    const page = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const table = page.slice(page.indexOf(TABLE_START) + TABLE_START.length, page.indexOf(TABLE_END)).trim();
    expect(table).toBe(settingsTable());
  });
});
