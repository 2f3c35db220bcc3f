import { describe, expect, it } from 'vitest';
import { defaultPodSpec, imagePullPolicyFor } from './defaults.ts';

describe('imagePullPolicyFor', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['registry:5000/app', 'Always'],
    ['registry:5000/app:v1', 'IfNotPresent'],
    ['app@sha256:abc', 'IfNotPresent'],
  ])('%s -> %s', (image, want) => {
    expect(imagePullPolicyFor(image)).toBe(want);
  });
});

describe('defaultPodSpec', () => {
  it('fills pod and container defaults, keeps what is set', () => {
    const spec: any = { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 80 }], readinessProbe: { periodSeconds: 5 } }] };
    defaultPodSpec(spec);
    expect(spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {} });
    expect(spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(spec.containers[0].readinessProbe).toEqual({ periodSeconds: 5, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
  });
});

describe('defaultPodSpec with hostNetwork', () => {
  it.each([
    ['hostPort from containerPort', true, [{ containerPort: 80 }], [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }]],
    ['a given hostPort stays', true, [{ containerPort: 80, hostPort: 8080 }], [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }]],
    ['no hostNetwork: no hostPort', false, [{ containerPort: 80 }], [{ containerPort: 80, protocol: 'TCP' }]],
  ])('%s', (_n, hostNetwork, ports, want) => {
    const spec: any = { hostNetwork, containers: [{ name: 'c', image: 'x:1', ports }], initContainers: [{ name: 'i', image: 'x:1', ports: structuredClone(ports) }] };
    defaultPodSpec(spec);
    expect(spec.containers[0].ports).toEqual(want);
    expect(spec.initContainers[0].ports).toEqual(want);
  });
});
