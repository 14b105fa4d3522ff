import { SETTINGS_FILE } from './settings/file.js';
import { CHAT_SETTINGS } from './settings/chat.js';
import { FILE_SETTINGS } from './settings/files.js';
import { PEOPLE_SETTINGS } from './settings/people.js';
import { RUN_SETTINGS } from './settings/runs.js';
import { SERVICE_SETTINGS } from './settings/service.js';

/**
 * Every setting of canvas-mcp, one row each (src/config/setting.ts says what a row holds). The order is the order of
 * `serve --help` and of docs/operations.md's table (rendered from these rows: `npm run docs:settings`).
 */

export { SETTINGS_FILE };
export { DEFAULT_REFERENCE_INPUTS } from './settings/runs.js';

export const SETTINGS = {
  ...SERVICE_SETTINGS,
  ...RUN_SETTINGS,
  ...PEOPLE_SETTINGS,
  ...CHAT_SETTINGS,
  ...FILE_SETTINGS,
};

export type ConfigKey = keyof typeof SETTINGS;
export const CONFIG_KEYS = Object.keys(SETTINGS) as ConfigKey[];
