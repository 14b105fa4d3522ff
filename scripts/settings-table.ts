import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from '../src/config/docs-table.js';

/** Writes docs/operations.md's table of settings from src/config/settings.ts (npm run docs:settings). */
const page = new URL('../docs/operations.md', import.meta.url);
writeFileSync(page, withSettingsTable(readFileSync(page, 'utf8')));
