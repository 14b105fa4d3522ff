import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { ServeConfig } from '../config/index.js';
import { ConfigError } from '../config/index.js';
import { LOOPBACK_HOSTNAMES } from '../shared/hosts.js';
import type { Logger } from '../shared/logger.js';

/**
 * The HTTP(S) server people and agents reach (docs/operations.md, "Serving a team"): https from a certificate and key
 * given as files, or plain http (on loopback, or behind a reverse proxy that terminates TLS). Headers a proxy adds
 * (`X-Forwarded-*`) are believed only from the proxies `--trust-proxy` names: from anyone else they are dropped before
 * any route sees them. When people reach the server over https, every answer says so for the future (HSTS).
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'];

function readPem(path: string, setting: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError([
      `${setting}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    ]);
  }
}

/** A bare address as sockets report it (IPv4-mapped IPv6 shown as IPv4). */
const bare = (address: string | undefined) => (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

export function createListener(config: ServeConfig, handle: Handler): Server {
  const trusted = new Set(config.trustProxy.map(bare));
  const https = config.publicUrl?.startsWith('https:') || !!config.tlsCert;
  const guarded: Handler = (req, res) => {
    if (!trusted.has(bare(req.socket.remoteAddress))) for (const header of FORWARDED) delete req.headers[header];
    if (https) res.setHeader('strict-transport-security', 'max-age=31536000');
    handle(req, res);
  };
  if (config.tlsCert && config.tlsKey) {
    return createHttpsServer(
      { cert: readPem(config.tlsCert, '--tls-cert'), key: readPem(config.tlsKey, '--tls-key') },
      guarded,
    );
  }
  return createHttpServer(guarded);
}

/** Says at start what a team would trip over: a public URL others cannot trust, or one people cannot reach. */
export function warnAboutReach(config: ServeConfig, url: string, logger: Logger): void {
  const { protocol, hostname } = new URL(url);
  const loopback = LOOPBACK_HOSTNAMES.includes(hostname);
  if (protocol === 'http:' && !loopback) {
    logger.warn(
      { public_url: url },
      'the public URL is plain http on a network address: sign-in links, cookies and tokens cross the network unencrypted, and claude.ai and ChatGPT will not connect. Serve https (--tls-cert and --tls-key, or a reverse proxy: docs/operations.md, "Serving a team")',
    );
  }
}
