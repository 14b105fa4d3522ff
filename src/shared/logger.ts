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

/**
 * Writes go out asynchronously (the request never waits on stdout); pino flushes synchronously on exit, so no line
 * is lost when the process ends.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'canvas-mcp' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 0 }),
  );
}

export type { Logger };
