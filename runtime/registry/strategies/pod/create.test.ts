// What only Pods get on create: enableServiceLinks, requests from limits,
// and the initial status with its QoS class.
import { describe, expect, it } from 'vitest';
import { defaultPodOnly, initialPodStatus, podQOSClass } from './create.ts';

const c = (resources?: object) => ({ name: 'c', image: 'x', ...(resources ? { resources } : {}) });

describe('podQOSClass', () => {
  it.each([
    ['no resources', [c()], 'BestEffort'],
    ['zero requests only', [c({ requests: { cpu: '0' } })], 'BestEffort'],
    ['other resources only', [c({ requests: { 'ephemeral-storage': '1Gi' } })], 'BestEffort'],
    ['requests only', [c({ requests: { cpu: '100m' } })], 'Burstable'],
    ['equal cpu and memory limits and requests', [c({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1Gi' } })], 'Guaranteed'],
    ['limits without requests (as stored: requests defaulted)', [c({ limits: { cpu: '1', memory: '1Gi' } })], 'Burstable'],
    ['requests below limits', [c({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } })], 'Burstable'],
    ['a zero cpu limit is no limit (Burstable, not Guaranteed)', [c({ requests: { cpu: '0', memory: '1Gi' }, limits: { cpu: '0', memory: '1Gi' } })], 'Burstable'],
    ['one container without memory limit', [c({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), c({ requests: { cpu: '1' }, limits: { cpu: '1' } })], 'Burstable'],
  ])('%s: %s', (_n, containers, want) => {
    expect(podQOSClass({ containers })).toBe(want);
  });

  it('counts limits copied into requests by the defaults as Guaranteed', () => {
    const pod: any = { spec: { containers: [c({ limits: { cpu: '1', memory: '1Gi' } })] } };
    defaultPodOnly(pod);
    expect(pod.spec.containers[0].resources.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(podQOSClass(pod.spec)).toBe('Guaranteed');
  });
});

describe('defaultPodOnly', () => {
  it.each([
    ['enableServiceLinks defaults to true', { containers: [c()] }, { enableServiceLinks: true }],
    ['an explicit false stays', { enableServiceLinks: false, containers: [c()] }, { enableServiceLinks: false }],
    [
      'requests keep what is set and take the rest from limits',
      { initContainers: [c({ requests: { cpu: '1' }, limits: { cpu: '2', memory: '1Gi' } })], containers: [] },
      { initContainers: [{ resources: { requests: { cpu: '1', memory: '1Gi' } } }] },
    ],
  ])('%s', (_n, spec, want) => {
    const pod: any = { spec };
    defaultPodOnly(pod);
    expect(pod.spec).toMatchObject(want);
  });
});

describe('initialPodStatus', () => {
  it.each([
    ['Pending, no conditions', { containers: [c()] }, { phase: 'Pending', qosClass: 'BestEffort' }],
    [
      'scheduling gates: PodScheduled False',
      { containers: [c()], schedulingGates: [{ name: 'g' }] },
      {
        phase: 'Pending',
        qosClass: 'BestEffort',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: '2026-01-02T03:04:05Z',
            reason: 'SchedulingGated',
            message: 'Scheduling is blocked due to non-empty scheduling gates',
          },
        ],
      },
    ],
  ])('%s', (_n, spec, want) => {
    expect(initialPodStatus({ spec }, () => new Date('2026-01-02T03:04:05.678Z'))).toEqual(want);
  });
});
