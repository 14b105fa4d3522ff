import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets (issue 22). A `whsec_` secret must stay usable to sign (HMAC-SHA256), so unlike tokens it
 * cannot be kept as a hash: it is sealed with AES-256-GCM under a key shared by every server of the store
 * (server_secrets), so a dump of the webhooks table, a log or an error never shows it. Whoever holds the whole
 * database holds the key too: docs/security.md says so.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface SecretSeal {
  seal(secret: string): string;
  open(sealed: string): string;
}

export function secretSeal(sharedKey: string): SecretSeal {
  const key = createHash('sha256').update(`canvas-mcp webhook seal\n${sharedKey}`).digest();
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || !body || !tag) throw new Error('not a sealed webhook secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** The store's seal, made from its shared key the first time it is needed. */
export function storeSeal(store: { sharedSecret(name: string): Promise<string> }): () => Promise<SecretSeal> {
  let seal: Promise<SecretSeal> | null = null;
  return () => (seal ??= store.sharedSecret('webhook_seal').then(secretSeal));
}
