import { readFile } from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';
import { readCredentials, signableType } from '../../provenance/c2pa-signer.js';
import { credentialsSummary } from '../../provenance/summary.js';
import { report } from '../cli-support.js';
import { UsageError } from '../failure.js';

/**
 * `canvas-mcp admin verify FILE` (docs/provenance.md, "Checking a file"): the content credentials a file carries, as
 * the C2PA reader validates them: whether they are intact (and trusted, given the deployment's CA with --trust), what
 * made the file, whether it is AI-generated, when, from which project, and what it was made from. A file with no
 * credentials, or of a kind C2PA cannot carry, says so; neither is an error of the command.
 */

export type VerifyFlags = { trust?: string; json?: boolean };

export async function verify(file: string, flags: VerifyFlags): Promise<void> {
  const bytes = await readFile(file).catch(() => {
    throw new UsageError(`cannot read ${file}`);
  });
  const type = (await fileTypeFromBuffer(bytes))?.mime ?? null;
  if (!type || !signableType(type)) {
    report(
      flags.json,
      { file, credentials: null, reason: 'unsupported' },
      `${file}: a kind of file C2PA cannot carry credentials in (${type ?? 'unknown'})`,
    );
    return;
  }
  const trust = flags.trust ? await readFile(flags.trust, 'utf8') : undefined;
  const found = await readCredentials(bytes, type, trust);
  if (!found) {
    report(flags.json, { file, credentials: null, reason: 'none' }, `${file}: no content credentials`);
    return;
  }
  const said = credentialsSummary(found);
  const lines = [
    `${file}: content credentials ${said.state}${said.failures.length ? ` (${said.failures.join('; ')})` : ''}`,
    `  made by: ${said.made_by ?? 'not said'}`,
    `  source: ${said.source_type ?? 'not said'}`,
    `  signed: ${said.signed_at ?? 'no time'} by ${said.signer ?? 'unknown'}`,
    ...(said.generation ? [`  generation: ${JSON.stringify(said.generation)}`] : []),
    ...said.ingredients.map(
      (ingredient) => `  ingredient: ${ingredient.title ?? '?'} (${ingredient.relationship ?? '?'})`,
    ),
  ];
  report(flags.json, { file, credentials: said }, lines.join('\n'));
}
