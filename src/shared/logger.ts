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

/** sonic-boom in contentMode 'buffer' takes bytes; its type declarations still name only text. */
interface ByteStream {
  write(data: Buffer): boolean;
  flush(): void;
}

/**
 * Standard output (or a file), written asynchronously and in batches: the request never waits on the log's reader,
 * and a busy server hands the thread pool one write per few kilobytes rather than one per line (one write per request
 * cost a sequential create about a tenth of its CPU: docs/scaling.md). A timer flushes what a quiet server left
 * waiting; pino flushes synchronously on exit, so no line is lost when the process ends.
 */
export function batchedDestination(dest: number | string = 1): DestinationStream {
  // Lines are handed over as bytes: given text, sonic-boom measures the whole batch so far again on every line (its
  // byte length, over a string of up to 16 KB while a write is in flight), which cost about 2 µs a line, and so a
  // request (docs/performance.md, "What moved since 2026-11-28"); bytes are counted once each.
  const stream = pino.destination({
    dest,
    sync: false,
    minLength: BATCH_BYTES,
    contentMode: 'buffer',
  }) as unknown as ByteStream;
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
      stream.write(Buffer.from(line));
    },
  };
}

/**
 * pino's ISO time, the same text, made cheaply: formatting a date costs about 1.5 µs, once per log line and so per
 * request; the text up to the second is kept and only the milliseconds are written each time.
 */
let timestampSecond = -1;
let timestampPrefix = '';
export function isoTimestamp(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== timestampSecond) {
    timestampSecond = second;
    timestampPrefix = `,"time":"${new Date(second * 1000).toISOString().slice(0, 20)}`;
  }
  const millis = now - second * 1000;
  return `${timestampPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z"`;
}

/** Every logger of the process that writes to standard output shares one batch (and one flush timer). */
let standardOutput: DestinationStream | undefined;

export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'canvas-mcp' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: isoTimestamp,
    },
    destination ?? (standardOutput ??= batchedDestination()),
  );
}

export type { Logger };
