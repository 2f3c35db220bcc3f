// Tests of the keyed counters and histograms: one series per key, labels
// made once, cumulative buckets with inclusive upper bounds, the text the
// registry writes.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram } from './series.ts';

describe('SeriesCounter and SeriesHistogram', () => {
  it('keeps one series per key and makes its labels once', () => {
    let made = 0;
    const c = new SeriesCounter('c_total', 'help');
    const labels = (v: string) => () => (made++, { v });
    c.inc('a', labels('a'));
    c.inc('a', labels('a'), 2);
    c.inc('b', labels('b'));
    expect(made).toBe(2);
    expect(c.get().values).toEqual([
      { labels: { v: 'a' }, value: 3 },
      { labels: { v: 'b' }, value: 1 },
    ]);
  });

  it.each([
    [0.5, [1, 1, 1, 1]],
    [1, [1, 1, 1, 1]],
    [1.5, [0, 1, 1, 1]],
    [5, [0, 0, 1, 1]],
    [6, [0, 0, 0, 1]],
  ])('puts %d into cumulative buckets %j (le 1, 2, 5, +Inf)', (value, want) => {
    const h = new SeriesHistogram('h', 'help', [1, 2, 5]);
    h.observe('k', () => ({ op: 'get' }), value);
    const buckets = h.get().values.filter((v) => v.metricName === 'h_bucket');
    expect(buckets.map((b) => b.labels.le)).toEqual(['1', '2', '5', '+Inf']);
    expect(buckets.map((b) => b.value)).toEqual(want);
    expect(h.get().values.filter((v) => v.metricName !== 'h_bucket')).toEqual([
      { metricName: 'h_sum', labels: { op: 'get' }, value },
      { metricName: 'h_count', labels: { op: 'get' }, value: 1 },
    ]);
  });

  it('is written by a prom-client registry in the text format', async () => {
    const r = new Registry();
    new SeriesCounter('c_total', '[ALPHA] Counts.').register([r]).inc('x', () => ({ result: 'success' }));
    new SeriesHistogram('h_seconds', '[STABLE] Times.', [0.1]).register([r]).observe('x', () => ({ op: 'get' }), 0.05);
    expect(await r.metrics()).toBe(
      [
        '# HELP c_total [ALPHA] Counts.',
        '# TYPE c_total counter',
        'c_total{result="success"} 1',
        '',
        '# HELP h_seconds [STABLE] Times.',
        '# TYPE h_seconds histogram',
        'h_seconds_bucket{op="get",le="0.1"} 1',
        'h_seconds_bucket{op="get",le="+Inf"} 1',
        'h_seconds_sum{op="get"} 0.05',
        'h_seconds_count{op="get"} 1',
        '',
      ].join('\n'),
    );
  });
});
