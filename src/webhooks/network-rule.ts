import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF rule for webhook deliveries (issue 22, docs/security.md "Webhooks"): a delivery goes only to https and to
 * public addresses, unless the project's owner allowed private networks for that endpoint. The rule is checked when an
 * endpoint is registered (scheme, literal addresses) and again on every connection, against every address the name
 * resolves to (a name that later resolves to 127.0.0.1 is refused then).
 */

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
    return 'is a private, loopback or link-local address; allow_private_network to deliver there';
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that refuses private addresses: undici's connector resolves with it, so the rule holds at connect. */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) {
      const blocked = Object.assign(
        new Error(
          `${hostname} resolves to ${refused.address}, a private address (allow_private_network to deliver there)`,
        ),
        { code: 'EPRIVATE' },
      );
      return callback(blocked, []);
    }
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
