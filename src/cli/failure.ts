// Not config/index.js, which also loads the store: every command line loads this module.
import { ConfigError } from '../config/sources.js';
import { CanvasError } from '../shared/errors.js';

/**
 * Exit codes: 1 for a refused or failed operation, 2 for bad configuration or usage. With --json every failure is one
 * JSON object on stdout, `{ error: { code, message, details? } }`: a script reads it the same way whatever
 * went wrong. The codes beyond the API's: `usage`, `configuration`, `io` (a file the command reads or writes) and
 * `failed`.
 */

/** A command that cannot run as asked (exit code 2, like bad configuration). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A command line commander could not parse (unknown option, missing argument): exit code 2, like a usage error. */
export class CommandLineError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CommandLineError';
  }
}

export function reportFailure(error: unknown, json: boolean): number {
  const { code, message, details, exitCode } = describeFailure(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } })}\n`);
  else
    process.stderr.write(
      exitCode === 2 ? `${message}\n` : `error${code === 'failed' ? '' : ` (${code})`}: ${message}\n`,
    );
  return exitCode;
}

function describeFailure(error: unknown): {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  exitCode: number;
} {
  if (error instanceof ConfigError)
    return { code: 'configuration', message: error.message, details: { problems: error.problems }, exitCode: 2 };
  if (error instanceof UsageError) return { code: 'usage', message: error.message, exitCode: 2 };
  if (error instanceof CommandLineError) return { code: 'usage', message: error.message, exitCode: error.exitCode };
  if (error instanceof CanvasError) {
    return {
      code: error.code,
      message: error.message,
      ...(Object.keys(error.details).length ? { details: error.details } : {}),
      exitCode: 1,
    };
  }
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof errno === 'string' && /^E[A-Z]+$/.test(errno))
    return { code: 'io', message, details: { errno }, exitCode: 1 };
  return { code: 'failed', message, exitCode: 1 };
}
