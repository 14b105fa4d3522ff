import { Option, type Command } from 'commander';
// Not config/index.js: that one also loads the store, which registering a command's flags does not need.
import { CONFIG_KEYS, SETTINGS, type ConfigKey } from '../config/settings.js';
import { flagOfKey, type ConfigInput } from '../config/sources.js';
import type { SettingCommand, SettingRow } from '../config/setting.js';

/** The command-line flags of settings (src/config/settings.ts), as commander options, for one command. */

export interface SettingOption {
  option: Option;
  key: ConfigKey;
}

/** The default as `--help` shows it, or null when saying it would not help (none, false, empty). */
function shownDefault(key: ConfigKey): string | null {
  const row: SettingRow = SETTINGS[key];
  if (row.shownDefault !== undefined) return row.shownDefault.replace(/`/g, '');
  if (!('default' in row) || row.default === undefined || row.default === false || row.default === '') return null;
  if (Array.isArray(row.default) || (typeof row.default === 'object' && row.default !== null)) return null;
  return String(row.default);
}

export function settingOptions(command: SettingCommand): SettingOption[] {
  return CONFIG_KEYS.flatMap((key) => {
    const row: SettingRow = SETTINGS[key];
    const flag = flagOfKey(key);
    const taken = command === 'serve' || row.commands?.includes(command);
    if (flag === null || !taken) return [];
    const fallback = row.switch ? null : shownDefault(key);
    const help = fallback === null ? row.help : `${row.help} (default ${fallback})`;
    const option = new Option(row.switch ? flag : `${flag} <${row.arg ?? 'value'}>`, help);
    return [{ option, key }];
  });
}

export function addSettingOptions(command: Command, options: SettingOption[]): void {
  for (const { option } of options) command.addOption(option);
}

/** Reads the flags given on the command line (they override the environment) into configuration input. */
export function configFlagsOf(command: Command, options: SettingOption[]): ConfigInput {
  const values = command.opts<Record<string, unknown>>();
  const flags: ConfigInput = {};
  for (const { option, key } of options) {
    if (command.getOptionValueSource(option.attributeName()) === 'cli') flags[key] = values[option.attributeName()];
  }
  return flags;
}
