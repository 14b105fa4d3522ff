/**
 * The DNS-rebinding defence of a server bound to loopback: a page on an attacker's name that resolves to 127.0.0.1
 * sends its own name in Host, so only loopback names are answered.
 */

export const LOOPBACK_HOSTNAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** Host headers seen, with their host names: every request checks one, and a client sends the same few. */
const HOSTNAMES = new Map<string, string | null>();
const HOSTNAMES_KEPT = 256;

export function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  const known = HOSTNAMES.get(host);
  if (known !== undefined) return known;
  let hostname: string | null;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    hostname = null;
  }
  if (HOSTNAMES.size >= HOSTNAMES_KEPT) HOSTNAMES.clear();
  HOSTNAMES.set(host, hostname);
  return hostname;
}

/** Whether a request's Host header names an allowed host (null: any host is allowed). */
export function hostAllowed(host: string | undefined, allowedHostnames: readonly string[] | null): boolean {
  if (!allowedHostnames) return true;
  const hostname = hostnameOf(host);
  return hostname !== null && allowedHostnames.includes(hostname);
}
