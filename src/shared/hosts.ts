/**
 * The DNS-rebinding defence of a server bound to loopback: a page on an attacker's name that resolves to 127.0.0.1
 * sends its own name in Host, so only loopback names are answered.
 */

export const LOOPBACK_HOSTNAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

/** Whether a request's Host header names an allowed host (null: any host is allowed). */
export function hostAllowed(host: string | undefined, allowedHostnames: readonly string[] | null): boolean {
  if (!allowedHostnames) return true;
  const hostname = hostnameOf(host);
  return hostname !== null && allowedHostnames.includes(hostname);
}
