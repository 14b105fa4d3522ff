import type * as OidcProvider from 'oidc-provider';
import type { Logger } from '../shared/logger.js';

/**
 * oidc-provider prints its notices with console.info and console.warn, and stdout carries our JSON log lines only.
 * Its lines are routed to our logger instead: the notice that it prefers Node 22 (it runs on our Node 20, which the
 * project targets; docs/security.md, "Connectors") at debug, anything else it says at warn.
 */
export async function withOidcNotices<T>(logger: Logger, work: () => Promise<T> | T): Promise<T> {
  const { info, warn } = console;
  const route =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (!text.includes('oidc-provider')) return original.apply(console, args);
      // eslint-disable-next-line no-control-regex
      const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
      if (plain.includes('Unsupported runtime'))
        logger.debug({ oidc_provider: plain }, 'oidc-provider prefers Node 22; it runs on this Node');
      else logger.warn({ oidc_provider: plain }, 'oidc-provider notice');
    };
  console.info = route(info);
  console.warn = route(warn);
  try {
    return await work();
  } finally {
    console.info = info;
    console.warn = warn;
  }
}

let loaded: Promise<typeof OidcProvider> | undefined;

/** The oidc-provider module, imported once (its import prints the runtime notice). */
export function loadOidcProvider(logger: Logger): Promise<typeof OidcProvider> {
  loaded ??= withOidcNotices(logger, () => import('oidc-provider'));
  return loaded;
}
