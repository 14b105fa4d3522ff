import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

/**
 * The SSRF rule for webhook deliveries (docs/security.md, "Webhooks"):
 * a delivery goes only to https and to public addresses, unless the operator allows private networks
 * (`--webhooks-private-network`) and the project's owner allowed them for that endpoint. Which addresses are public is
 * decided by a maintained classifier (ipaddr.js): only its `unicast` range counts, so loopback, private, link-local,
 * carrier-grade NAT, multicast, documentation and benchmarking ranges are refused, and so are the IPv6 forms that
 * carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo) and site-local
 * fec0::/10. The rule is checked when an endpoint is registered (scheme, literal addresses), at every lookup (a name
 * that later resolves to 127.0.0.1), and on every connection against the peer it actually reached, literals included.
 */

/** IPv4-compatible addresses (::a.b.c.d, deprecated), which the classifier files as unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare) || bare.includes('%')) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed.range() !== 'unicast') return true;
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE);
}

/** Why an endpoint URL is refused, or null: checked when it is registered or changed. */
export function endpointRefusal(url: string, allowPrivateNetwork: boolean): string | null {
  if (allowPrivateNetwork) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:')
    return 'must be https (or allow_private_network, for a receiver on a private network)';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost'))
    return 'names this machine; allow_private_network to deliver there';
  if (isIP(host) !== 0 && isPrivateAddress(host))
    return 'is a private, loopback or link-local address (or another reserved one); allow_private_network to deliver there';
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

const refusal = (what: string, address: string) =>
  Object.assign(new Error(`${what} ${address}, a private address (allow_private_network to deliver there)`), {
    code: 'EPRIVATE',
  });

/** A DNS lookup that refuses private addresses: undici's connector resolves with it. */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(refusal(`${hostname} resolves to`, refused.address), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * undici's connector with the rule at connect time: names resolve through publicOnlyLookup, and the connection's
 * actual peer is checked before a byte is sent (an IP literal never passes through a lookup).
 */
export function publicOnlyConnector(timeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ lookup: publicOnlyLookup, timeout: timeoutMs });
  return (options, callback) => {
    // A literal address is checked before connecting: nothing is sent to a private one, not even a handshake.
    const literal = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && isPrivateAddress(literal)) return callback(refusal('the URL names', literal), null);
    connect(options, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no connection'), null);
      const peer = socket.remoteAddress ?? '';
      if (isPrivateAddress(peer)) {
        socket.destroy();
        return callback(refusal('the connection reached', peer), null);
      }
      return callback(null, socket);
    });
  };
}

/**
 * What an owner is told about a delivery that failed before an answer: the kind of failure, in words, never the
 * socket's own message (which can name internal addresses and hosts).
 */
export function describeDeliveryFailure(error: unknown): string {
  const codes: string[] = [];
  for (let cause: unknown = error; cause && codes.length < 5; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if ((cause as { name?: unknown }).name === 'TimeoutError') codes.push('TIMEOUT');
  }
  const has = (...wanted: string[]) => codes.some((code) => wanted.includes(code));
  if (has('EPRIVATE')) return 'connection refused by the network rule: the receiver is on a private address';
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME')) return 'connection failed: the receiver’s name does not resolve';
  if (has('UND_ERR_CONNECT_TIMEOUT')) return 'connection failed: timed out connecting';
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TIMEOUT', 'ABORT_ERR'))
    return 'connection failed: the receiver did not answer in time';
  if (has('ECONNREFUSED')) return 'connection failed: connection refused';
  if (has('ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE')) return 'connection failed: the connection was closed';
  if (
    has(
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'CERT_HAS_EXPIRED',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    )
  )
    return 'connection failed: the receiver’s TLS certificate is not valid';
  if (has('EHOSTUNREACH', 'ENETUNREACH')) return 'connection failed: the receiver is unreachable';
  return 'connection failed';
}
