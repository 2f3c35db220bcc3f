// Reading /metrics in tests: the exposition parsed by a Prometheus text
// parser, and the samples of a family whose labels include the given ones.
// The parser folds a histogram's series into one unlabelled sample, so a
// histogram's `_bucket`, `_count` and `_sum` series are also read as
// families of their own (the same text parsed without the histogram's TYPE
// line), each sample with its labels.
import parsePrometheusTextFormat, { type PromFamily, type PromSample } from 'parse-prometheus-text-format';

export type { PromFamily, PromSample };

export function parseMetrics(text: string): Map<string, PromFamily> {
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  const histograms = new Set([...families.values()].filter((f) => f.type === 'HISTOGRAM').map((f) => f.name));
  if (histograms.size) {
    const untyped = text
      .split('\n')
      .filter((line) => !(line.startsWith('# TYPE ') && line.endsWith(' histogram')))
      .join('\n');
    for (const f of parsePrometheusTextFormat(untyped)) {
      const base = f.name.replace(/_(bucket|count|sum)$/, '');
      if (base === f.name || !histograms.has(base)) continue;
      // each series of a histogram is its own run of _bucket, _sum and _count lines
      const seen = families.get(f.name);
      if (seen) seen.metrics.push(...f.metrics);
      else families.set(f.name, f);
    }
  }
  return families;
}

/** The samples of `name` whose labels include `labels`. */
export function samples(families: Map<string, PromFamily>, name: string, labels: Record<string, string> = {}): PromSample[] {
  const family = families.get(name);
  if (!family) return [];
  return family.metrics.filter((m) => Object.entries(labels).every(([k, v]) => (m.labels?.[k] ?? '') === v));
}

/** The value of the one sample matching (a counter, a gauge, a histogram's `_count`), 0 when there is none. */
export function sampleValue(families: Map<string, PromFamily>, name: string, labels: Record<string, string> = {}): number {
  const found = samples(families, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  if (found.length === 0) return 0;
  return Number(found[0].value);
}
