import { CanvasError } from '../shared/errors.js';

/**
 * A database that is away (restarting, unreachable, out of connections, busy past its timeout) is an outage, not a
 * fault of ours: every store error of that kind reaches callers as `unavailable` (HTTP 503, retryable), never
 * `internal`.
 */

// SQLSTATE classes and codes that mean "the server or the connection went away", not "your statement is wrong".
const POSTGRES_OUTAGE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '58000', '58030']);
const POSTGRES_OUTAGE_CLASSES = ['08'];
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const OUTAGE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end',
  'terminating connection',
  'the database system is',
];
const SQLITE_OUTAGE_CODES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
];

export function isStoreOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || POSTGRES_OUTAGE_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_OUTAGE_CLASSES.includes(code.slice(0, 2))) return true;
    if (SQLITE_OUTAGE_CODES.some((prefix) => code.startsWith(prefix))) return true;
  }
  return OUTAGE_MESSAGES.some((message) => error.message.includes(message));
}

export function storeUnavailable(): CanvasError {
  return new CanvasError('unavailable', 'The database is unavailable right now; retry shortly.');
}

/** Rethrows a store outage as `unavailable`; anything else unchanged. */
export function asStoreError(error: unknown): unknown {
  return isStoreOutage(error) ? storeUnavailable() : error;
}
