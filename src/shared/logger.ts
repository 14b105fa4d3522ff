import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Headers and fields that can carry a credential are redacted wherever they appear, as a
 * second line of defence: no code path logs a token on purpose.
 */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'headers.cookie',
  'token',
  'secret',
  '*.token',
  '*.secret',
  '*.authorization',
  'backendToken',
  '*.backendToken',
];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'canvas-mcp' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

export type { Logger };
