/**
 * How ffmpeg and ffprobe are told to read a file: as one format and from that file only. Left to guess, they take the
 * format from the bytes, and some formats open other things: an HLS playlist (`#EXTM3U`) fetches its segments from
 * any path or URL it names, a concat list (`ffconcat`) opens the files it lists. A file whose type was found in its
 * bytes (src/assets/uploads/) is read as exactly that demuxer (`-f`), through the `file` protocol alone
 * (`-protocol_whitelist`), by a `file:` URL (a name with a colon is never taken for a protocol): a playlist in
 * disguise is then bytes that do not parse, never a list of things to open.
 */

/** The demuxer of each type uploads take as film or sound (src/contract/uploads.ts, UPLOAD_TYPES). */
export const DEMUXER_OF_TYPE: Readonly<Record<string, string>> = {
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'audio/mp4': 'mov',
  'audio/x-m4a': 'mov',
  'video/webm': 'matroska',
  'video/x-matroska': 'matroska',
  'audio/webm': 'matroska',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/aac': 'aac',
  'audio/flac': 'flac',
};

/** The demuxer a file found to be of this type is read with; a type without one is never handed to ffmpeg. */
export function demuxerOf(mimeType: string): string {
  const demuxer = Object.hasOwn(DEMUXER_OF_TYPE, mimeType) ? DEMUXER_OF_TYPE[mimeType] : undefined;
  if (!demuxer) throw new Error(`No demuxer is named for ${mimeType}: it cannot be read as film or sound.`);
  return demuxer;
}

/** The input options and the input of one local file, read as `demuxer` and nothing else. */
export function fileInput(path: string, demuxer: string): string[] {
  return ['-protocol_whitelist', 'file', '-f', demuxer, '-i', `file:${path}`];
}

/**
 * ffmpeg arguments with each input that names no protocols of its own held to `protocols` (files, and the pipes our
 * encoders write frames into): whatever an input turns out to be, it opens nothing over the network. No value our
 * calls pass is the word `-i`, so every `-i` is an input.
 */
export function withProtocolWhitelist(args: readonly string[], protocols = 'file,pipe'): string[] {
  const out: string[] = [];
  let named = false;
  for (const arg of args) {
    if (arg === '-protocol_whitelist') named = true;
    if (arg === '-i') {
      if (!named) out.push('-protocol_whitelist', protocols);
      named = false;
    }
    out.push(arg);
  }
  return out;
}
