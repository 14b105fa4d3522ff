import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ERROR_CODE_NAMES, RunOperation } from '../contract/index.js';
import type { RequestOutcome } from './request-outcome.js';
import { createTalliedHistogram, type HistogramSeries } from './tallied-histogram.js';
import type { FeedHub } from '../backend/feed/feed-hub.js';
import type { McpOutcome } from '../mcp/request-outcome.js';
import type { Logger } from '../shared/logger.js';
import { SIGNAL_KINDS } from '../store/feed-bus/index.js';
import type { Store } from '../store/store.js';

/**
 * The service's Prometheus metrics (docs/operations.md, "Metrics"), one registry per server. Every label takes its
 * values from a closed set (route templates, our error codes, known tools, HTTP methods), so the number of series
 * stays bounded whatever clients send. Store-wide figures (runs in flight, the queue) are read from the database
 * when scraped, so every process reports the same numbers for them.
 */

export interface ServiceMetricsOptions {
  /** Backend mode: the store, its change feed and the run engine's provider names. Null in gateway mode. */
  store: Store | null;
  feed: FeedHub | null;
  providerOf: ((operation: RunOperation) => string) | null;
  /** Tools that may appear as a label; any other name is counted as '(unknown)'. */
  tools: readonly string[];
  logger: Logger;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ERROR_CODES = new Set<string>(ERROR_CODE_NAMES);
const WRITER_WAIT_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const methodLabel = (method: string) => (METHODS.has(method) ? method : 'other');
const errorCodeLabel = (code: string | null) => (code === null ? '' : ERROR_CODES.has(code) ? code : 'other');

export function createServiceMetrics(options: ServiceMetricsOptions) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const tools = new Set(options.tools);
  const { store } = options;

  // Every /mcp request counts and times itself in plain numbers (a series looked up once by its key, then only
  // added to): prom-client hashes the label values on every inc and observe, which was a measurable share of a
  // get_canvas call's CPU (docs/performance.md, "What moved since 2026-11-28"). The counts reach prom-client's counters when scraped.
  const mcpRequests = pendingCounts();
  const toolCallCounts = pendingCounts();
  const requests = new Counter({
    name: 'canvas_mcp_http_requests_total',
    help: 'HTTP requests answered, by method, route template, status and error code ("" when none).',
    labelNames: ['method', 'route', 'status', 'error_code'] as const,
    registers,
    collect() {
      mcpRequests.addTo(this);
    },
  });
  const requestSeconds = createTalliedHistogram({
    name: 'canvas_mcp_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to the response headers of a change feed), by method and route template.',
    labelNames: ['method', 'route'],
    registry,
  });
  new Counter({
    name: 'canvas_mcp_tool_calls_total',
    help: 'MCP tools/call requests, by tool, result (ok, tool_error, rpc_error, refused) and error code.',
    labelNames: ['tool', 'result', 'error_code'] as const,
    registers,
    collect() {
      toolCallCounts.addTo(this);
    },
  });
  const toolSeconds = createTalliedHistogram({
    name: 'canvas_mcp_tool_call_duration_seconds',
    help: 'Time to answer an MCP tools/call request, by tool and result.',
    labelNames: ['tool', 'result'],
    registry,
  });
  const mcpRequestSeconds = requestSeconds.series({ method: 'POST', route: '/mcp' });
  const toolSecondsOf = new Map<string, HistogramSeries>();
  const conflicts = new Counter({
    name: 'canvas_mcp_revision_conflicts_total',
    help: 'Writes refused with revision_conflict (a stale base_revision), by where they came in (rest, mcp).',
    labelNames: ['via'] as const,
    registers,
  });
  const runsFinished = new Counter({
    name: 'canvas_mcp_node_runs_finished_total',
    help: "Node run outcomes recorded by this process's workers, by status (retry: queued again), operation and provider.",
    labelNames: ['status', 'operation', 'provider'] as const,
    registers,
  });

  if (store) {
    // One read per scrape feeds the four gauges below: prom-client collects them concurrently, so they share it.
    let pending: Promise<void> | null = null;
    const readStore = (): Promise<void> =>
      (pending ??= (async () => {
        try {
          const [runs, queue] = await Promise.all([store.metrics.activeRuns(), store.metrics.runQueue()]);
          activeRuns.reset();
          for (const row of runs) {
            const operation = RunOperation.safeParse(row.operation);
            const provider = operation.success && options.providerOf ? options.providerOf(operation.data) : 'unknown';
            activeRuns.inc(
              { status: row.status, operation: operation.success ? operation.data : 'other', provider },
              row.count,
            );
          }
          queueDepth.set(queue.depth);
          oldestQueued.set(queue.oldestQueuedAt === null ? 0 : Math.max(0, (Date.now() - queue.oldestQueuedAt) / 1000));
          storeUp.set(1);
        } catch (error) {
          options.logger.warn({ err: error }, 'metrics: the store did not answer');
          storeUp.set(0);
        }
      })().finally(() => {
        pending = null;
      }));
    const activeRuns = new Gauge({
      name: 'canvas_mcp_node_runs',
      help: 'Node runs in flight on the store (every process), by status, operation and provider.',
      labelNames: ['status', 'operation', 'provider'] as const,
      registers,
      collect: readStore,
    });
    const queueDepth = new Gauge({
      name: 'canvas_mcp_run_queue_depth',
      help: 'Queued node runs on the store.',
      registers,
      collect: readStore,
    });
    const oldestQueued = new Gauge({
      name: 'canvas_mcp_run_queue_oldest_age_seconds',
      help: 'Age of the oldest queued node run (0 when none is queued).',
      registers,
      collect: readStore,
    });
    const storeUp = new Gauge({
      name: 'canvas_mcp_store_up',
      help: '1 when the store answered this scrape, else 0.',
      registers,
      collect: readStore,
    });

    new Gauge({
      name: 'canvas_mcp_db_pool_connections',
      help: 'PostgreSQL pool of this process: connections open (total), idle, and callers waiting for one (waiting).',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = store.metrics.pool();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    if (store.dialect === 'sqlite') {
      const writerWait = new Histogram({
        name: 'canvas_mcp_sqlite_writer_wait_seconds',
        help: "How long each SQLite write waited for the writer: this process's queue, then the file's write lock.",
        buckets: WRITER_WAIT_BUCKETS,
        registers,
      });
      store.metrics.onWriterWait((seconds) => writerWait.observe(seconds));
    }
  }

  if (store?.dialect === 'postgres' && !store.bus) {
    // NOTIFY reaches every listening process: deliveries per write grow with the processes (the bus's own counts are
    // canvas_mcp_feed_bus_messages_total).
    const seen = new Map<string, number>();
    const notifications: Counter<string> = new Counter({
      name: 'canvas_mcp_store_notifications_received_total',
      help: 'PostgreSQL notifications (LISTEN/NOTIFY) this process received, by channel.',
      labelNames: ['channel'] as const,
      registers,
      collect() {
        for (const [channel, total] of Object.entries(store.metrics.notificationsReceived())) {
          const delta = total - (seen.get(channel) ?? 0);
          seen.set(channel, total);
          if (delta > 0) notifications.inc({ channel }, delta);
        }
      },
    });
  }

  if (store?.bus) {
    const bus = store.bus;
    new Gauge({
      name: 'canvas_mcp_feed_bus_up',
      help: '1 while this process is connected to the feed bus (--feed-bus), else 0 (feeds then poll the store).',
      registers,
      collect() {
        this.set(bus.isUp() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'canvas_mcp_feed_bus_subscriptions',
      help: 'Feed bus subjects this process follows: its open canvases, and the process-wide ones.',
      registers,
      collect() {
        this.set(bus.stats().subscriptions);
      },
    });
    // The bus counts for itself: each scrape moves a counter on by what the bus counted since the last scrape.
    const following = (counter: () => Counter<string>) => {
      const seen = new Map<string, number>();
      return (labels: Record<string, string>, total: number) => {
        const key = JSON.stringify(labels);
        const delta = total - (seen.get(key) ?? 0);
        seen.set(key, total);
        if (delta > 0) counter().inc(labels, delta);
      };
    };
    const outages: Counter<string> = new Counter({
      name: 'canvas_mcp_feed_bus_outages_total',
      help: 'Times the feed bus went away (or could not be reached at start); feeds poll the store meanwhile.',
      registers,
      collect: () => countOutages({}, bus.stats().outages),
    });
    const countOutages = following(() => outages);
    const messages: Counter<string> = new Counter({
      name: 'canvas_mcp_feed_bus_messages_total',
      help: 'Signals this process published to, received from and could not hand to the feed bus (dropped), by kind.',
      labelNames: ['direction', 'kind'] as const,
      registers,
      collect() {
        const stats = bus.stats();
        for (const kind of SIGNAL_KINDS) {
          countMessages({ direction: 'published', kind }, stats.published[kind]);
          countMessages({ direction: 'received', kind }, stats.received[kind]);
        }
        countMessages({ direction: 'dropped', kind: 'any' }, stats.dropped);
      },
    });
    const countMessages = following(() => messages);
  }

  if (options.feed) {
    const feed = options.feed;
    new Gauge({
      name: 'canvas_mcp_feed_subscribers',
      help: 'Change feed subscribers connected to this process.',
      registers,
      collect() {
        this.set(feed.subscriberCount());
      },
    });
  }

  return {
    registry,

    /** A request the backend's REST API answered. */
    observeRequest(outcome: RequestOutcome): void {
      const method = methodLabel(outcome.method);
      requests.inc({
        method,
        route: outcome.route,
        status: String(outcome.status),
        error_code: errorCodeLabel(outcome.errorCode),
      });
      requestSeconds.series({ method, route: outcome.route }).observe(outcome.seconds);
      if (outcome.errorCode === 'revision_conflict') conflicts.inc({ via: 'rest' });
    },

    /** A request the MCP endpoint answered. */
    observeMcp(outcome: McpOutcome): void {
      const errorCode = errorCodeLabel(outcome.errorCode);
      const status = String(outcome.status);
      mcpRequests.count(`${status}\u0000${errorCode}`, () => ({
        method: 'POST',
        route: '/mcp',
        status,
        error_code: errorCode,
      }));
      mcpRequestSeconds.observe(outcome.seconds);
      if (outcome.rpcMethod !== 'tools/call') return;
      const tool = outcome.tool !== null && tools.has(outcome.tool) ? outcome.tool : '(unknown)';
      const { result } = outcome;
      toolCallCounts.count(`${tool}\u0000${result}\u0000${errorCode}`, () => ({ tool, result, error_code: errorCode }));
      const secondsKey = `${tool}\u0000${result}`;
      let seconds = toolSecondsOf.get(secondsKey);
      if (seconds === undefined) {
        seconds = toolSeconds.series({ tool, result });
        toolSecondsOf.set(secondsKey, seconds);
      }
      seconds.observe(outcome.seconds);
      if (outcome.errorCode === 'revision_conflict') conflicts.inc({ via: 'mcp' });
    },

    /** A run outcome this process's workers recorded. */
    observeRunFinished(run: { status: string; operation: string; provider: string }): void {
      runsFinished.inc({ status: run.status, operation: run.operation, provider: run.provider });
    },

    /** Stops hearing the store (the server is closing). */
    close(): void {
      store?.metrics.onWriterWait(null);
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;

/**
 * Counts of a labelled counter kept in plain numbers by a key of their label values, and moved onto the counter when it
 * is scraped (from its collect()).
 */
function pendingCounts() {
  const series = new Map<string, { labels: Record<string, string>; pending: number }>();
  return {
    count(key: string, labels: () => Record<string, string>): void {
      const known = series.get(key);
      if (known) known.pending += 1;
      else series.set(key, { labels: labels(), pending: 1 });
    },
    addTo(counter: Counter<string>): void {
      for (const entry of series.values()) {
        if (entry.pending === 0) continue;
        counter.inc(entry.labels, entry.pending);
        entry.pending = 0;
      }
    },
  };
}
