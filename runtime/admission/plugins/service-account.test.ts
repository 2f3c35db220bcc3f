// ServiceAccount admission: the account a Pod runs as, the projected token
// volume and its mounts, and the account's image pull secrets.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../../registry/write-services.ts';
import type { Obj } from '../../storage/interface.ts';
import { serviceAccountPlugin, TOKEN_MOUNT_PATH, tokenVolumeSource } from './service-account.ts';

const attrs = (object: Obj, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  object,
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
  ...over,
});

const accounts: Record<string, Obj> = {
  'ns/default': { metadata: { name: 'default' } },
  'ns/quiet': { metadata: { name: 'quiet' }, automountServiceAccountToken: false },
  'ns/puller': { metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'regcred' }] },
};
const plugin = serviceAccountPlugin(
  async (ns, name) => accounts[`${ns}/${name}`],
  () => 'abcde',
);
const run = async (object: Obj, over: Partial<AdmissionAttributes> = {}) => {
  const a = attrs(structuredClone(object), over);
  await plugin.admit!(a);
  return a.object!;
};
const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: TOKEN_MOUNT_PATH };
const volume = { name: 'kube-api-access-abcde', projected: tokenVolumeSource() };

describe('ServiceAccount admission', () => {
  it('names the account: default, the named one, or the deprecated field', async () => {
    expect((await run({ spec: {} })).spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
    expect((await run({})).spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default' });
    expect((await run({ spec: { serviceAccountName: 'builder' } })).spec).toMatchObject({ serviceAccountName: 'builder', serviceAccount: 'builder' });
    expect((await run({ spec: { serviceAccount: 'old' } })).spec).toMatchObject({ serviceAccountName: 'old', serviceAccount: 'old' });
  });

  it('mounts the projected token volume into every container and init container', async () => {
    const pod = await run({
      spec: {
        initContainers: [{ name: 'i', image: 'x' }],
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'x', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
        ],
      },
    });
    expect(pod.spec.volumes).toEqual([volume]);
    expect(pod.spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(pod.spec.containers[0].volumeMounts).toEqual([mount]);
    expect(pod.spec.containers[1].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, mount]);
    expect(volume.projected.sources.map((s: Obj) => Object.keys(s)[0])).toEqual(['serviceAccountToken', 'configMap', 'downwardAPI']);
  });

  const none: [string, Obj][] = [
    ['the Pod opts out', { spec: { automountServiceAccountToken: false, containers: [{ name: 'a' }] } }],
    ['its account opts out', { spec: { serviceAccountName: 'quiet', containers: [{ name: 'a' }] } }],
    ['every container mounts something there already', { spec: { containers: [{ name: 'a', volumeMounts: [{ name: 'own', mountPath: TOKEN_MOUNT_PATH }] }] } }],
  ];
  it.each(none)('mounts nothing when %s', async (_name, object) => {
    const pod = await run(object);
    expect(pod.spec.volumes).toBeUndefined();
  });

  it("the Pod's own choice wins over its account's", async () => {
    expect((await run({ spec: { serviceAccountName: 'quiet', automountServiceAccountToken: true, containers: [{ name: 'a' }] } })).spec.volumes).toEqual([volume]);
  });

  it("copies the account's image pull secrets when the Pod names none", async () => {
    expect((await run({ spec: { serviceAccountName: 'puller', containers: [{ name: 'a' }] } })).spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect((await run({ spec: { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }], containers: [{ name: 'a' }] } })).spec.imagePullSecrets).toEqual([{ name: 'mine' }]);
  });

  it('a missing account is not refused (it may be on its way): the token is still mounted', async () => {
    expect((await run({ spec: { serviceAccountName: 'later', containers: [{ name: 'a' }] } })).spec.volumes).toEqual([volume]);
  });

  const untouched: [string, Partial<AdmissionAttributes>, Obj][] = [
    ['updates', { operation: 'UPDATE' }, { spec: {} }],
    ['other resources', { resource: 'configmaps' }, { spec: {} }],
    ['subresources', { subresource: 'status' }, { spec: {} }],
    ['mirror pods', {}, { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: {} }],
  ];
  it.each(untouched)('leaves %s alone', async (_name, over, object) => {
    expect((await run(object, over)).spec).toEqual({});
  });
});
