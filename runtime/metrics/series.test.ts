// Tests of the keyed counters and histograms: one series per key, labels
// made once, cumulative buckets with inclusive upper bounds, the text the
// registry writes.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram, SeriesPath } from './series.ts';

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

describe('SeriesPath', () => {
  it.each([
    ['the same values and flag', ['a', 'b', 'c', false], ['a', 'b', 'c', false], true],
    ['another flag', ['a', 'b', 'c', false], ['a', 'b', 'c', true], false],
    ['another first value', ['a', 'b', 'c', false], ['x', 'b', 'c', false], false],
    ['another second value', ['a', 'b', 'c', false], ['a', 'x', 'c', false], false],
    ['another third value', ['a', 'b', 'c', false], ['a', 'b', 'x', false], false],
  ] as const)('finds one series for %s: %j then %j (same: %s)', (_what, first, second, same) => {
    const h = new SeriesHistogram('h', 'help', [1]);
    const path = new SeriesPath(h);
    const find = ([a, b, c, f]: readonly [string, string, string, boolean]) =>
      path.find(
        a,
        b,
        c,
        f,
        () => `${a}\0${b}\0${c}\0${f}`,
        () => ({ a, b, c, f: String(f) }),
      );
    const s1 = find(first);
    const s2 = find(second);
    expect(s1 === s2).toBe(same);
    h.observeInto(s1, 0.5);
    h.observeInto(s2, 0.5);
    expect(
      h
        .get()
        .values.filter((v) => v.metricName === 'h_count')
        .map((v) => v.value),
    ).toEqual(same ? [2] : [1, 1]);
  });

  it('makes a series through the metric (shared with keyed look-ups) and forgets it when the metric is reset', () => {
    const h = new SeriesHistogram('h', 'help', [1]);
    const path = new SeriesPath(h);
    let keys = 0;
    const find = () =>
      path.find(
        'a',
        'b',
        '',
        true,
        () => (keys++, 'a\0b\0true'),
        () => ({ a: 'a', b: 'b' }),
      );
    const s = find();
    expect(find()).toBe(s);
    expect(keys).toBe(1);
    expect(h.entry('a\0b\0true', () => ({}))).toBe(s);
    h.reset();
    const after = find();
    expect(after).not.toBe(s);
    expect(keys).toBe(2);
    expect(h.entry('a\0b\0true', () => ({}))).toBe(after);
  });
});
