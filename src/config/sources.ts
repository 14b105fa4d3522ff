import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { envOf, flagOf, kebabCase, type SettingRow } from './setting.js';
import { CONFIG_KEYS, SETTINGS, SETTINGS_FILE, type ConfigKey } from './settings.js';

/**
 * Where a setting's value comes from: command-line flags over environment variables over the settings file
 * (docs/operations.md, "Settings file"); unset values fall back to the row's default when the schema is parsed.
 */

export type ConfigInput = Partial<Record<ConfigKey, unknown>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const isSecret = (key: ConfigKey): boolean => (SETTINGS[key] as SettingRow).secret === true;
export const flagOfKey = (key: ConfigKey): string | null => flagOf(key, SETTINGS[key] as SettingRow);
export const envOfKey = (key: ConfigKey): string => envOf(key, SETTINGS[key] as SettingRow);

/** How an error names a setting: its flag and variable, or the variable alone. */
export function sourceName(key: ConfigKey): string {
  const flag = flagOfKey(key);
  return flag ? `${flag} (${envOfKey(key)})` : envOfKey(key);
}

export function mergeSources(flags: ConfigInput, env: NodeJS.ProcessEnv): ConfigInput {
  const file = settingsFile(flags.configFile ?? env[envOfKey('configFile')]);
  const merged: ConfigInput = {};
  for (const key of CONFIG_KEYS) {
    const value = flags[key] ?? (env[envOfKey(key)] || undefined) ?? file[key];
    if (value !== undefined && value !== '') merged[key] = value;
  }
  return merged;
}

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

/** The name a setting has in the settings file: its flag without `--` (`--no-seed-demo` is `seed-demo`). */
function fileNameOf(key: ConfigKey): string | null {
  const flag = flagOfKey(key);
  return flag === null ? null : flag.replace(/^--(no-)?/, '');
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
  // Flag names, and for the settings without a flag (secrets) their names in the same style, to say where they go.
  const byName = new Map<string, ConfigKey>([
    ...CONFIG_KEYS.map((key) => [kebabCase(key), key] as const),
    ...CONFIG_KEYS.flatMap((key) => {
      const name = fileNameOf(key);
      return name === null ? [] : [[name, key] as const];
    }),
  ]);
  const settings: ConfigInput = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    const key = byName.get(name);
    if (key && isSecret(key))
      problems.push(`${file}: "${name}" is a secret; set ${envOfKey(key)} in the environment instead`);
    else if (!key || key === 'configFile' || flagOfKey(key) === null)
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
