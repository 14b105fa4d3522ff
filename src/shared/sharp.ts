import type SharpModule from 'sharp';

/** sharp's factory: `sharp(input, options)` makes a pipeline. */
export type SharpFactory = typeof SharpModule;

let loaded: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips, a native module), imported by the first picture a process reads or writes rather than at its start:
 * its import took about 95 ms of every `serve` and `worker` start (docs/performance.md, "Start").
 */
export function loadSharp(): Promise<SharpFactory> {
  return (loaded ??= import('sharp').then((module) => module.default));
}
