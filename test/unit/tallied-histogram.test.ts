import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createTalliedHistogram } from '../../src/http/tallied-histogram.js';

const OBSERVED = [0.0001, 0.005, 0.0051, 0.3, 0.3, 2, 7, 11, 0.05];

describe('a tallied histogram', () => {
  it('exposes the same Prometheus text as prom-client’s Histogram fed the same observations', async () => {
    const reference = new Registry();
    const theirs = new Histogram({
      name: 'x_seconds',
      help: 'Time.',
      labelNames: ['tool', 'result'] as const,
      registers: [reference],
    });
    const ours = new Registry();
    const tallied = createTalliedHistogram({
      name: 'x_seconds',
      help: 'Time.',
      labelNames: ['tool', 'result'],
      registry: ours,
    });
    for (const [index, seconds] of OBSERVED.entries()) {
      const labels = { tool: index % 2 ? 'get_canvas' : 'create_canvas_node', result: 'ok' };
      theirs.observe(labels, seconds);
      tallied.series(labels).observe(seconds);
    }
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it('leaves a value that is not a number out, as it would make the sum unreadable', async () => {
    const registry = new Registry();
    const tallied = createTalliedHistogram({ name: 'y_seconds', help: 'Time.', labelNames: ['route'], registry });
    const series = tallied.series({ route: '/mcp' });
    series.observe(Number.NaN);
    series.observe(0.2);
    expect(await registry.metrics()).toContain('y_seconds_count{route="/mcp"} 1');
    expect(await registry.metrics()).toContain('y_seconds_sum{route="/mcp"} 0.2');
  });
});
