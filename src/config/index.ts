import { resolve } from 'node:path';
import { z } from 'zod';
import type { StoreLocation } from '../store/store.js';
import { sqliteFileIn } from '../store/store.js';
import { schemaOf, type SchemaOfRow } from './setting.js';
import { CONFIG_KEYS, SETTINGS, type ConfigKey } from './settings.js';
import { ConfigError, isSecret, mergeSources, sourceName, type ConfigInput } from './sources.js';

/**
 * Configuration of `serve` (and the settings every command shares), validated once at start from the rows of
 * src/config/settings.ts, plus the rules that tie several settings together.
 */

export { SETTINGS, SETTINGS_FILE, CONFIG_KEYS, type ConfigKey } from './settings.js';
export { ConfigError, envOfKey, flagOfKey, sourceName, type ConfigInput } from './sources.js';

type SettingsShape<K extends ConfigKey> = { [P in K]: SchemaOfRow<(typeof SETTINGS)[P]> };

/** An object schema of these settings, each with its default. */
function settingsObject<K extends ConfigKey>(keys: readonly K[]): z.ZodObject<SettingsShape<K>> {
  return z.object(Object.fromEntries(keys.map((key) => [key, schemaOf(SETTINGS[key])])) as SettingsShape<K>);
}

const ASSET_KEYS = [
  'assetStore',
  'assetUrlTtlSeconds',
  's3Bucket',
  's3Region',
  's3Endpoint',
  's3Prefix',
  's3ForcePathStyle',
  's3AccessKeyId',
  's3SecretAccessKey',
] as const satisfies readonly ConfigKey[];

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
      message: 'goes with CANVAS_MCP_S3_ACCESS_KEY_ID: set both, or neither (the AWS default chain)',
    });
  }
}

const ServeSettings = settingsObject(
  CONFIG_KEYS.filter((key) => key !== 'configFile') as Exclude<ConfigKey, 'configFile'>[],
);

/**
 * What prices a run and what its model takes: the provider of each operation, their models, `--run-prices` and
 * `--reference-inputs`. Commands that submit runs without serving (the admin CLI) read these alone, so they price and
 * check a run's inputs as the server does without needing its keys.
 */
export const PricingSettingsSchema = settingsObject([
  'imageProvider',
  'speechProvider',
  'videoProvider',
  'storyboardProvider',
  'openaiModel',
  'openaiSpeechModel',
  'replicateImageModel',
  'replicateVideoModel',
  'replicateStoryboardModel',
  'falImageModel',
  'falVideoModel',
  'falStoryboardModel',
  'runPrices',
  'referenceInputs',
] as const);
export type PricingSettings = z.output<typeof PricingSettingsSchema>;

export function loadPricingSettings(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): PricingSettings {
  return parseConfig(PricingSettingsSchema, mergeSources(flags, env));
}

/** A setting another one needs: `key` is required when `when` holds, saying why. */
function requires(context: z.RefinementCtx, missing: boolean, key: ConfigKey, message: string): void {
  if (missing) context.addIssue({ code: 'custom', path: [key], message });
}

export const ServeConfigSchema = ServeSettings.superRefine((config, context) => {
  requires(
    context,
    !!config.backendUrl && !config.backendToken,
    'backendToken',
    'is required with --backend-url (the gateway credential issued with --kind gateway)',
  );
  requires(
    context,
    config.imageProvider === 'openai' && !config.openaiApiKey,
    'openaiApiKey',
    'is required with --image-provider openai',
  );
  requires(
    context,
    config.speechProvider === 'openai' && !config.openaiApiKey,
    'openaiApiKey',
    'is required with --speech-provider openai',
  );
  const hosted = {
    '--image-provider': config.imageProvider,
    '--video-provider': config.videoProvider,
    '--storyboard-provider': config.storyboardProvider,
  };
  for (const [flag, choice] of Object.entries(hosted)) {
    requires(
      context,
      choice === 'replicate' && !config.replicateApiToken,
      'replicateApiToken',
      `is required with ${flag} replicate`,
    );
    requires(context, choice === 'fal' && !config.falKey, 'falKey', `is required with ${flag} fal`);
  }
  requires(
    context,
    !!config.modelProvider && !config.model,
    'model',
    'is required with a model provider (the model id, e.g. claude-sonnet-4-5)',
  );
  requires(
    context,
    !!config.model && !config.modelProvider,
    'modelProvider',
    'is required with a model: anthropic, openai or openai-compatible',
  );
  requires(
    context,
    config.modelProvider === 'openai-compatible' && !config.modelBaseUrl,
    'modelBaseUrl',
    'is required with openai-compatible (e.g. http://127.0.0.1:11434/v1 for Ollama)',
  );
  requires(
    context,
    !!config.modelApiKey && !!config.modelApiKeyFile,
    'modelApiKeyFile',
    'cannot be combined with CANVAS_MCP_MODEL_API_KEY: give the key one way',
  );
  requires(
    context,
    !!config.oidcIssuer && !config.oidcClientId,
    'oidcClientId',
    'is required with --oidc-issuer (the client id registered at the provider)',
  );
  requires(
    context,
    !!config.oidcClientId && !config.oidcIssuer,
    'oidcIssuer',
    "is required with --oidc-client-id (the provider's issuer URL)",
  );
  requires(
    context,
    !!config.tlsCert && !config.tlsKey,
    'tlsKey',
    "is required with --tls-cert (the certificate's key)",
  );
  requires(context, !!config.tlsKey && !config.tlsCert, 'tlsCert', 'is required with --tls-key (the certificate)');
  requires(
    context,
    !!config.tlsCert && !!config.publicUrl && !config.publicUrl.startsWith('https:'),
    'publicUrl',
    'must be an https URL when this server serves https itself (--tls-cert)',
  );
  requires(
    context,
    !!config.c2paKeyFile && !config.c2paCertFile,
    'c2paCertFile',
    "is required with --c2pa-key-file (the key's certificate chain)",
  );
  requires(
    context,
    !!config.c2paCertFile && !config.c2paKeyFile,
    'c2paKeyFile',
    "is required with --c2pa-cert-file (the certificate's key)",
  );
  checkAssetSettings(config, context);
  requires(
    context,
    !!config.backendUrl && !!config.databaseUrl,
    'databaseUrl',
    'cannot be combined with --backend-url (a gateway has no store)',
  );
});

export type ServeConfig = z.output<typeof ServeConfigSchema>;

export function parseConfig<S extends z.ZodType>(schema: S, input: ConfigInput): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '') as ConfigKey;
      const known = key in SETTINGS;
      const source = known ? sourceName(key) : key;
      const received = known && key in input && !isSecret(key) ? `, got ${JSON.stringify(input[key])}` : '';
      return `${source}: ${issue.message}${received}`;
    }),
  );
}

export function loadServeConfig(flags: ConfigInput, env: NodeJS.ProcessEnv = process.env): ServeConfig {
  return parseConfig(ServeConfigSchema, mergeSources(flags, env));
}

/** The store settings shared by every command: --data or --database-url. */
export const StoreConfigSchema = settingsObject(['dataDir', 'databaseUrl'] as const);

/** The store and asset settings of admin commands that move asset bytes (backup, restore, assets migrate). */
export const AssetConfigSchema = settingsObject(['dataDir', 'databaseUrl', ...ASSET_KEYS] as const).superRefine(
  checkAssetSettings,
);
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
