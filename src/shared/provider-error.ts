/**
 * A failure a run's provider (or a step that makes its outputs, such as signing them) reports; `retryable` failures
 * are tried again while attempts remain. In shared/ so that the steps below runs/ on the ladder can raise it too.
 */
export class ProviderError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
