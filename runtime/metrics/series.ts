// Counters and histograms for what is recorded on every request: each
// series is found by a key the caller builds from its label values (one Map
// look-up and an addition per call, its labels made once per series), and
// the registry reads them as prom-client metrics when scraped (prom-client's
// own metrics check and hash the labels object on every call). A caller
// that finds its series by other means keeps the series itself (`entry`)
// and records into it directly; a reset drops the series, so it is told
// (`onReset`) to forget what it kept. SeriesPath is such a caller for label
// values that are strings the caller holds (plugin names, steps,
// operations): it finds their series through nested maps, so a call builds
// no key string (a new string is hashed on every look-up; a held one keeps
// its hash).

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
  private readonly resetListeners: (() => void)[] = [];

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
    for (const f of this.resetListeners) f();
  }

  /** Calls `f` when the series are dropped (entries kept by callers are then no longer read). */
  onReset(f: () => void): void {
    this.resetListeners.push(f);
  }

  /** The series of `key` (made, with `labels()`, when new), for a caller that records into it directly. */
  abstract entry(key: string, labels: () => Labels): S;

  abstract get(): MetricValues;
}

/** A counter whose series are looked up by a key of their label values. */
export interface CounterEntry {
  labels: Labels;
  value: number;
}

export class SeriesCounter extends Series<CounterEntry> {
  readonly type = 'counter';

  entry(key: string, labels: () => Labels): CounterEntry {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labels(), value: 0 }));
    return s;
  }

  /** Adds `by` to the series of `key`; `labels` is called only for a new series. */
  inc(key: string, labels: () => Labels, by = 1): void {
    this.entry(key, labels).value += by;
  }

  get(): MetricValues {
    return { name: this.name, help: this.help, type: 'counter', aggregator: 'sum', values: [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value })) };
  }
}

export interface HistogramSeries {
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

  entry(key: string, labels: () => Labels): HistogramSeries {
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels: labels(), counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 }));
    return s;
  }

  observe(key: string, labels: () => Labels, value: number): void {
    this.observeInto(this.entry(key, labels), value);
  }

  /** Records `value` in a series this histogram made (`entry`). */
  observeInto(s: HistogramSeries, value: number): void {
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

/**
 * The series of one metric found by up to three label values and a flag,
 * through nested maps keyed by the caller's own strings, without a key
 * string per call; the key and labels are made once per series, when it is
 * new. Forgotten when the metric's series are reset.
 */
export class SeriesPath<S> {
  private root = new Map<string, Map<string, Map<string, [S | undefined, S | undefined]>>>();

  constructor(private readonly metric: Series<S>) {
    metric.onReset(() => this.root.clear());
  }

  /** The series of (a, b, c, flag); `key` and `labels` are called only for a series not found before. */
  find(a: string, b: string, c: string, flag: boolean, key: () => string, labels: () => Labels): S {
    let byB = this.root.get(a);
    if (!byB) this.root.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (!byC) byB.set(b, (byC = new Map()));
    let pair = byC.get(c);
    if (!pair) byC.set(c, (pair = [undefined, undefined]));
    const i = flag ? 1 : 0;
    return (pair[i] ??= this.metric.entry(key(), labels));
  }
}
