import { ProviderError, type RunProvider } from './provider.js';

/**
 * Provider messages never carry a key (docs/security.md, "Provider keys"): what a provider says
 * when it fails (an error body, an exception's text, a progress line) is kept in the run record and shown to everyone
 * who may read the canvas, and some APIs echo the credential they were sent. Every configured secret is cut out, and so
 * is anything shaped like a key, before a message is stored, shown or logged.
 */

const REDACTED = '[redacted]';

/** Shapes of keys and credentials: vendors' prefixes, authorization schemes, and `key=…` style assignments. */
const KEY_SHAPES: readonly RegExp[] = [
  /\b(?:sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{12,}/g,
  /\br8_[A-Za-z0-9]{12,}/g,
  /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/:=-]{8,}/g,
  /\b(?:Key|Token)\s+(?=[A-Za-z._~+/:=-]*\d)[A-Za-z0-9._~+/:=-]{16,}/g,
  /\b(?:api[_-]?key|apikey|access[_-]?token|secret|password|token|authorization|x-api-key)(["']?\s*[:=]\s*["']?)[^\s"',;&]{6,}/gi,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[0-9a-f]{16,}\b/gi,
  /\bAKIA[0-9A-Z]{16}\b/g,
];

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret.length >= 4) clean = clean.split(secret).join(REDACTED);
  }
  for (const shape of KEY_SHAPES) {
    clean = clean.replace(shape, (match, assignment?: unknown) =>
      typeof assignment === 'string' && match.includes(assignment)
        ? `${match.slice(0, match.indexOf(assignment) + assignment.length)}${REDACTED}`
        : REDACTED,
    );
  }
  return clean;
}

/** An error of the provider's with its message (and stack) redacted, of the same kind. */
function redactedError(error: unknown, secrets: readonly string[]): unknown {
  if (error instanceof ProviderError) {
    const clean = new ProviderError(error.code, redactSecrets(error.message, secrets), error.retryable);
    if (error.stack) clean.stack = redactSecrets(error.stack, secrets);
    return clean;
  }
  if (error instanceof Error) {
    const message = redactSecrets(error.message, secrets);
    const stack = error.stack === undefined ? undefined : redactSecrets(error.stack, secrets);
    if (message === error.message && stack === error.stack) return error;
    const clean = new Error(message);
    clean.name = error.name;
    clean.stack = stack;
    return clean;
  }
  return error;
}

/** The provider, with what it reports (failures, progress lines) redacted of these secrets and of key shapes. */
export function withRedactedMessages(provider: RunProvider, secrets: readonly string[]): RunProvider {
  const known = secrets.filter((secret) => secret.length >= 4);
  return {
    name: provider.name,
    async execute(job, context) {
      try {
        return await provider.execute(job, {
          ...context,
          progress: (percent, message) => context.progress(percent, redactSecrets(message, known)),
        });
      } catch (error) {
        throw redactedError(error, known);
      }
    },
  };
}
