// The metrics of one server: a prom-client registry of its own (servers in
// one process never share counters) holding kube-apiserver 1.31's metrics
// under their upstream names, HELP texts, label names, buckets and
// stability levels, with the metric life cycle of stability.ts (hidden
// metrics are made but not registered unless shown). Node's process_* and
// nodejs_* metrics are prom-client's defaults, set up on the first scrape.
// The recording methods are what the request path, the store, the watch
// handler, authentication and admission call. The health checks' SLI
// metrics (/metrics/slis) are a registry of their own (slis.ts). prom-client
// is loaded through prom.ts (its default metrics on the first scrape).

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from './prom.ts';
import { annotatedHelp, isHidden, type Lifecycle } from './stability.ts';
import { dryRunLabel, reportedVerb, requestScope, type RequestFacts } from './request-labels.ts';
import { type CounterEntry, type HistogramSeries, SeriesCounter, SeriesHistogram, SeriesPath } from './series.ts';
import { SliMetrics } from './slis.ts';

/** The series one kind of request records into (ServerMetrics.requestDone), found without a key of every label. */
interface RequestSeriesSet {
  /** The series key of the label values, and of those after verb and dry_run. */
  key: string;
  rest: string;
  labels: Record<string, string>;
  duration: HistogramSeries;
  /** apiserver_request_total by response code. */
  totals: Map<number, CounterEntry>;
  sizes: HistogramSeries | undefined;
}

/** apiserver_request_duration_seconds' and etcd_request_duration_seconds' buckets. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** apiserver_response_sizes' buckets: 1000 times powers of ten, eight of them. */
export const RESPONSE_SIZE_BUCKETS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/** The admission step and controller histograms' buckets. */
export const ADMISSION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
/** The admission webhook histogram's buckets (webhooks time out at 30 s by default). */
export const WEBHOOK_ADMISSION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];

export const APISERVER_COMPONENT = 'apiserver';

export interface ServerMetricsOptions {
  /** --show-hidden-metrics-for-version was given (and valid): hidden metrics are exported too. */
  showHidden?: boolean;
  /** Export Node's process_* and nodejs_* metrics (default true). */
  defaultMetrics?: boolean;
  /** --disabled-metrics: metrics neither exported nor recorded (ahead of showing hidden ones, as upstream). */
  disabled?: string[];
}

/** What the gauges read when scraped; set once the server's parts exist. */
export interface MetricSources {
  /** The highest counts of the last second of the requests counted against --max-requests-inflight and --max-mutating-requests-inflight (the limiter's watermark). */
  inflight?: () => { readOnly: number; mutating: number };
  /** Stored objects per resource (`pods`, `deployments.apps`); a resource whose count failed is -1. */
  objectCounts?: () => Promise<Map<string, number>>;
  /** The database file and its size in bytes. */
  storageSize?: () => { endpoint: string; bytes: number } | undefined;
}

/** One open watch: count the events sent, and say when it ends. */
export interface WatchMetrics {
  sent(events: number): void;
  closed(): void;
}

export type AdmissionStep = 'admit' | 'validate';

const WATCH_LABELS = ['group', 'version', 'kind'] as const;
const LONG_RUNNING_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly showHidden: boolean;
  private readonly defaultMetrics: boolean;
  private defaultsStarted = false;
  private hiddenCount = 0;
  private readonly disabled: Set<string>;
  private sources: MetricSources = {};
  /** The health checks' SLI metrics, served on /metrics/slis. */
  readonly slis: SliMetrics;
  // what is recorded per request, per store call and per admission run (a disabled metric costs nothing)
  private readonly on: Record<string, boolean> = {};

  private readonly requestTotal;
  private readonly requestDuration;
  private readonly responseSizes;
  /** The request series found per resource and request shape (requestDone); forgotten when those metrics are reset. */
  private readonly requestSets = new Map<unknown, Map<string, RequestSeriesSet>>();
  private readonly longRunning;
  private readonly deprecatedApis;
  private readonly watchEvents;
  private readonly watchers;
  private readonly etcdDuration;
  private readonly authnAttempts;
  private readonly admissionStep;
  private readonly admissionController;
  /** The admission and store histograms' series by their label values (no key string per call). */
  private readonly admissionStepSeries: SeriesPath<HistogramSeries>;
  private readonly admissionControllerSeries: SeriesPath<HistogramSeries>;
  private readonly etcdSeries: SeriesPath<HistogramSeries>;
  private readonly webhookDuration;
  private readonly webhookRequests;
  private readonly webhookRejections;
  private readonly webhookFailOpen;
  private readonly auditRejected;
  /** The audit's counts (apiserver_audit_event_total, _level_total, _error_total), for the auditor. */
  readonly auditObserver: { event(): void; level(level: string): void; failed(plugin: string, events: number): void };

  constructor(opts: ServerMetricsOptions = {}) {
    this.showHidden = opts.showHidden ?? false;
    this.defaultMetrics = opts.defaultMetrics ?? true;
    this.disabled = new Set(opts.disabled ?? []);
    this.slis = new SliMetrics(this.disabled);
    const sources = () => this.sources;

    // labels: verb, dry_run, group, version, resource, subresource, scope, component, code
    this.requestTotal = this.seriesCounter(
      'apiserver_request_total',
      'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      { stability: 'STABLE' },
    );
    // labels: verb, dry_run, group, version, resource, subresource, scope, component
    this.requestDuration = this.seriesHistogram(
      'apiserver_request_duration_seconds',
      'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      REQUEST_DURATION_BUCKETS,
      { stability: 'STABLE' },
    );
    // labels: verb, group, version, resource, subresource, scope, component
    this.responseSizes = this.seriesHistogram(
      'apiserver_response_sizes',
      'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      RESPONSE_SIZE_BUCKETS,
      { stability: 'STABLE' },
    );
    for (const m of [this.requestTotal, this.requestDuration, this.responseSizes]) m.onReset(() => this.requestSets.clear());
    this.gauge(
      'apiserver_current_inflight_requests',
      'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      ['request_kind'],
      { stability: 'STABLE' },
      function (this: Gauge<'request_kind'>) {
        const counts = sources().inflight?.();
        if (!counts) return;
        this.set({ request_kind: 'readOnly' }, counts.readOnly);
        this.set({ request_kind: 'mutating' }, counts.mutating);
      },
    );
    this.longRunning = this.gauge(
      'apiserver_longrunning_requests',
      'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      [...LONG_RUNNING_LABELS],
      { stability: 'STABLE' },
    );
    this.deprecatedApis = this.gauge(
      'apiserver_requested_deprecated_apis',
      'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      ['group', 'version', 'resource', 'subresource', 'removed_release'],
      { stability: 'STABLE' },
    );
    this.gauge(
      'apiserver_storage_objects',
      'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      ['resource'],
      { stability: 'STABLE' },
      async function (this: Gauge<'resource'>) {
        const counts = await sources().objectCounts?.();
        if (!counts) return;
        this.reset();
        for (const [resource, n] of counts) this.set({ resource }, n);
      },
    );
    this.gauge(
      'apiserver_storage_db_total_size_in_bytes',
      'Total size of the storage database file physically allocated in bytes.',
      ['endpoint'],
      { stability: 'ALPHA', deprecatedVersion: '1.28.0' },
      function (this: Gauge<'endpoint'>) {
        const size = sources().storageSize?.();
        if (size) this.set({ endpoint: size.endpoint }, size.bytes);
      },
    );
    // added to by every watch on every write to its client: a series found by a key the watch holds
    this.watchEvents = this.seriesCounter('apiserver_watch_events_total', 'Number of events sent in watch clients', { stability: 'ALPHA' });
    this.watchers = this.gauge('apiserver_registered_watchers', 'Number of currently registered watchers for a given resources', [...WATCH_LABELS], { stability: 'ALPHA' });
    // labels: operation, type
    this.etcdDuration = this.seriesHistogram('etcd_request_duration_seconds', 'Etcd request latency in seconds for each operation and object type.', REQUEST_DURATION_BUCKETS, { stability: 'ALPHA' });
    // labels: result
    this.authnAttempts = this.seriesCounter('authentication_attempts', 'Counter of authenticated attempts.', { stability: 'ALPHA' });
    // labels: type, operation, rejected
    this.admissionStep = this.seriesHistogram(
      'apiserver_admission_step_admission_duration_seconds',
      'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      ADMISSION_BUCKETS,
      { stability: 'STABLE' },
    );
    // labels: name, type, operation, rejected
    this.admissionController = this.seriesHistogram(
      'apiserver_admission_controller_admission_duration_seconds',
      'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      ADMISSION_BUCKETS,
      { stability: 'STABLE' },
    );
    this.admissionStepSeries = new SeriesPath(this.admissionStep);
    this.admissionControllerSeries = new SeriesPath(this.admissionController);
    this.etcdSeries = new SeriesPath(this.etcdDuration);
    // labels: name, type, operation, rejected
    this.webhookDuration = this.seriesHistogram(
      'apiserver_admission_webhook_admission_duration_seconds',
      'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      WEBHOOK_ADMISSION_BUCKETS,
      { stability: 'STABLE' },
    );
    // labels: name, type, operation, code, rejected
    this.webhookRequests = this.seriesCounter(
      'apiserver_admission_webhook_request_total',
      'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      { stability: 'ALPHA' },
    );
    // labels: name, type, operation, error_type, rejection_code
    this.webhookRejections = this.seriesCounter(
      'apiserver_admission_webhook_rejection_count',
      'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      { stability: 'ALPHA' },
    );
    // labels: name, type
    this.webhookFailOpen = this.seriesCounter(
      'apiserver_admission_webhook_fail_open_count',
      'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
      {
        stability: 'ALPHA',
      },
    );
    this.auditRejected = this.counter('apiserver_audit_requests_rejected_total', 'Counter of apiserver requests rejected due to an error in audit logging backend.', [], { stability: 'ALPHA' });
    this.auditObserver = this.auditCounters();
    // component-base counts the metrics it hides
    const hidden = this.hiddenCount;
    this.counter('hidden_metrics_total', 'The count of hidden metrics.', [], { stability: 'BETA' }).inc(hidden);
    this.counter('disabled_metrics_total', 'The count of disabled metrics.', [], { stability: 'BETA' }).inc(this.disabled.size);
  }

  /** Where the scraped gauges read from. */
  setSources(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  /** The Prometheus text exposition of everything registered. */
  async exposition(): Promise<string> {
    if (this.defaultMetrics && !this.defaultsStarted) {
      this.defaultsStarted = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * One request answered: apiserver_request_total, its latency and (for
   * reads) its response size. `served` identifies the resource the request
   * reached (the same object for every request to it): its series are then
   * found through it and a short key of the verb, dry-run, scope and
   * subresource, not a key of every label built per request.
   */
  requestDone(
    info: RequestFacts,
    query: URLSearchParams,
    contentType: string | undefined,
    code: number,
    seconds: number,
    responseBytes: number | undefined,
    component = APISERVER_COMPONENT,
    served?: object,
  ): void {
    const on = this.on;
    if (!on.apiserver_request_total && !on.apiserver_request_duration_seconds && !on.apiserver_response_sizes) return;
    const verb = reportedVerb(info, contentType);
    const dryRun = dryRunLabel(query);
    const subresource = info.isResourceRequest ? info.subresource : info.path;
    const scope = requestScope(info);
    const set = this.requestSeries(
      served ?? `${info.apiGroup}\0${info.apiVersion}\0${info.resource}\0${component}`,
      `${verb}\0${dryRun}\0${scope}\0${subresource}`,
      info,
      verb,
      dryRun,
      subresource,
      scope,
      component,
    );
    if (on.apiserver_request_duration_seconds) this.requestDuration.observeInto(set.duration, seconds);
    if (on.apiserver_request_total) {
      let total = set.totals.get(code);
      if (!total) set.totals.set(code, (total = this.requestTotal.entry(`${set.key}\0${code}`, () => ({ ...set.labels, code: String(code) }))));
      total.value++;
    }
    if (on.apiserver_response_sizes && responseBytes !== undefined && (verb === 'GET' || verb === 'LIST')) {
      set.sizes ??= this.responseSizes.entry(`${verb}\0${set.rest}`, () => {
        const { dry_run: _dryRun, ...labels } = set.labels;
        return labels;
      });
      this.responseSizes.observeInto(set.sizes, responseBytes);
    }
  }

  /** The request series of one resource (or fallback key) and one verb, dry-run, scope and subresource. */
  private requestSeries(first: unknown, second: string, info: RequestFacts, verb: string, dryRun: string, subresource: string, scope: string, component: string): RequestSeriesSet {
    let byShape = this.requestSets.get(first);
    if (!byShape) this.requestSets.set(first, (byShape = new Map()));
    let set = byShape.get(second);
    if (!set) {
      const { apiGroup: group, apiVersion: version, resource } = info;
      // the key of every label value in order, as the series are keyed
      const rest = `${group}\0${version}\0${resource}\0${subresource}\0${scope}\0${component}`;
      const key = `${verb}\0${dryRun}\0${rest}`;
      const labels = { verb, dry_run: dryRun, group, version, resource, subresource, scope, component };
      set = { key, rest, labels, duration: this.requestDuration.entry(key, () => ({ ...labels })), totals: new Map(), sizes: undefined };
      byShape.set(second, set);
    }
    return set;
  }

  /** A request to a deprecated API version (apiserver_requested_deprecated_apis is set to 1). */
  deprecatedRequest(info: RequestFacts, removedRelease: string | undefined): void {
    this.deprecatedApis.set({ group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource, removed_release: removedRelease ?? '' }, 1);
  }

  /** A long-running request began (apiserver_longrunning_requests); returns the function to call when it ends. */
  longRunningStarted(info: RequestFacts, contentType: string | undefined): () => void {
    const child = this.longRunning.labels({
      verb: reportedVerb(info, contentType),
      group: info.apiGroup,
      version: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      scope: requestScope(info),
      component: APISERVER_COMPONENT,
    });
    child.inc();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      child.dec();
    };
  }

  /** A watch registered for a kind: apiserver_registered_watchers, and apiserver_watch_events_total as it sends. */
  watchOpened(group: string, version: string, kind: string): WatchMetrics {
    const labels = { group, version, kind };
    const watchers = this.watchers.labels(labels);
    const events = this.watchEvents;
    const key = `${group}/${version}/${kind}`;
    const labelsOf = () => labels;
    watchers.inc();
    let open = true;
    return {
      sent: (n) => events.inc(key, labelsOf, n),
      closed: () => {
        if (!open) return;
        open = false;
        watchers.dec();
      },
    };
  }

  /** One call to the store (etcd_request_duration_seconds): the operation and the object type (`pods`, `deployments.apps`). */
  storeRequest(operation: string, type: string, seconds: number): void {
    if (!this.on.etcd_request_duration_seconds) return;
    const series = this.etcdSeries.find(
      operation,
      type,
      '',
      false,
      () => `${operation}\0${type}`,
      () => ({ operation, type }),
    );
    this.etcdDuration.observeInto(series, seconds);
  }

  /** One authentication: `success`, `failure` (no authenticator accepted the credentials) or `error`. */
  authenticationAttempt(result: 'success' | 'failure' | 'error'): void {
    if (this.on.authentication_attempts) this.authnAttempts.inc(result, () => ({ result }));
  }

  /** One admission plugin's run of one half. */
  admissionPluginDone(name: string, step: AdmissionStep, operation: string, rejected: boolean, seconds: number): void {
    if (!this.on.apiserver_admission_controller_admission_duration_seconds) return;
    const series = this.admissionControllerSeries.find(
      name,
      step,
      operation,
      rejected,
      () => `${name}\0${step}\0${operation}\0${rejected}`,
      () => ({ name, type: step, operation, rejected: String(rejected) }),
    );
    this.admissionController.observeInto(series, seconds);
  }

  /** One half of admission as a whole. */
  admissionStepDone(step: AdmissionStep, operation: string, rejected: boolean, seconds: number): void {
    if (!this.on.apiserver_admission_step_admission_duration_seconds) return;
    const series = this.admissionStepSeries.find(
      step,
      operation,
      '',
      rejected,
      () => `${step}\0${operation}\0${rejected}`,
      () => ({ type: step, operation, rejected: String(rejected) }),
    );
    this.admissionStep.observeInto(series, seconds);
  }

  /** One admission webhook call: its latency and outcome (`admit` for mutating webhooks, `validating`), as upstream's ObserveWebhook and ObserveWebhookRejection. */
  webhookCall(name: string, type: string, operation: string, outcome: { rejected: boolean; code: number; errorType?: string }, seconds: number): void {
    const rejected = String(outcome.rejected);
    // codes over 600 are cut to 600, as upstream bounds the label
    const code = String(Math.min(outcome.code, 600));
    const key = `${name}\0${type}\0${operation}`;
    if (this.on.apiserver_admission_webhook_request_total) this.webhookRequests.inc(`${key}\0${code}\0${rejected}`, () => ({ name, type, operation, code, rejected }));
    if (this.on.apiserver_admission_webhook_admission_duration_seconds) this.webhookDuration.observe(`${key}\0${rejected}`, () => ({ name, type, operation, rejected }), seconds);
    if (outcome.errorType && this.on.apiserver_admission_webhook_rejection_count) {
      const errorType = outcome.errorType;
      this.webhookRejections.inc(`${key}\0${errorType}\0${code}`, () => ({ name, type, operation, error_type: errorType, rejection_code: code }));
    }
  }

  /** An admission webhook call that failed and was ignored (failurePolicy Ignore). */
  webhookFailedOpen(name: string, type: string): void {
    if (this.on.apiserver_admission_webhook_fail_open_count) this.webhookFailOpen.inc(`${name}\0${type}`, () => ({ name, type }));
  }

  /** A request failed because its audit event could not be stored (blocking-strict). */
  auditRequestRejected(): void {
    this.auditRejected.inc();
  }

  /** The audit's counters; per event and per request an addition to a series kept or found by its one label value. */
  private auditCounters(): ServerMetrics['auditObserver'] {
    const on = this.on;
    const events = this.seriesCounter('apiserver_audit_event_total', 'Counter of audit events generated and sent to the audit backend.', { stability: 'ALPHA' });
    // labels: level
    const levels = this.seriesCounter('apiserver_audit_level_total', 'Counter of policy levels for audit events (1 per request).', { stability: 'ALPHA' });
    // labels: plugin
    const errors = this.seriesCounter('apiserver_audit_error_total', 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.', {
      stability: 'ALPHA',
    });
    let total: CounterEntry | undefined;
    events.onReset(() => (total = undefined));
    return {
      event() {
        if (on.apiserver_audit_event_total) (total ??= events.entry('', () => ({}))).value++;
      },
      level(level) {
        if (on.apiserver_audit_level_total) levels.inc(level, () => ({ level }));
      },
      failed(plugin, n) {
        if (on.apiserver_audit_error_total) errors.inc(plugin, () => ({ plugin }), n);
      },
    };
  }

  /** Registers a metric unless it is disabled or hidden (then it records into nothing anyone reads). */
  private registers(name: string, life: Lifecycle): Registry[] {
    this.on[name] = false;
    if (this.disabled.has(name)) return [];
    if (isHidden(life) && !this.showHidden) {
      this.hiddenCount++;
      return [];
    }
    this.on[name] = true;
    return [this.registry];
  }

  private counter<T extends string>(name: string, help: string, labelNames: T[], life: Lifecycle): Counter<T> {
    return new Counter<T>({ name, help: annotatedHelp(help, life), labelNames, registers: this.registers(name, life) });
  }

  private gauge<T extends string>(name: string, help: string, labelNames: T[], life: Lifecycle, collect?: (this: Gauge<T>) => void | Promise<void>): Gauge<T> {
    return new Gauge<T>({ name, help: annotatedHelp(help, life), labelNames, registers: this.registers(name, life), ...(collect ? { collect } : {}) });
  }

  private seriesCounter(name: string, help: string, life: Lifecycle): SeriesCounter {
    return new SeriesCounter(name, annotatedHelp(help, life)).register(this.registers(name, life));
  }

  private seriesHistogram(name: string, help: string, buckets: number[], life: Lifecycle): SeriesHistogram {
    return new SeriesHistogram(name, annotatedHelp(help, life), buckets).register(this.registers(name, life));
  }

  private histogram<T extends string>(name: string, help: string, labelNames: T[], buckets: number[], life: Lifecycle): Histogram<T> {
    return new Histogram<T>({ name, help: annotatedHelp(help, life), labelNames, buckets, registers: this.registers(name, life) });
  }
}
