import { monitorEventLoopDelay } from 'node:perf_hooks';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { waitFor } from './wait.js';

/**
 * A raw HTTP request where fetch cannot go: repeated headers (two Authorization lines), bodies that are not valid
 * UTF-8, exact bytes.
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
  /** Milliseconds from sending to the last byte of the answer. */
  elapsedMs: number;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[] | number>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers as OutgoingHttpHeaders },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            json,
            elapsedMs: performance.now() - started,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (options.body !== undefined) request.end(options.body);
    else request.end();
  });
}

/** Polls a URL until stopped; returns each answer's status and latency. */
export function pollWhile(url: string, everyMs: number) {
  const samples: Array<{ status: number; ms: number; sentAt: number }> = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const sentAt = performance.now();
      const status = await fetch(url).then(
        (response) => response.status,
        () => 0,
      );
      samples.push({ status, ms: performance.now() - sentAt, sentAt });
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    /**
     * Resolves once a poll sent at or after `since` (a performance.now() time) has been answered: what the server does
     * right after an answer (logging, freeing a large body) is measured too.
     */
    async answeredSince(since: number): Promise<void> {
      await waitFor(async () => samples.some((sample) => sample.sentAt >= since), Boolean, 10_000, everyMs);
    },
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * How long this process's event loop was held, at most, while some work ran: the server under test runs in this
 * process, so its request handlers run on this loop (perf_hooks' monitorEventLoopDelay, 10 ms resolution). The
 * latency-budget tests hold that figure, not a wall-clock answer time: a loop held for a second by one request shows
 * here whatever else the machine runs, while a busy machine only adds its scheduling delay.
 */
export const LOOP_BUDGET_MS = 250;

export function loopDelayMonitor(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      return histogram.max / 1e6;
    },
  };
}

/**
 * Sends a request while `/healthz` of the same server is polled every 5 ms, and keeps polling until a poll sent after
 * the answer came back (what the server does right after answering counts too). Answers the response, every poll,
 * the slowest poll's latency (for the log; `npm run bench` keeps the millisecond figures), and the longest the event
 * loop was held meanwhile: the latency budget tests' measure.
 */
export async function whileHealthPolled<T>(
  baseUrl: string,
  send: () => Promise<T>,
): Promise<{ response: T; samples: Array<{ status: number; ms: number }>; slowestMs: number; loopDelayMs: number }> {
  const loop = loopDelayMonitor();
  const health = pollWhile(`${baseUrl}/healthz`, 5);
  let response: T;
  try {
    response = await send();
    await health.answeredSince(performance.now());
  } catch (error) {
    await health.stop();
    loop.stop();
    throw error;
  }
  const samples = await health.stop();
  return {
    response,
    samples,
    slowestMs: Math.max(...samples.map((sample) => sample.ms)),
    loopDelayMs: loop.stop(),
  };
}
