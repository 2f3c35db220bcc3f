// prom-client's classes, taken from their own files: its package entry
// loads its default metrics with it (their modules, @opentelemetry/api and
// node's perf_hooks: about a tenth of a server's start and several MB
// resident). The default metrics' file is loaded when asked for (the first
// scrape of /metrics).

import { createRequire } from 'node:module';
import type { Counter as CounterClass, Gauge as GaugeClass, Histogram as HistogramClass, Registry as RegistryClass, collectDefaultMetrics as CollectDefaultMetrics } from 'prom-client';

const promRequire = createRequire(import.meta.url);

export const Counter = promRequire('prom-client/lib/counter.js') as typeof CounterClass;
export const Gauge = promRequire('prom-client/lib/gauge.js') as typeof GaugeClass;
export const Histogram = promRequire('prom-client/lib/histogram.js') as typeof HistogramClass;
export const Registry = promRequire('prom-client/lib/registry.js') as typeof RegistryClass;
export type Counter<T extends string> = CounterClass<T>;
export type Gauge<T extends string> = GaugeClass<T>;
export type Histogram<T extends string> = HistogramClass<T>;
export type Registry = RegistryClass;

/** prom-client's collectDefaultMetrics, its module loaded on this first call. */
export function collectDefaultMetrics(...args: Parameters<typeof CollectDefaultMetrics>): ReturnType<typeof CollectDefaultMetrics> {
  return (promRequire('prom-client/lib/defaultMetrics.js') as typeof CollectDefaultMetrics)(...args);
}
