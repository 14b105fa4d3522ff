import type { Metric, Registry } from 'prom-client';

/**
 * A Prometheus histogram whose labelled series count in plain numbers, exposed through the same registry and in the
 * same text as prom-client's own. prom-client's Histogram validates and hashes the label values on every observe, even
 * through a `labels()` child (about 2 µs a call here); the request-duration histograms are observed on every request,
 * so on a get_canvas call that was a measurable share of the server's CPU (docs/performance.md, "What moved since 2026-11-28").
 * A series is looked up by its label values once and then only adds.
 */

/** prom-client's default buckets, so the exposition reads as it did when prom-client's Histogram made it. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export interface HistogramSeries {
  observe(seconds: number): void;
}

interface Tally {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export interface TalliedHistogram<L extends string> {
  /** The series of these label values, made on first use. */
  series(labels: Record<L, string>): HistogramSeries;
}

export function createTalliedHistogram<L extends string>(options: {
  name: string;
  help: string;
  labelNames: readonly L[];
  registry: Registry;
  buckets?: readonly number[];
}): TalliedHistogram<L> {
  const bounds = options.buckets ?? DEFAULT_BUCKETS;
  const tallies = new Map<string, Tally>();

  function seriesOf(labels: Record<L, string>): Tally {
    const key = options.labelNames.map((name) => labels[name]).join('\u0000');
    let tally = tallies.get(key);
    if (tally === undefined) {
      const own: Record<string, string> = {};
      for (const name of options.labelNames) own[name] = labels[name];
      tally = { labels: own, counts: new Float64Array(bounds.length + 1), sum: 0, count: 0 };
      tallies.set(key, tally);
    }
    return tally;
  }

  const metric = {
    name: options.name,
    help: options.help,
    type: 'histogram',
    aggregator: 'sum',
    async get() {
      const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
      for (const tally of tallies.values()) {
        let cumulative = 0;
        bounds.forEach((bound, index) => {
          cumulative += tally.counts[index]!;
          values.push({
            labels: { le: bound, ...tally.labels },
            value: cumulative,
            metricName: `${options.name}_bucket`,
          });
        });
        values.push({
          labels: { le: '+Inf', ...tally.labels },
          value: tally.count,
          metricName: `${options.name}_bucket`,
        });
        values.push({ labels: tally.labels, value: tally.sum, metricName: `${options.name}_sum` });
        values.push({ labels: tally.labels, value: tally.count, metricName: `${options.name}_count` });
      }
      return { name: options.name, help: options.help, type: 'histogram', aggregator: 'sum', values };
    },
    reset() {
      tallies.clear();
    },
  };
  // The registry reads any metric through get() (prom-client's Registry.getMetricsAsString); its type names only
  // prom-client's own classes.
  options.registry.registerMetric(metric as unknown as Metric);

  return {
    series(labels) {
      const tally = seriesOf(labels);
      return {
        observe(seconds) {
          if (!Number.isFinite(seconds)) return;
          let index = 0;
          while (index < bounds.length && seconds > bounds[index]!) index += 1;
          tally.counts[index] = tally.counts[index]! + 1;
          tally.sum += seconds;
          tally.count += 1;
        },
      };
    },
  };
}
