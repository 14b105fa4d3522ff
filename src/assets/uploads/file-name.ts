import { basename } from 'node:path';

/** A file's name as shown: its last path segment, without control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  const cleaned = [...basename((name ?? '').replace(/\\/g, '/'))]
    .filter((character) => character.charCodeAt(0) > 0x1f && character !== '\u007f')
    .join('')
    .trim()
    .slice(0, 200);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'upload' : cleaned;
}
