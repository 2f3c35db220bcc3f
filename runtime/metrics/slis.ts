// component-base's SLI metrics of the health checks, served on
// /metrics/slis from a registry of their own (not on /metrics): each run of
// a /livez, /readyz or /healthz check sets kubernetes_healthcheck{name,type}
// to 1 (passed) or 0 (failed) and counts kubernetes_healthchecks_total{name,
// type,status} with status `success` or `error`; the type is the endpoint
// (`livez`, `readyz`, `healthz`). Both are BETA in 1.31. A metric named in
// --disabled-metrics is neither exported nor recorded.

import { Counter, Gauge, Registry } from './prom.ts';
import { annotatedHelp } from './stability.ts';

export type HealthcheckType = 'livez' | 'readyz' | 'healthz';

export class SliMetrics {
  readonly registry = new Registry();
  private readonly healthcheck: Gauge<'name' | 'type'> | undefined;
  private readonly healthchecksTotal: Counter<'name' | 'type' | 'status'> | undefined;

  constructor(disabled: ReadonlySet<string> = new Set()) {
    const life = { stability: 'BETA' } as const;
    if (!disabled.has('kubernetes_healthcheck')) {
      this.healthcheck = new Gauge({
        name: 'kubernetes_healthcheck',
        help: annotatedHelp('This metric records the result of a single healthcheck.', life),
        labelNames: ['name', 'type'],
        registers: [this.registry],
      });
    }
    if (!disabled.has('kubernetes_healthchecks_total')) {
      this.healthchecksTotal = new Counter({
        name: 'kubernetes_healthchecks_total',
        help: annotatedHelp('This metric records the results of all healthcheck.', life),
        labelNames: ['name', 'type', 'status'],
        registers: [this.registry],
      });
    }
  }

  /** One run of a health check. */
  observe(name: string, type: HealthcheckType, passed: boolean): void {
    this.healthcheck?.set({ name, type }, passed ? 1 : 0);
    this.healthchecksTotal?.inc({ name, type, status: passed ? 'success' : 'error' });
  }

  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
