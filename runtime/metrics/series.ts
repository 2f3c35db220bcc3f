// Counters and histograms for what is recorded on every request: each
// series is found by a key the caller builds from its label values (one Map
// look-up and an addition per call, its labels made once per series), and
// the registry reads them as prom-client metrics when scraped (prom-client's
// own metrics check and hash the labels object on every call).

import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

interface MetricValues {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: Sample[];
}

abstract class Series<S> {
  protected readonly series = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  /** Registers with the registries (none: recorded, never read, as a hidden or disabled metric). */
  register(registries: Registry[]): this {
    for (const r of registries) r.registerMetric(this as never);
    return this;
  }

  reset(): void {
    this.series.clear();
  }

  abstract get(): MetricValues;
}

/** A counter whose series are looked up by a key of their label values. */
export class SeriesCounter extends Series<{ labels: Labels; value: number }> {
  readonly type = 'counter';

  /** Adds `by` to the series of `key`; `labels` is called only for a new series. */
  inc(key: string, labels: () => Labels, by = 1): void {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labels(), value: 0 }));
    s.value += by;
  }

  get(): MetricValues {
    return { name: this.name, help: this.help, type: 'counter', aggregator: 'sum', values: [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value })) };
  }
}

interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

/** A histogram whose series are looked up by a key of their label values. */
export class SeriesHistogram extends Series<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    private readonly bounds: readonly number[],
  ) {
    super(name, help);
  }

  observe(key: string, labels: () => Labels, value: number): void {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labels(), counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 }));
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]) i++;
    s.counts[i]++;
    s.sum += value;
    s.count++;
  }

  get(): MetricValues {
    const values: Sample[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: i < this.bounds.length ? String(this.bounds[i]) : '+Inf' }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values };
  }
}
