import { describe, expect, it } from 'vitest';
import { copyArguments, posterArguments, probeArguments } from '../../src/assets/uploads/av-arguments.js';
import { UPLOAD_TYPES } from '../../src/contract/uploads.js';
import { bytesInWords } from '../../src/shared/byte-size.js';
import { buildYearOf, oldBuildWarning } from '../../src/shared/media-binaries.js';
import { DEMUXER_OF_TYPE, demuxerOf, withProtocolWhitelist } from '../../src/shared/media-arguments.js';

/**
 * How ffmpeg and ffprobe are told to read an upload (src/shared/media-arguments.ts,
 * src/assets/uploads/av-arguments.ts): as the demuxer its bytes were found to be, from its own file through the file
 * protocol alone, never left to guess (a guess can take a playlist, which opens whatever it names). Also the pure parts
 * of what `doctor` says of the media tools, and sizes in words.
 */

/** The input part of a command line: the options before `-i`, and the input itself. */
function inputOf(args: readonly string[]): { options: string[]; input: string } {
  const at = args.indexOf('-i');
  return { options: args.slice(0, at), input: args[at + 1]! };
}

describe('reading an uploaded film or sound', () => {
  it('names a demuxer for every film and sound type uploads take, and none for anything else', () => {
    const media = Object.entries(UPLOAD_TYPES)
      .filter(([, kind]) => kind === 'video' || kind === 'audio')
      .map(([type]) => type);
    for (const type of media) expect(DEMUXER_OF_TYPE[type], type).toMatch(/^(mov|matroska|mp3|wav|ogg|aac|flac)$/);
    expect(demuxerOf('video/mp4')).toBe('mov');
    expect(demuxerOf('audio/x-m4a')).toBe('mov');
    expect(demuxerOf('video/webm')).toBe('matroska');
    expect(demuxerOf('audio/mpeg')).toBe('mp3');
    for (const other of ['application/vnd.apple.mpegurl', 'text/plain', 'image/png', 'toString', '__proto__'])
      expect(() => demuxerOf(other), other).toThrow(/No demuxer/);
  });

  it.each([
    ['the probe', probeArguments('/work/up load:1', 'mov')],
    [
      'the copy',
      copyArguments({
        source: '/work/up load:1',
        demuxer: 'mov',
        video: true,
        audio: true,
        faststart: true,
        output: '/work/media.mp4',
      }),
    ],
    [
      'the poster',
      posterArguments({ source: '/work/up load:1', demuxer: 'mov', atSeconds: 1, edge: 320, output: '/work/p.jpg' }),
    ],
  ])('%s reads the file as its demuxer, through the file protocol only, by a file: URL', (_, args) => {
    const { options, input } = inputOf(args);
    expect(options.slice(-4)).toEqual(['-protocol_whitelist', 'file', '-f', 'mov']);
    // A name with a colon is never read as a protocol.
    expect(input).toBe('file:/work/up load:1');
    expect(args.filter((arg) => arg === '-i')).toHaveLength(1);
  });

  it('copies the first picture and sound streams without metadata, and takes the poster one second in', () => {
    const copy = copyArguments({
      source: 's',
      demuxer: 'wav',
      video: false,
      audio: true,
      faststart: false,
      output: 'o.wav',
    });
    expect(copy.join(' ')).toContain('-map 0:a:0 -c copy -map_metadata -1 -map_chapters -1 -y o.wav');
    expect(copy).not.toContain('0:v:0');
    expect(copy).not.toContain('-movflags');
    const poster = posterArguments({ source: 's', demuxer: 'mov', atSeconds: 1, edge: 320, output: 'p.jpg' });
    expect(poster.slice(poster.indexOf('-ss'), poster.indexOf('-ss') + 2)).toEqual(['-ss', '1']);
    expect(poster).toContain("scale='min(320,iw)':-2");
  });
});

describe('every input of an encoding', () => {
  it('is held to files and pipes, unless it names its own protocols', () => {
    expect(
      withProtocolWhitelist([
        '-f',
        'rawvideo',
        '-i',
        'pipe:0',
        '-stream_loop',
        '-1',
        '-i',
        'music.wav',
        '-protocol_whitelist',
        'file',
        '-f',
        'mov',
        '-i',
        'file:clip.mp4',
        '-map_metadata',
        '-1',
        '-y',
        'out.mp4',
      ]),
    ).toEqual([
      '-f',
      'rawvideo',
      '-protocol_whitelist',
      'file,pipe',
      '-i',
      'pipe:0',
      '-stream_loop',
      '-1',
      '-protocol_whitelist',
      'file,pipe',
      '-i',
      'music.wav',
      '-protocol_whitelist',
      'file',
      '-f',
      'mov',
      '-i',
      'file:clip.mp4',
      '-map_metadata',
      '-1',
      '-y',
      'out.mp4',
    ]);
  });
});

describe('the media tools doctor reports', () => {
  it('reads the year a build was made from its version line, and warns of one more than two years old', () => {
    const bundled =
      'ffmpeg version N-47683-g0e8eb07980-static https://johnvansickle.com/ffmpeg/  Copyright (c) 2000-2018 the FFmpeg developers';
    expect(buildYearOf(bundled)).toBe(2018);
    expect(buildYearOf('ffmpeg version 7.1')).toBeNull();
    expect(oldBuildWarning('ffmpeg', 'bundled', 2018, 2026)).toMatch(
      /^the ffmpeg bundled with canvas-mcp was built in 2018.*set CANVAS_MCP_FFMPEG to a current ffmpeg/,
    );
    expect(oldBuildWarning('ffprobe', 'environment', 2019, 2026)).toMatch(/^this ffprobe .*CANVAS_MCP_FFPROBE/);
    expect(oldBuildWarning('ffprobe', 'bundled', 2024, 2026)).toBeNull();
    expect(oldBuildWarning('ffmpeg', 'path', null, 2026)).toBeNull();
  });
});

describe('sizes in words', () => {
  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1536, '1.5 KiB'],
    [10 * 1024 ** 3, '10 GiB'],
    [Math.floor(9.99 * 1024 ** 3), '9.9 GiB'],
    [700 * 1024 ** 2, '700 MiB'],
  ])('%d bytes are %s', (bytes, words) => {
    expect(bytesInWords(bytes)).toBe(words);
  });
});
