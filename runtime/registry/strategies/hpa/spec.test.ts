import { describe, expect, it } from 'vitest';
import { hpaSpecErrors, hpaStatusErrors, minReplicasLowerBound } from './spec.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };
const external = { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } };
const hpa = (spec: object) => ({ spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics: [cpu], ...spec } });

describe('hpaSpecErrors', () => {
  it.each<[string, object, number, string[]]>([
    ['valid', {}, 1, []],
    ['minReplicas absent', { minReplicas: undefined }, 1, []],
    [
      'minReplicas 0',
      { minReplicas: 0 },
      1,
      ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', 'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas'],
    ],
    ['minReplicas 0 with an External metric', { minReplicas: 0, metrics: [external] }, 1, ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']],
    ['minReplicas 0 where scaling to zero is allowed, with an External metric', { minReplicas: 0, metrics: [external] }, 0, []],
    ['minReplicas -1 where scaling to zero is allowed', { minReplicas: -1, metrics: [external] }, 0, ['spec.minReplicas: Invalid value: -1: must be greater than or equal to 0']],
    ['maxReplicas 0', { maxReplicas: 0 }, 1, ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`']],
    ['maxReplicas absent', { minReplicas: undefined, maxReplicas: undefined }, 1, ['spec.maxReplicas: Invalid value: 0: must be greater than 0']],
    ['maxReplicas below minReplicas', { minReplicas: 3, maxReplicas: 2 }, 1, ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']],
    ['scaleTargetRef absent', { scaleTargetRef: undefined }, 1, ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']],
    ['scaleTargetRef name with a slash', { scaleTargetRef: { ...ref, name: 'a/b' } }, 1, [`spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`]],
    ['a bad metric', { metrics: [{ type: 'Pods' }] }, 1, ['spec.metrics[0].pods: Required value: must populate information for the given metric source']],
    ['a bad behavior', { behavior: { scaleDown: { policies: [] } } }, 1, ['spec.behavior.scaleDown.policies: Required value: must specify at least one Policy']],
  ])('%s', (_name, spec, bound, want) => {
    expect(hpaSpecErrors(hpa(spec), bound).map(String)).toEqual(want);
  });
});

describe('minReplicasLowerBound', () => {
  it.each<[string, boolean, object | undefined, number]>([
    ['default', false, undefined, 1],
    ['scale to zero enabled', true, undefined, 0],
    ['update of an object stored with 0', false, { spec: { minReplicas: 0 } }, 0],
    ['update of an object stored with 1', false, { spec: { minReplicas: 1 } }, 1],
  ])('%s', (_name, gate, old, want) => {
    expect(minReplicasLowerBound(gate, old)).toBe(want);
  });
});

describe('hpaStatusErrors', () => {
  it.each<[string, object, string[]]>([
    ['counts', { currentReplicas: 0, desiredReplicas: 2 }, []],
    [
      'negative counts',
      { currentReplicas: -1, desiredReplicas: -2 },
      ['status.currentReplicas: Invalid value: -1: must be greater than or equal to 0', 'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0'],
    ],
  ])('%s', (_name, status, want) => {
    expect(hpaStatusErrors({ status }).map(String)).toEqual(want);
  });
});
