import { describe, expect, it } from 'vitest';
import { podSpecErrors } from './containers.ts';

const rules = { requireImage: true, restartPolicies: ['Always', 'OnFailure', 'Never'] };
const spec = (c: Record<string, any>, extra: Record<string, any> = {}) => ({ restartPolicy: 'Always', containers: [{ name: 'c', image: 'i', ...c }], ...extra });

describe('podSpecErrors', () => {
  it.each([
    ['valid', spec({}), []],
    [
      'quantity syntax',
      spec({ resources: { limits: { cpu: 'lots' } } }),
      [`spec.containers[0].resources.limits[cpu]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`],
    ],
    [
      'canonical request text',
      spec({ resources: { requests: { cpu: '1.5' }, limits: { cpu: '1000m' } } }),
      ['spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1'],
    ],
    [
      'hugepages must be equal',
      spec({ resources: { requests: { 'hugepages-2Mi': '2Mi' }, limits: { 'hugepages-2Mi': '4Mi' } } }),
      ['spec.containers[0].resources.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi'],
    ],
    [
      'extended resource needs a limit',
      spec({ resources: { requests: { 'example.com/gpu': '1' } } }),
      ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'],
    ],
    [
      'extended resource request equals limit',
      spec({ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } } }),
      ['spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2'],
    ],
    ['native prefixed resource may overcommit', spec({ resources: { requests: { 'kubernetes.io/x': '1' } } }), []],
    ['mount of an undeclared volume', spec({ volumeMounts: [{ name: 'data', mountPath: '/d' }] }), ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
    [
      'mount path required and unique',
      spec({ volumeMounts: [{ name: 'v', mountPath: '/d' }, { name: 'v', mountPath: '/d' }, { name: 'v' }] }, { volumes: [{ name: 'v', emptyDir: {} }] }),
      ['spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique', 'spec.containers[0].volumeMounts[2].mountPath: Required value'],
    ],
    ['equal is fine', spec({ resources: { requests: { memory: '1Gi' }, limits: { memory: '1024Mi' } } }), []],
    ['ephemeral duplicate', spec({}, { ephemeralContainers: [{ name: 'c', image: 'dbg' }] }), ['spec.ephemeralContainers[0].name: Duplicate value: "c"']],
    [
      'ephemeral probe',
      spec({}, { ephemeralContainers: [{ name: 'd', image: 'dbg', livenessProbe: { exec: { command: ['x'] } } }] }),
      ['spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container'],
    ],
    ['restartPolicy on a regular container', spec({ restartPolicy: 'Always' }), ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']],
    [
      'init container restartPolicy',
      spec({}, { initContainers: [{ name: 'i', image: 'x', restartPolicy: 'Never' }] }),
      ['spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
  ])('%s', (_n, s, want) => {
    expect(podSpecErrors('spec', s, rules).map(String)).toEqual(want);
  });
});
