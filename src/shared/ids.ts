import { hash, randomBytes } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/** Identifier prefixes tell the kinds apart at a glance: a chat run id is never mistaken for a node run id. */
export const ID_PREFIX = {
  nodeRun: 'run_',
  runChain: 'chain_',
  chatRun: 'chat_',
  token: 'tok_',
  asset: 'asset_',
} as const;

export const TOKEN_SECRET_PREFIX = 'cmcp_';

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

/** 256 bits of randomness: stored only as its SHA-256, so a fast hash is enough (no password stretching). */
export function newTokenSecret(): string {
  return `${TOKEN_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(text: string): string {
  // The one-shot hash: every request hashes its bearer token, and a Hash object per call cost more than the digest.
  return hash('sha256', text, 'hex');
}

/** JSON with sorted keys: equal values give equal text, so payloads can be compared by hash. */
export function canonicalJson(value: unknown): string {
  const text = stringify(value);
  if (typeof text !== 'string') throw new TypeError('value is not JSON-serializable');
  return text;
}
