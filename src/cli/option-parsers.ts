import { CanvasError } from '../shared/errors.js';

/** Option values commander turns into what a command takes, checked as it reads the command line. */

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function positiveSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds <= 0)
    throw new CanvasError(
      'invalid_arguments',
      `--expires-in must be a positive whole number of seconds, got ${JSON.stringify(value)}.`,
    );
  return seconds;
}
