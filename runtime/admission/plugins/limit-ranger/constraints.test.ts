// LimitRange arithmetic: min, max and ratio checks with upstream's texts,
// pod totals, claim storage, the defaults merged into containers and the
// annotation recording them.
import { describe, expect, it } from 'vitest';
import { QuantityValue } from '../../../cel/libs/quantity-parse.ts';
import type { Obj } from '../../../storage/interface.ts';
import { parseList } from '../resource-quota/resources.ts';
import { aggregate, applyDefaults, claimViolations, maxConstraint, minConstraint, podViolations, ratioConstraint } from './constraints.ts';

const q = (s: string) => QuantityValue.parse(s);
const l = (o: Record<string, string>) => parseList(o);

describe('constraints', () => {
  const rows: [string, string | undefined, string | undefined][] = [
    ['min: no request', minConstraint('Container', 'cpu', q('100m'), l({}), l({})), 'minimum cpu usage per Container is 100m.  No request is specified'],
    ['min: request under', minConstraint('Container', 'cpu', q('100m'), l({ cpu: '50m' }), l({})), 'minimum cpu usage per Container is 100m, but request is 50m'],
    ['min: limit under', minConstraint('Container', 'cpu', q('100m'), l({ cpu: '100m' }), l({ cpu: '99m' })), 'minimum cpu usage per Container is 100m, but limit is 99m'],
    ['min: met', minConstraint('Container', 'memory', q('1Mi'), l({ memory: '1Mi' }), l({})), undefined],
    ['max: no limit', maxConstraint('Container', 'cpu', q('1'), l({ cpu: '1' }), l({})), 'maximum cpu usage per Container is 1.  No limit is specified'],
    ['max: limit over', maxConstraint('Container', 'cpu', q('1'), l({}), l({ cpu: '2' })), 'maximum cpu usage per Container is 1, but limit is 2'],
    ['max: request over', maxConstraint('Pod', 'memory', q('1Gi'), l({ memory: '2Gi' }), l({ memory: '1Gi' })), 'maximum memory usage per Pod is 1Gi, but request is 2Gi'],
    ['max: met, compared in milli-units', maxConstraint('Container', 'cpu', q('1'), l({}), l({ cpu: '1000m' })), undefined],
    ['ratio: no request', ratioConstraint('Container', 'cpu', q('2'), l({}), l({ cpu: '1' })), 'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0'],
    ['ratio: no limit', ratioConstraint('Container', 'cpu', q('2'), l({ cpu: '1' }), l({})), 'cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0'],
    ['ratio: over', ratioConstraint('Container', 'cpu', q('2'), l({ cpu: '100m' }), l({ cpu: '250m' })), 'cpu max limit to request ratio per Container is 2, but provided ratio is 2.500000'],
    ['ratio: at', ratioConstraint('Container', 'memory', q('2'), l({ memory: '1Gi' }), l({ memory: '2Gi' })), undefined],
  ];
  it.each(rows)('%s', (_n, got, want) => {
    expect(got).toBe(want);
  });
  it('aggregates as Go prints an aggregate error', () => {
    expect(aggregate([])).toBeUndefined();
    expect(aggregate(['a'])).toBe('a');
    expect(aggregate(['a', 'b', 'a'])).toBe('[a, b]');
  });
});

const lr = (...limits: Obj[]): Obj => ({ spec: { limits } });
const c = (name: string, resources?: Obj, extra: Obj = {}): Obj => ({ name, ...(resources ? { resources } : {}), ...extra });

describe('pod and claim violations', () => {
  it('checks every container and init container against Container items', () => {
    const pod = { spec: { containers: [c('a', { limits: { cpu: '2' } })], initContainers: [c('i', { limits: { cpu: '3' } })] } };
    expect(podViolations(lr({ type: 'Container', max: { cpu: '1' } }), pod)).toEqual(['maximum cpu usage per Container is 1, but limit is 2', 'maximum cpu usage per Container is 1, but limit is 3']);
  });
  it('checks the pod totals against Pod items', () => {
    const pod = { spec: { containers: [c('a', { requests: { memory: '300Mi' }, limits: { memory: '300Mi' } }), c('b', { requests: { memory: '300Mi' }, limits: { memory: '300Mi' } })] } };
    expect(podViolations(lr({ type: 'Pod', max: { memory: '512Mi' } }), pod)).toEqual(['maximum memory usage per Pod is 512Mi, but limit is 600Mi']);
    expect(podViolations(lr({ type: 'Pod', min: { memory: '512Mi' } }), pod)).toEqual([]);
  });
  it('checks a claim storage request against PersistentVolumeClaim items', () => {
    const item = { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '5Gi' } };
    expect(claimViolations(lr(item), { spec: { resources: { requests: { storage: '10Gi' } } } })).toEqual(['maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi']);
    expect(claimViolations(lr(item), { spec: { resources: { requests: { storage: '500Mi' } } } })).toEqual(['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi']);
    expect(claimViolations(lr(item), { spec: {} })).toEqual([
      'minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified',
      'maximum storage usage per PersistentVolumeClaim is 5Gi.  No request is specified',
    ]);
  });
});

describe('defaults', () => {
  it('fills what is missing and records it', () => {
    const pod: Obj = { metadata: {}, spec: { containers: [c('a', { limits: { cpu: '500m' } }), c('b', { requests: { cpu: '1' }, limits: { cpu: '1', memory: '1Gi' } })], initContainers: [c('i')] } };
    applyDefaults(lr({ type: 'Container', default: { cpu: '1', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '256Mi' } }), pod);
    expect(pod.spec.containers[0].resources).toEqual({ limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
    expect(pod.spec.containers[1].resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '256Mi' } });
    expect(pod.spec.initContainers[0].resources).toEqual({ limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
    expect(pod.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container a; memory limit for container a; memory request for container b; cpu, memory request for init container i; cpu, memory limit for init container i',
    );
  });
  it('leaves a pod that states everything, and items of other types, alone', () => {
    const pod: Obj = { metadata: {}, spec: { containers: [c('a', { requests: { cpu: '1' }, limits: { cpu: '1' } })] } };
    applyDefaults(lr({ type: 'Container', default: { cpu: '2' }, defaultRequest: { cpu: '2' } }, { type: 'Pod', max: { cpu: '4' } }), pod);
    expect(pod).toEqual({ metadata: {}, spec: { containers: [c('a', { requests: { cpu: '1' }, limits: { cpu: '1' } })] } });
  });
});
