import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's feature table is the map a newcomer reads first: each path it names must exist, and every
 * folder of src/ and of src/backend/ must be on it, so a folder added or moved without a row fails here.
 */

const root = new URL('../../', import.meta.url);
const DOC = readFileSync(new URL('docs/architecture.md', root), 'utf8');

function featureTable(): string[][] {
  const lines = DOC.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Feature | Contract | Store | Service |'));
  expect(header, 'docs/architecture.md has the feature table').toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1));
  }
  return rows;
}

/** Server paths are written from src/; the web's from the repository's root. */
const pathOf = (named: string) => (named.startsWith('web/') ? named : `src/${named}`);
const namedPaths = () =>
  featureTable().flatMap((row) => row.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
const folders = (dir: string) =>
  readdirSync(new URL(dir, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}${entry.name}/`);

describe('the architecture map', () => {
  it('names only paths that exist', () => {
    const missing = namedPaths().filter((named) => !existsSync(new URL(pathOf(named), root)));
    expect(missing).toEqual([]);
  });

  it('shows every folder of src/ and of src/backend/', () => {
    const named = namedPaths().map(pathOf);
    const absent = [...folders('src/'), ...folders('src/backend/')].filter(
      (folder) => !named.some((path) => path.startsWith(folder)),
    );
    expect(absent).toEqual([]);
  });

  it('has a row with a service for every feature it lists', () => {
    for (const [feature, , , service] of featureTable()) expect(service!.trim(), feature).not.toBe('');
  });
});
