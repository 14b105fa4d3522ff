import type { SettingRow } from './setting.js';
import { CONFIG_KEYS, SETTINGS } from './settings.js';
import { envOfKey, flagOfKey } from './sources.js';

/**
 * docs/operations.md's table of settings, rendered from the rows (`npm run docs:settings` writes it between the
 * `settings-table` markers; a test fails when the page and the rows disagree).
 */

export const TABLE_START = '<!-- settings-table: rendered from src/config/settings.ts by npm run docs:settings -->';
export const TABLE_END = '<!-- /settings-table -->';

function defaultCell(row: SettingRow): string {
  if (row.shownDefault !== undefined) return row.shownDefault;
  if (row.default === undefined) return 'none';
  const text = typeof row.default === 'string' ? row.default : JSON.stringify(row.default);
  return `\`${text}\``;
}

export function settingsTable(): string {
  const lines = ['| Flag | Environment variable | Default | Meaning |', '|---|---|---|---|'];
  for (const key of CONFIG_KEYS) {
    const row: SettingRow = SETTINGS[key];
    const flag = flagOfKey(key);
    const meaning = (row.docs ?? row.help).replace(/\|/g, '\\|');
    lines.push(
      `| ${flag ? `\`${flag}\`` : '(environment only)'} | \`${envOfKey(key)}\` | ${defaultCell(row)} | ${meaning} |`,
    );
  }
  return lines.join('\n');
}

/** The page with its table replaced by the rendered one; throws when the markers are missing. */
export function withSettingsTable(page: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${page.slice(0, start + TABLE_START.length)}\n${settingsTable()}\n${page.slice(end)}`;
}
