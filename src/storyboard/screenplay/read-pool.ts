import { Piscina } from 'piscina';
import type { Screenplay } from '../../contract/index.js';
import { CanvasError } from '../../shared/errors.js';
import { runWithDeadline } from '../../shared/worker-deadline.js';
import type { ReadScript } from './screenplay.js';

/**
 * Screenplays are read on a worker thread, with a deadline (docs/security.md, "Script import"). A reader's work can
 * grow far faster than its input (fountain-js took seconds over 370 hostile bytes): on the server's own thread one
 * import would hold every other request. Here a file that takes longer than the deadline is stopped (its thread
 * ended) and refused naming the limit, and the server answers as usual meanwhile.
 */

export type ScriptReading =
  | { kind: 'read'; source: Screenplay['source']; script: ReadScript }
  | { kind: 'refused'; message: string; line: number | null };

export interface ScriptReader {
  /** What the file holds; a refused file is a CanvasError naming the file and why. */
  read(fileName: string, text: string): Promise<{ source: Screenplay['source']; read: ReadScript }>;
  close(): Promise<void>;
}

export interface ScriptReaderOptions {
  /** A read taking longer is stopped and refused. */
  deadlineMs: number;
  /** Reads waiting for the thread; beyond it an import is answered `unavailable`. */
  maxQueue?: number;
}

/** How long an import may wait for the reader's thread (in line behind others, or starting) before its reading starts. */
const START_BOUND_MS = 30_000;

// From the built package the worker is JavaScript; from source (tests, tsx) it is TypeScript, loaded through tsx.
const fromSource = import.meta.url.endsWith('.ts');

export function createScriptReader(options: ScriptReaderOptions): ScriptReader {
  let pool: Piscina | undefined;
  const workers = () =>
    (pool ??= new Piscina({
      filename: new URL(`./read-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      minThreads: 0,
      // One import at a time: a second waits (imports are rare; two would halve each other's speed on two cores).
      maxThreads: 1,
      idleTimeout: 30_000,
      maxQueue: options.maxQueue ?? 8,
    }));

  return {
    async read(fileName, text) {
      const seconds = options.deadlineMs / 1000;
      const reading = (await runWithDeadline(
        (...args) => workers().run(...args),
        { fileName, text },
        { deadlineMs: options.deadlineMs, startBoundMs: START_BOUND_MS },
        {
          notStarted: () =>
            new CanvasError('unavailable', 'The script reader is busy and did not start on this file; retry shortly.'),
          overran: () =>
            new CanvasError(
              'limit_exceeded',
              `${fileName}: reading this script took longer than ${seconds} s, the limit for one import (script_read_seconds); nothing was written. Check the file is a screenplay, or split it.`,
              { file_name: fileName, limit: 'script_read_seconds', seconds },
            ),
          queueFull: () => new CanvasError('unavailable', 'Too many scripts are waiting to be read; retry shortly.'),
        },
      )) as ScriptReading;
      if (reading.kind === 'refused')
        throw new CanvasError('invalid_arguments', `${fileName}: ${reading.message}`, {
          file_name: fileName,
          line: reading.line,
        });
      return { source: reading.source, read: reading.script };
    },
    async close() {
      await pool?.destroy();
    },
  };
}
