import { readFileSync } from 'node:fs';

/** The package version (src/shared and dist/shared both sit two levels below package.json). */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
