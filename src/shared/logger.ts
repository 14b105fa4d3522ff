import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Fields that could carry a credential are redacted, as a second line of defence: no code
 * path logs a token on purpose. Explicit paths only: wildcard paths made every log line twice as expensive.
 */
export const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'token',
  'secret',
  'backendToken',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'config.backendToken',
  'metricsToken',
  'config.metricsToken',
  'modelApiKey',
  'config.modelApiKey',
  'apiKey',
];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Lines wait in memory until this many bytes, or until the next flush tick, then go out in one write. */
const BATCH_BYTES = 4096;
/** How long a line may wait in memory at most, about: a quiet server's lines still show within a fifth of a second. */
export const LOG_FLUSH_MS = 200;

/**
 * Standard output (or a file), written asynchronously and in batches: the request never waits on the log's reader,
 * and a busy server hands the thread pool one write per few kilobytes rather than one per line (one write per request
 * cost a sequential create about a tenth of its CPU: docs/scaling.md). A timer flushes what a quiet server left
 * waiting; pino flushes synchronously on exit, so no line is lost when the process ends.
 */
export function batchedDestination(dest: number | string = 1): DestinationStream {
  const stream = pino.destination({ dest, sync: false, minLength: BATCH_BYTES });
  // Two ticks after the last line: a flush that met a write still in flight (and so did nothing) is tried again.
  let ticksToFlush = 0;
  setInterval(() => {
    if (ticksToFlush === 0) return;
    ticksToFlush -= 1;
    stream.flush();
  }, LOG_FLUSH_MS).unref();
  return {
    write(line: string) {
      ticksToFlush = 2;
      stream.write(line);
    },
  };
}

/** Every logger of the process that writes to standard output shares one batch (and one flush timer). */
let standardOutput: DestinationStream | undefined;

export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'canvas-mcp' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? (standardOutput ??= batchedDestination()),
  );
}

export type { Logger };
