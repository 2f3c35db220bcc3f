// ServiceAccount admission: the account a Pod runs as, the projected token
// volume and its mounts, and the account's image pull secrets.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { AdmissionAttributes } from '../../registry/write-services.ts';
import type { Obj } from '../../storage/interface.ts';
import { serviceAccountPlugin, type ServiceAccountSource, TOKEN_MOUNT_PATH, tokenVolumeSource } from './service-account.ts';

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
  'ns/builder': { metadata: { name: 'builder' } },
  'ns/old': { metadata: { name: 'old' } },
};
const plugin = serviceAccountPlugin({ get: async (ns, name) => accounts[`${ns}/${name}`] }, () => 'abcde');
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

  /** The Status a half of the plugin refuses with (undefined when it admits). */
  const refusal = async (p: ReturnType<typeof serviceAccountPlugin>, half: 'admit' | 'validate', object: Obj, over: Partial<AdmissionAttributes> = {}) => {
    try {
      await p[half]!(attrs(structuredClone(object), over));
      return undefined;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return { code: err.code, reason: err.reason, message: err.message };
    }
  };
  const refused: [string, 'admit' | 'validate', Obj, Partial<AdmissionAttributes>, string][] = [
    [
      'a named account that does not exist',
      'admit',
      { spec: { serviceAccountName: 'later' } },
      {},
      'pods "p" is forbidden: error looking up service account ns/later: serviceaccount "later" not found',
    ],
    ['a missing default account', 'admit', { spec: {} }, { namespace: 'empty' }, 'pods "p" is forbidden: error looking up service account empty/default: serviceaccount "default" not found'],
    [
      'a generated name',
      'admit',
      { metadata: { generateName: 'web-' }, spec: { serviceAccountName: 'later' } },
      { name: '' },
      'pods "web-" is forbidden: error looking up service account ns/later: serviceaccount "later" not found',
    ],
    ['no name at all', 'admit', { spec: { serviceAccountName: 'later' } }, { name: '' }, 'pods "Unknown" is forbidden: error looking up service account ns/later: serviceaccount "later" not found'],
    [
      'validate: an account that does not exist',
      'validate',
      { spec: { serviceAccountName: 'later' } },
      {},
      'pods "p" is forbidden: error looking up service account ns/later: serviceaccount "later" not found',
    ],
    ['validate: no account named', 'validate', { metadata: { name: 'p' }, spec: {} }, {}, 'pods "p" is forbidden: no service account specified for pod ns/p'],
  ];
  it.each(refused)("refuses %s with 403 and upstream's message", async (_name, half, object, over, message) => {
    expect(await refusal(plugin, half, object, over)).toEqual({ code: 403, reason: 'Forbidden', message });
  });

  it('validate admits a Pod whose account exists', async () => {
    expect(await refusal(plugin, 'validate', { spec: { serviceAccountName: 'puller' } })).toBeUndefined();
  });

  it('a lookup that fails is refused with its message, as upstream', async () => {
    const failing = serviceAccountPlugin({
      get: async () => {
        throw new ApiError(500, 'InternalError', 'storage is closed');
      },
    });
    expect(await refusal(failing, 'admit', { spec: {} })).toEqual({ code: 403, reason: 'Forbidden', message: 'pods "p" is forbidden: error looking up service account ns/default: storage is closed' });
  });

  describe('waiting for the default account the controller is about to create', () => {
    const waiting = (appears: Obj | undefined) => {
      const asked: string[] = [];
      const source: ServiceAccountSource = {
        get: async () => undefined,
        awaitCreated: async (ns, name) => {
          asked.push(`${ns}/${name}`);
          return appears;
        },
      };
      return { plugin: serviceAccountPlugin(source, () => 'abcde'), asked };
    };
    it('admits the Pod once the account appears, with what the account says', async () => {
      const { plugin: p, asked } = waiting({ metadata: { name: 'default' }, automountServiceAccountToken: false });
      const a = attrs({ spec: { containers: [{ name: 'a' }] } });
      await p.admit!(a);
      expect(asked).toEqual(['ns/default']);
      expect(a.object!.spec.volumes).toBeUndefined();
    });
    it('refuses when it does not appear in time', async () => {
      const { plugin: p } = waiting(undefined);
      expect((await refusal(p, 'admit', { spec: {} }))?.message).toBe('pods "p" is forbidden: error looking up service account ns/default: serviceaccount "default" not found');
    });
    it('only `default` is waited for: a named account is refused at once', async () => {
      const { plugin: p, asked } = waiting({ metadata: { name: 'x' } });
      expect((await refusal(p, 'admit', { spec: { serviceAccountName: 'builder' } }))?.code).toBe(403);
      expect(asked).toEqual([]);
    });
  });

  const untouched: [string, Partial<AdmissionAttributes>, Obj][] = [
    ['updates', { operation: 'UPDATE' }, { spec: {} }],
    ['other resources', { resource: 'configmaps' }, { spec: {} }],
    ['subresources', { subresource: 'status' }, { spec: {} }],
    ['mirror pods', {}, { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: {} }],
  ];
  it.each(untouched)('leaves %s alone', async (_name, over, object) => {
    expect((await run(object, over)).spec).toEqual({});
    expect(await refusal(plugin, 'validate', object, { ...over, namespace: 'empty' })).toBeUndefined();
  });
});
