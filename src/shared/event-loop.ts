/**
 * Lets the event loop serve the I/O waiting for it (a request that arrived) before the caller goes on: how long work
 * gives others a turn. One setImmediate is not enough when called from an I/O callback (a request body, a worker's
 * answer): it runs in the same turn's check phase, before the loop polls again; the second one runs after that poll.
 */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
