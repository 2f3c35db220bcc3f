// Tests of one server's metrics: upstream names, HELP texts with stability
// levels, labels and buckets; registries of two servers kept apart; hidden
// metrics only when shown.
import { describe, expect, it } from 'vitest';
import { ServerMetrics } from './server-metrics.ts';
import type { RequestFacts } from './request-labels.ts';
import { parseMetrics, sampleValue, samples } from '../../test/support/metrics-text.ts';

const get: RequestFacts = {
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/p',
  method: 'GET',
  verb: 'get',
  apiGroup: '',
  apiVersion: 'v1',
  namespace: 'default',
  resource: 'pods',
  subresource: '',
  name: 'p',
};

const scrape = async (m: ServerMetrics) => parseMetrics(await m.exposition());

describe('ServerMetrics', () => {
  it('exports upstream names, HELP texts and types', async () => {
    const fams = await scrape(new ServerMetrics({ defaultMetrics: false }));
    const want: [string, string, string][] = [
      ['apiserver_request_total', 'COUNTER', '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.'],
      [
        'apiserver_request_duration_seconds',
        'HISTOGRAM',
        '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      ],
      ['apiserver_response_sizes', 'HISTOGRAM', '[STABLE] Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.'],
      ['apiserver_current_inflight_requests', 'GAUGE', '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.'],
      [
        'apiserver_longrunning_requests',
        'GAUGE',
        '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      ],
      ['apiserver_requested_deprecated_apis', 'GAUGE', '[STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.'],
      ['apiserver_storage_objects', 'GAUGE', '[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.'],
      ['apiserver_watch_events_total', 'COUNTER', '[ALPHA] Number of events sent in watch clients'],
      ['apiserver_registered_watchers', 'GAUGE', '[ALPHA] Number of currently registered watchers for a given resources'],
      ['etcd_request_duration_seconds', 'HISTOGRAM', '[ALPHA] Etcd request latency in seconds for each operation and object type.'],
      ['authentication_attempts', 'COUNTER', '[ALPHA] Counter of authenticated attempts.'],
      [
        'apiserver_admission_step_admission_duration_seconds',
        'HISTOGRAM',
        '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      ],
      [
        'apiserver_admission_controller_admission_duration_seconds',
        'HISTOGRAM',
        '[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      ],
      ['hidden_metrics_total', 'COUNTER', '[BETA] The count of hidden metrics.'],
    ];
    for (const [name, type, help] of want) {
      expect(fams.get(name), name).toMatchObject({ type, help });
    }
    expect(fams.has('process_cpu_seconds_total')).toBe(false);
  });

  it('counts requests with upstream labels, latency buckets and response sizes', async () => {
    const m = new ServerMetrics({ defaultMetrics: false });
    m.requestDone(get, new URLSearchParams(), undefined, 200, 0.003, 1500);
    m.requestDone(get, new URLSearchParams(), undefined, 200, 0.03, 20);
    m.requestDone({ ...get, verb: 'patch', method: 'PATCH' }, new URLSearchParams('dryRun=All'), 'application/apply-patch+yaml', 201, 0.1, 100);
    const fams = await scrape(m);
    const labels = { verb: 'GET', dry_run: '', group: '', version: 'v1', resource: 'pods', subresource: '', scope: 'resource', component: 'apiserver' };
    expect(sampleValue(fams, 'apiserver_request_total', { ...labels, code: '200' })).toBe(2);
    expect(sampleValue(fams, 'apiserver_request_total', { verb: 'APPLY', dry_run: 'All', code: '201' })).toBe(1);
    const buckets = (name: string, l: Record<string, string>) => samples(fams, `${name}_bucket`, l).map((b) => [b.labels!.le, b.value]);
    expect(buckets('apiserver_request_duration_seconds', labels)).toEqual([
      ...[0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60].map((le) => [String(le), le < 0.05 ? '1' : '2']),
      ['+Inf', '2'],
    ]);
    expect(sampleValue(fams, 'apiserver_request_duration_seconds_count', labels)).toBe(2);
    expect(buckets('apiserver_response_sizes', { verb: 'GET' })).toEqual([
      ['1000', '1'],
      ['10000', '2'],
      ['100000', '2'],
      ['1000000', '2'],
      ['10000000', '2'],
      ['100000000', '2'],
      ['1000000000', '2'],
      ['10000000000', '2'],
      ['+Inf', '2'],
    ]);
    // sizes only for reads
    expect(samples(fams, 'apiserver_response_sizes_count', { verb: 'APPLY' })).toEqual([]);
  });

  it('reads its gauges from the server when scraped', async () => {
    const m = new ServerMetrics({ defaultMetrics: false });
    m.setSources({
      inflight: () => ({ readOnly: 3, mutating: 1 }),
      objectCounts: async () =>
        new Map([
          ['pods', 2],
          ['deployments.apps', -1],
        ]),
    });
    const done = m.longRunningStarted({ ...get, verb: 'watch', name: '' }, undefined);
    const watch = m.watchOpened('', 'v1', 'Pod');
    watch.sent(3);
    m.deprecatedRequest({ ...get, apiGroup: 'flowcontrol.apiserver.k8s.io', apiVersion: 'v1beta3', resource: 'flowschemas' }, '1.32');
    m.authenticationAttempt('success');
    m.storeRequest('get', 'pods', 0.001);
    m.admissionPluginDone('NamespaceLifecycle', 'validate', 'CREATE', true, 0.001);
    m.admissionStepDone('validate', 'CREATE', true, 0.002);
    let fams = await scrape(m);
    expect(sampleValue(fams, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' })).toBe(3);
    expect(sampleValue(fams, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(1);
    expect(sampleValue(fams, 'apiserver_storage_objects', { resource: 'pods' })).toBe(2);
    expect(sampleValue(fams, 'apiserver_storage_objects', { resource: 'deployments.apps' })).toBe(-1);
    expect(sampleValue(fams, 'apiserver_longrunning_requests', { verb: 'WATCH', resource: 'pods', scope: 'namespace' })).toBe(1);
    expect(sampleValue(fams, 'apiserver_registered_watchers', { group: '', version: 'v1', kind: 'Pod' })).toBe(1);
    expect(sampleValue(fams, 'apiserver_watch_events_total', { kind: 'Pod' })).toBe(3);
    expect(
      sampleValue(fams, 'apiserver_requested_deprecated_apis', { group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas', subresource: '', removed_release: '1.32' }),
    ).toBe(1);
    expect(sampleValue(fams, 'authentication_attempts', { result: 'success' })).toBe(1);
    expect(sampleValue(fams, 'etcd_request_duration_seconds_count', { operation: 'get', type: 'pods' })).toBe(1);
    expect(sampleValue(fams, 'apiserver_admission_controller_admission_duration_seconds_count', { name: 'NamespaceLifecycle', type: 'validate', operation: 'CREATE', rejected: 'true' })).toBe(1);
    expect(sampleValue(fams, 'apiserver_admission_step_admission_duration_seconds_count', { type: 'validate', operation: 'CREATE', rejected: 'true' })).toBe(1);
    done();
    done();
    watch.closed();
    watch.closed();
    fams = await scrape(m);
    expect(sampleValue(fams, 'apiserver_longrunning_requests', { verb: 'WATCH' })).toBe(0);
    expect(sampleValue(fams, 'apiserver_registered_watchers', { kind: 'Pod' })).toBe(0);
  });

  it('keeps the counters of two servers apart', async () => {
    const a = new ServerMetrics({ defaultMetrics: false });
    const b = new ServerMetrics({ defaultMetrics: false });
    a.requestDone(get, new URLSearchParams(), undefined, 200, 0.001, 10);
    expect(sampleValue(await scrape(a), 'apiserver_request_total', { code: '200' })).toBe(1);
    expect(sampleValue(await scrape(b), 'apiserver_request_total', { code: '200' })).toBe(0);
  });

  it('hides apiserver_storage_db_total_size_in_bytes (deprecated in 1.28) unless hidden metrics are shown', async () => {
    const size = () => ({ endpoint: '/data/specserver.db', bytes: 4096 });
    const hidden = new ServerMetrics({ defaultMetrics: false });
    hidden.setSources({ storageSize: size });
    let fams = await scrape(hidden);
    expect(fams.has('apiserver_storage_db_total_size_in_bytes')).toBe(false);
    expect(sampleValue(fams, 'hidden_metrics_total')).toBe(1);
    const shown = new ServerMetrics({ defaultMetrics: false, showHidden: true });
    shown.setSources({ storageSize: size });
    fams = await scrape(shown);
    expect(fams.get('apiserver_storage_db_total_size_in_bytes')).toMatchObject({
      type: 'GAUGE',
      help: '[ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.',
    });
    expect(sampleValue(fams, 'apiserver_storage_db_total_size_in_bytes', { endpoint: '/data/specserver.db' })).toBe(4096);
    expect(sampleValue(fams, 'hidden_metrics_total')).toBe(0);
  });

  it("adds Node's process and nodejs metrics", async () => {
    const fams = await scrape(new ServerMetrics());
    expect(fams.has('process_cpu_seconds_total')).toBe(true);
    expect(fams.has('nodejs_heap_size_used_bytes')).toBe(true);
  });

  it('neither exports nor records disabled metrics', async () => {
    const m = new ServerMetrics({ defaultMetrics: false, disabled: ['apiserver_request_total', 'etcd_request_duration_seconds'] });
    m.requestDone(get, new URLSearchParams(), undefined, 200, 0.001, 10);
    m.storeRequest('get', 'pods', 0.001);
    const fams = await scrape(m);
    expect(fams.has('apiserver_request_total')).toBe(false);
    expect(fams.has('etcd_request_duration_seconds')).toBe(false);
    expect(sampleValue(fams, 'apiserver_request_duration_seconds_count', { verb: 'GET' })).toBe(1);
    expect(sampleValue(fams, 'disabled_metrics_total')).toBe(2);
  });
});
