import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The MCP Skills extension (SEP-2640): the skills this server teaches agents, from the `skills/` folder of the
 * package. Each skill is a folder with a `SKILL.md` (YAML frontmatter: name, description) and the files it links to.
 * `skills/list` and `skills/get` answer each skill's entry: its `SKILL.md` URI, the frontmatter, and every file with
 * its size and SHA-256 digest, so a host verifies what it loads; `resources/read` answers each file by its URI.
 *
 * The files are read once, when the server starts: a skill is part of the release, like the tools' descriptions, and
 * the digests a client saw at `skills/list` must hold for every later read.
 */

export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** Every skill URI starts here: `skill://canvas-mcp/<skill>/SKILL.md`. */
export const SKILL_URI_ROOT = 'skill://canvas-mcp/';
/** The storyboarding skill's manifest: where tool descriptions point an agent for the craft and the rules. */
export const STORYBOARDING_SKILL_URI = `${SKILL_URI_ROOT}storyboarding/SKILL.md`;

const SKILLS_FOLDER = fileURLToPath(new URL('../../skills/', import.meta.url));
const MANIFEST = 'SKILL.md';

export interface SkillFileEntry {
  uri: string;
  digest: string; // `sha256:` and the lowercase hex digest of the file's bytes
  size: number;
}

export interface SkillEntry {
  uri: string;
  frontmatter: { name: string; description: string };
  resources: SkillFileEntry[];
}

interface SkillFile {
  uri: string;
  mimeType: string;
  text: string;
}

/** The frontmatter a skill may carry: Agent Skills' name rule, a description a host can show. */
const Frontmatter = z.object({
  name: z
    .string()
    .max(64)
    .regex(/^[\da-z]+(?:-[\da-z]+)*$/),
  description: z.string().min(1).max(1024),
});

/**
 * The frontmatter between the first two `---` lines, as `key: value` lines. Our skills keep their frontmatter to
 * plain one-line scalars, which this reads exactly as a YAML parser does; anything else stops the server at start.
 */
function frontmatterOf(markdown: string, where: string): SkillEntry['frontmatter'] {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  if (!match) throw new Error(`${where}: a SKILL.md starts with YAML frontmatter between --- lines`);
  const fields: Record<string, string> = {};
  for (const line of match[1]!.split('\n')) {
    const pair = /^([a-z][a-z0-9_-]*): (\S.*)$/.exec(line);
    if (!pair || /: |\s#|^["'[{>|&*!%@`]/.test(pair[2]!))
      throw new Error(`${where}: frontmatter line "${line}" is not a plain one-line "key: value"`);
    fields[pair[1]!] = pair[2]!.trimEnd();
  }
  const parsed = Frontmatter.safeParse(fields);
  if (!parsed.success) throw new Error(`${where}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  return parsed.data;
}

const mimeTypeOf = (name: string) => (name.endsWith('.md') ? 'text/markdown' : 'text/plain');

/** Every file under `folder`, as paths relative to it with `/`, sorted so the manifest's order never varies. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath.slice(folder.length).replace(/^[\\/]/, '')}/${entry.name}`.replace(/^\//, ''))
    .map((path) => path.replaceAll('\\', '/'))
    .sort();
}

export interface SkillCatalog {
  /** The entries `skills/list` answers, by URI. */
  readonly entries: readonly SkillEntry[];
  /** One skill by its SKILL.md URI; undefined when none is served there. */
  get(uri: string): SkillEntry | undefined;
  /** A skill file by its URI; undefined when it is not a file of a served skill. */
  read(uri: string): SkillFile | undefined;
  /** The SKILL.md of each skill, as `resources/list` shows it. */
  readonly listed: ReadonlyArray<{ uri: string; name: string; description: string; mimeType: string; size: number }>;
}

export function loadSkillCatalog(folder = SKILLS_FOLDER): SkillCatalog {
  const entries: SkillEntry[] = [];
  const files = new Map<string, SkillFile>();
  for (const skill of readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const skillFolder = `${folder}${folder.endsWith('/') ? '' : '/'}${skill.name}`;
    const root = `${SKILL_URI_ROOT}${skill.name}`;
    const resources: SkillFileEntry[] = [];
    let frontmatter: SkillEntry['frontmatter'] | undefined;
    for (const path of filesUnder(skillFolder)) {
      const bytes = readFileSync(`${skillFolder}/${path}`);
      const text = bytes.toString('utf8');
      if (path === MANIFEST) {
        frontmatter = frontmatterOf(text, `skills/${skill.name}/${MANIFEST}`);
        if (frontmatter.name !== skill.name)
          throw new Error(`skills/${skill.name}/${MANIFEST}: its name must be its folder's, "${skill.name}"`);
      }
      const uri = `${root}/${path.split('/').map(encodeURIComponent).join('/')}`;
      resources.push({ uri, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, size: bytes.length });
      files.set(uri, { uri, mimeType: mimeTypeOf(path), text });
    }
    if (!frontmatter) throw new Error(`skills/${skill.name} has no ${MANIFEST}`);
    entries.push({ uri: `${root}/${MANIFEST}`, frontmatter, resources });
  }
  entries.sort((a, b) => (a.uri < b.uri ? -1 : 1));
  const byUri = new Map(entries.map((entry) => [entry.uri, entry]));
  return {
    entries,
    get: (uri) => byUri.get(uri),
    read: (uri) => files.get(uri),
    listed: entries.map((entry) => ({
      uri: entry.uri,
      name: entry.frontmatter.name,
      description: entry.frontmatter.description,
      mimeType: 'text/markdown',
      size: entry.resources.find((file) => file.uri === entry.uri)!.size,
    })),
  };
}
