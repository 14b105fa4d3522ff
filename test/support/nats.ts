import { existsSync } from 'node:fs';
import { connect } from 'nats';

/**
 * The NATS of this machine for the feed bus tests: the shared service at 127.0.0.1:4222 (.ci/run starts it when it is
 * not running), and the `nats-server` binary for tests that need a NATS of their own to stop and start (the shared one
 * is never restarted). Tests that need either are skipped with a loud warning when it is missing, unless
 * CANVAS_MCP_REQUIRE_NATS=1 (set by .ci/run when it could start NATS), which turns the absence into a failure.
 */

export const NATS_URL = process.env.CANVAS_MCP_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const REQUIRE_NATS = process.env.CANVAS_MCP_REQUIRE_NATS === '1';

/** Whether a NATS server answers at `url` (nats://host:port) within a second. */
export async function natsAnswers(url: string): Promise<boolean> {
  try {
    const probe = await connect({ servers: url.replace(/^nats:\/\//, ''), timeout: 1_000, reconnect: false });
    await probe.close();
    return true;
  } catch {
    return false;
  }
}

export const natsAvailable = await natsAnswers(NATS_URL);
if (!natsAvailable) {
  if (REQUIRE_NATS) throw new Error(`NATS is required (CANVAS_MCP_REQUIRE_NATS=1) but ${NATS_URL} is unreachable.`);
  console.warn(`\n*** NATS at ${NATS_URL} is unreachable: the feed bus variants of these tests are SKIPPED. ***\n`);
}

/** The nats-server binary (Debian's package installs it in /usr/sbin), or null. */
export const NATS_SERVER_BINARY =
  [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(
    (path): path is string => Boolean(path) && existsSync(path!),
  ) ?? null;
