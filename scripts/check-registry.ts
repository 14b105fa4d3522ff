/**
 * The MCP Registry entry: server.json at the repository root is checked against the registry's schema
 * (schemas/mcp-server-2025-12-11.schema.json, as published at static.modelcontextprotocol.io) and against the package:
 * its name is package.json's `mcpName`, its version and the npm package's are package.json's version, and its
 * environment variables are exactly the secret settings (src/config/settings.ts), each marked secret. Run by
 * `npm run check:registry` and by the tests (test/contract/registry-entry.test.ts), so CI fails when they disagree.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { SETTINGS } from '../src/config/settings.js';
import { envOf, type SettingRow } from '../src/config/setting.js';
import { PACKAGE } from '../src/shared/package-facts.js';

const root = new URL('../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as unknown;

interface ServerJson {
  name: string;
  version: string;
  packages?: Array<{
    identifier: string;
    version?: string;
    environmentVariables?: Array<{ name: string; isSecret?: boolean }>;
  }>;
}

/** The environment variables of the secret settings, which server.json must list as secrets. */
export function secretVariables(): string[] {
  return Object.entries(SETTINGS as Record<string, SettingRow>)
    .filter(([, row]) => row.secret === true)
    .map(([key, row]) => envOf(key, row))
    .sort();
}

/** What is wrong with server.json (the file, or the entry given), as sentences; none when it is right. */
export function registryProblems(given?: unknown): string[] {
  const schema = readJson('schemas/mcp-server-2025-12-11.schema.json') as Record<string, unknown>;
  const entry = (given ?? readJson('server.json')) as ServerJson;
  const packageJson = readJson('package.json') as { name: string; version: string; mcpName?: string };
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  const problems = validate(entry)
    ? []
    : (validate.errors ?? []).map((error) => `server.json${error.instancePath}: ${error.message}`);
  if (packageJson.mcpName !== entry.name)
    problems.push(`server.json name ${entry.name} is not package.json's mcpName ${packageJson.mcpName}`);
  if (entry.version !== PACKAGE.version)
    problems.push(`server.json version ${entry.version} is not the package's ${PACKAGE.version}`);
  const npm = entry.packages?.find((found) => found.identifier === packageJson.name);
  if (!npm) problems.push(`server.json lists no npm package ${packageJson.name}`);
  else {
    if (npm.version !== PACKAGE.version)
      problems.push(`server.json's npm package version ${npm.version} is not the package's ${PACKAGE.version}`);
    const listed = (npm.environmentVariables ?? []).map((variable) => variable.name).sort();
    const wanted = secretVariables();
    if (listed.join() !== wanted.join())
      problems.push(
        `server.json's environment variables ${listed.join(', ')} are not the secret settings ${wanted.join(', ')}`,
      );
    for (const variable of npm.environmentVariables ?? [])
      if (variable.isSecret !== true) problems.push(`server.json: ${variable.name} must be marked isSecret`);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = registryProblems();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log('server.json matches the registry schema and the package.');
}
