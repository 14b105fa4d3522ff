import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What the package says of itself (package.json): the one place the registry name (`mcpName`), description and
 * repository are written; the Server Card, the AI catalog and server.json (scripts/check-registry.ts) read them here.
 */
const PackageJson = z.object({
  version: z.string(),
  description: z.string().max(100),
  mcpName: z.string(),
  homepage: z.string().optional(),
  repository: z.object({ url: z.string() }),
});

export const PACKAGE = PackageJson.parse(
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as unknown,
);

/** The repository as registries name it: `https://github.com/owner/name`. */
export const REPOSITORY_URL = PACKAGE.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
