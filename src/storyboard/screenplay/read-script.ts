import type { Screenplay } from '../../contract/index.js';
import { readFdx } from './read-fdx.js';
import { readFountain } from './read-fountain.js';
import type { ReadScript } from './screenplay.js';

/** A screenplay file read by its format: Final Draft XML by its name or its first bytes, anything else as Fountain. */
export function readScript(fileName: string, text: string): { source: Screenplay['source']; read: ReadScript } {
  const withoutBom = text.replace(/^\uFEFF/, '');
  if (/\.fdx$/i.test(fileName) || /^\s*<\?xml[^>]*>\s*<FinalDraft/i.test(withoutBom))
    return { source: 'fdx', read: readFdx(withoutBom) };
  return { source: /\.txt$/i.test(fileName) ? 'text' : 'fountain', read: readFountain(withoutBom) };
}
