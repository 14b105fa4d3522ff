import { randomBytes } from 'node:crypto';
import { storeSealOf, type SecretSeal } from '../shared/secret-seal.js';

/**
 * Webhook signing secrets. A `whsec_` secret must stay usable to sign (HMAC-SHA256): it is sealed
 * (src/shared/secret-seal.ts) under the store's `webhook_seal` key.
 */
export type { SecretSeal };

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The store's webhook seal, made from its shared key the first time it is needed. */
export function storeSeal(store: { sharedSecret(name: string): Promise<string> }): () => Promise<SecretSeal> {
  return storeSealOf(store, 'webhook_seal', 'webhook seal');
}
