/** Polls until the predicate holds for a fresh value, or fails with the last value seen. */
export async function waitFor<T>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
  timeoutMs = 15_000,
  intervalMs = 25,
): Promise<T> {
  const started = Date.now();
  let last: T = await read();
  while (!predicate(last)) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not reached within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    last = await read();
  }
  return last;
}
