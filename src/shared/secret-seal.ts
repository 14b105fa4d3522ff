import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets that must stay usable (a webhook's signing secret, a pending invitation's link), so unlike tokens cannot be
 * kept as a hash: sealed with AES-256-GCM under a key shared by every server of the store (server_secrets), one key
 * per purpose, so a dump of a table, a log or an error never shows them. Whoever holds the whole database holds the
 * key too: docs/security.md says so.
 */

export interface SecretSeal {
  seal(secret: string): string;
  open(sealed: string): string;
}

export function secretSeal(sharedKey: string, purpose: string): SecretSeal {
  const key = createHash('sha256').update(`canvas-mcp ${purpose}\n${sharedKey}`).digest();
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || !body || !tag) throw new Error(`not a sealed ${purpose}`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** A store's seal for one purpose, made from its shared key of that name the first time it is needed. */
export function storeSealOf(
  store: { sharedSecret(name: string): Promise<string> },
  keyName: string,
  purpose: string,
): () => Promise<SecretSeal> {
  let seal: Promise<SecretSeal> | null = null;
  return () => (seal ??= store.sharedSecret(keyName).then((key) => secretSeal(key, purpose)));
}
