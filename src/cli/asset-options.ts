import type { Command } from 'commander';
import type { ConfigInput } from '../config/sources.js';
import { addSettingOptions, configFlagsOf, settingOptions, type SettingOption } from './setting-options.js';

/** The asset flags admin commands share (docs/operations.md, "Asset storage"), and what a command line gave of them. */

const optionsOf = new WeakMap<Command, SettingOption[]>();

/**
 * Adds the S3 settings (credentials come from the environment, as for serve) and, for a command that writes assets
 * somewhere (`target`), `--asset-store`.
 */
export function withAssetOptions(command: Command, { target }: { target: boolean }): Command {
  const s3 = settingOptions('assets');
  const options = target ? [...settingOptions('serve').filter(({ key }) => key === 'assetStore'), ...s3] : s3;
  addSettingOptions(command, options);
  optionsOf.set(command, options);
  return command;
}

/** The asset settings given on this command's line (they override the environment). */
export function assetFlagsOf(command: Command): ConfigInput {
  return configFlagsOf(command, optionsOf.get(command) ?? []);
}
