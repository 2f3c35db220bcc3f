// Tests of the metric life cycle: HELP annotations, hidden metrics and the
// --show-hidden-metrics-for-version check.
import { describe, expect, it } from 'vitest';
import { annotatedHelp, disabledMetrics, isHidden, ShowHiddenMetricsError, showHiddenMetrics, type Lifecycle } from './stability.ts';

describe('metric life cycle', () => {
  const cases: [string, Lifecycle, string, boolean][] = [
    ['stable', { stability: 'STABLE' }, '[STABLE] Counts.', false],
    ['alpha', { stability: 'ALPHA' }, '[ALPHA] Counts.', false],
    ['beta', { stability: 'BETA' }, '[BETA] Counts.', false],
    ['deprecated in this release', { stability: 'ALPHA', deprecatedVersion: '1.31.0' }, '[ALPHA] (Deprecated since 1.31.0) Counts.', false],
    ['deprecated a release ago', { stability: 'ALPHA', deprecatedVersion: '1.30.0' }, '[ALPHA] (Deprecated since 1.30.0) Counts.', true],
    ['deprecated long ago', { stability: 'STABLE', deprecatedVersion: '1.28.0' }, '[STABLE] (Deprecated since 1.28.0) Counts.', true],
    ['deprecation planned for a later release', { stability: 'STABLE', deprecatedVersion: '1.34.0' }, '[STABLE] Counts.', false],
  ];
  it.each(cases)('%s', (_name, life, help, hidden) => {
    expect(annotatedHelp('Counts.', life)).toBe(help);
    expect(isHidden(life)).toBe(hidden);
  });

  it.each([
    ['', false],
    [undefined, false],
    ['1.30', true],
  ])('accepts --show-hidden-metrics-for-version=%s', (value, shown) => {
    expect(showHiddenMetrics(value)).toBe(shown);
  });

  it.each(['1.29', '1.31', '1.30.0', 'v1.30', '2.30', 'x'])('refuses --show-hidden-metrics-for-version=%s with upstream message', (value) => {
    expect(() => showHiddenMetrics(value)).toThrow(ShowHiddenMetricsError);
    expect(() => showHiddenMetrics(value)).toThrow("--show-hidden-metrics-for-version must be omitted or have the value '1.30'. Only the previous minor version is allowed");
  });

  it.each([
    [undefined, []],
    ['', []],
    ['apiserver_request_total, etcd_request_duration_seconds', ['apiserver_request_total', 'etcd_request_duration_seconds']],
  ] as [string | undefined, string[]][])('--disabled-metrics=%s', (value, want) => {
    expect(disabledMetrics(value)).toEqual(want);
  });

  it('refuses a --disabled-metrics name that is not a metric name', () => {
    expect(() => disabledMetrics('ok,not-a-name')).toThrow('--disabled-metrics must be fully qualified metric names matching "^[a-zA-Z_:][a-zA-Z0-9_:]*$", got "not-a-name"');
  });
});
