// End-to-end: what the default admission plugins add, as kubectl shows it
// on a real server process: a Pod made with `kubectl run` gets the
// `default` service account, its token volume and the two default
// tolerations (none with --disable-admission-plugins=DefaultTolerationSeconds,
// other seconds with --default-*-toleration-seconds); a claim created
// without a class gets the default StorageClass and the protection
// finalizer; a Node gets the not-ready taint; growing a claim whose class
// does not allow expansion is refused with upstream's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

const yamlOf = async (s: KubectlSession, args: string[]) => parse(ok(await s.k(['get', ...args, '-o', 'yaml'])));
const TOLERATIONS = [
  { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
  { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
];
const json = (o: unknown) => JSON.stringify(o);

describe('the default admission plugins through kubectl', () => {
  let defaults: KubectlSession;
  let noTolerations: KubectlSession;
  let tuned: KubectlSession;
  beforeAll(async () => {
    [defaults, noTolerations, tuned] = await Promise.all([
      kubectlSession([]),
      kubectlSession(['--disable-admission-plugins=DefaultTolerationSeconds']),
      kubectlSession(['--default-not-ready-toleration-seconds=30', '--default-unreachable-toleration-seconds', '60']),
    ]);
  });
  afterAll(async () => {
    await Promise.all([defaults?.stop(), noTolerations?.stop(), tuned?.stop()]);
  });

  it('kubectl run: serviceAccountName default, the token volume and mount, the default tolerations', async () => {
    expect(ok(await defaults.k(['run', 'web', '--image=nginx']))).toContain('pod/web created');
    const pod = await yamlOf(defaults, ['pod', 'web']);
    expect(pod.spec.serviceAccountName).toBe('default');
    const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    expect(volume.projected.sources[0].serviceAccountToken).toEqual({ expirationSeconds: 3607, path: 'token' });
    expect(pod.spec.containers[0].volumeMounts).toContainEqual({ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volume.name, readOnly: true });
    expect(pod.spec.tolerations).toEqual(TOLERATIONS);
  });

  it('--disable-admission-plugins=DefaultTolerationSeconds: no tolerations, the service account still', async () => {
    ok(await noTolerations.k(['run', 'web', '--image=nginx']));
    const pod = await yamlOf(noTolerations, ['pod', 'web']);
    expect(pod.spec.serviceAccountName).toBe('default');
    expect(pod.spec.tolerations).toBeUndefined();
  });

  it('--default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds set the seconds', async () => {
    ok(await tuned.k(['run', 'web', '--image=nginx']));
    expect(ok(await tuned.k(['get', 'pod', 'web', '-o', 'jsonpath={.spec.tolerations[*].tolerationSeconds}']))).toBe('30 60');
  });

  it('a claim without a class gets the default StorageClass and the protection finalizer', async () => {
    ok(
      await defaults.k(['apply', '-f', '-'], {
        input: json({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClass',
          metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
          provisioner: 'example.com/disk',
        }),
      }),
    );
    const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect(ok(await defaults.k(['apply', '-f', '-'], { input: json(claim) }))).toContain('persistentvolumeclaim/data created');
    const pvc = await yamlOf(defaults, ['pvc', 'data']);
    expect(pvc.spec.storageClassName).toBe('standard');
    expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(ok(await defaults.k(['get', 'pvc', 'data', '-o', 'jsonpath={.spec.storageClassName}']))).toBe('standard');
  });

  it('growing a bound claim whose class does not allow expansion is refused', async () => {
    ok(await defaults.k(['patch', 'pvc', 'data', '--subresource=status', '--type=merge', '-p', json({ status: { phase: 'Bound', capacity: { storage: '1Gi' } } })]));
    const r = await defaults.k(['patch', 'pvc', 'data', '--type=merge', '-p', json({ spec: { resources: { requests: { storage: '2Gi' } } } })]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  });

  it('a Node gets the not-ready NoSchedule taint', async () => {
    ok(await defaults.k(['apply', '-f', '-'], { input: json({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } }) }));
    expect((await yamlOf(defaults, ['node', 'worker-1'])).spec.taints).toEqual([{ effect: 'NoSchedule', key: 'node.kubernetes.io/not-ready' }]);
  });
});
