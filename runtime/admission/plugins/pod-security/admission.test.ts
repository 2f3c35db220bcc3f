// PodSecurity's decisions with namespaces and pods held in memory and a
// fake clock: namespace label validation, the existing-pods warnings of a
// raised enforce level (with upstream's limits), enforce/audit/warn on pods
// and warn/audit on pod templates.

import { describe, expect, it } from 'vitest';
import type { Obj } from '../../../storage/interface.ts';
import { type Options, type Request, PodSecurityAdmission, significantPodUpdate } from './admission.ts';
import { v1 } from './api.ts';

const P = 'pod-security.kubernetes.io/';

function setup(labels: Record<string, string>, pods: Obj[] = [], opts: Options = {}) {
  const ns: Obj = { metadata: { name: 'ns', labels } };
  return new PodSecurityAdmission({ namespace: async (n) => (n === 'ns' ? ns : undefined), pods: async () => pods }, opts);
}

const pod = (name: string, spec: Obj = {}, meta: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', ...meta },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const privileged = (name: string, meta: Obj = {}) => pod(name, { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] }, meta);
const restrictedOk = (name: string) =>
  pod(name, {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
  });

const req = (over: Partial<Request>): Request => ({ operation: 'CREATE', group: '', resource: 'pods', subresource: '', namespace: 'ns', name: 'p', object: pod('p'), oldObject: null, ...over });

const nsReq = (labels: Record<string, string>, oldLabels?: Record<string, string>): Request =>
  req({
    resource: 'namespaces',
    namespace: 'ns',
    name: 'ns',
    operation: oldLabels ? 'UPDATE' : 'CREATE',
    object: { metadata: { name: 'ns', labels } },
    oldObject: oldLabels ? { metadata: { name: 'ns', labels: oldLabels } } : null,
  });

const RESTRICTED_DETAIL =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('namespaces', () => {
  it('a create with invalid labels is 422 with every bad label', async () => {
    const r = await setup({}).validate(nsReq({ [`${P}enforce`]: 'strict', [`${P}warn-version`]: 'v2' }));
    expect(r.error?.code).toBe(422);
    expect(r.error?.status()).toMatchObject({
      reason: 'Invalid',
      message:
        'Namespace "ns" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v2": must be "latest" or "v1.x"]',
      details: {
        name: 'ns',
        kind: 'Namespace',
        causes: [
          { reason: 'FieldValueInvalid', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' },
          { reason: 'FieldValueInvalid', field: 'metadata.labels[pod-security.kubernetes.io/warn-version]' },
        ],
      },
    });
  });

  it('an update keeping the same invalid labels is admitted; one making them invalid (or differently) is not', async () => {
    const psa = setup({});
    const bad = { [`${P}enforce`]: 'strict' };
    expect((await psa.validate(nsReq({ ...bad, other: 'x' }, bad))).error).toBeUndefined();
    expect((await psa.validate(nsReq(bad, {}))).error?.code).toBe(422);
    expect((await psa.validate(nsReq({ [`${P}enforce`]: 'stricter' }, bad))).error?.code).toBe(422);
  });

  it('raising enforce warns about the pods that would violate it, grouped by reasons, the first name and a count', async () => {
    const pods = [
      privileged('z1'),
      privileged('a2'),
      privileged('m3'),
      pod('solo', { hostPID: true }),
      restrictedOk('fine'),
      pod('one', { hostIPC: true, containers: [{ name: 'c', securityContext: { privileged: true } }] }),
      privileged('b4'),
    ];
    const r = await setup({}, pods).validate(nsReq({ [`${P}enforce`]: 'baseline' }, {}));
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'a2 (and 3 other pods): privileged',
      'one: host namespaces, privileged',
      'solo: host namespaces',
    ]);
    const two = await setup({}, [privileged('x'), privileged('y')]).validate(nsReq({ [`${P}enforce`]: 'restricted' }, { [`${P}enforce`]: 'baseline' }));
    expect(two.warnings).toEqual([
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
      'x (and 1 other pod): privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
  });

  it.each([
    ['enforce unchanged', { [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted' }, { [`${P}enforce`]: 'baseline' }],
    ['relaxed at the same version', { [`${P}enforce`]: 'baseline' }, { [`${P}enforce`]: 'restricted' }],
    ['set to privileged', { [`${P}enforce`]: 'privileged', [`${P}enforce-version`]: 'v1.20' }, { [`${P}enforce`]: 'restricted' }],
  ])('no pods are checked when %s', async (_n, labels, old) => {
    expect((await setup({}, [privileged('p')]).validate(nsReq(labels, old))).warnings).toEqual([]);
  });

  it('a version change at a lower level is checked', async () => {
    const r = await setup({}, [privileged('p')]).validate(nsReq({ [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.25' }, { [`${P}enforce`]: 'restricted' }));
    expect(r.warnings).toEqual(['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:v1.25"', 'p: privileged']);
  });

  it('checks at most maxPodsToCheck pods, replicas of one controller last', async () => {
    const owned = (name: string, uid: string) => privileged(name, { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }] });
    const pods = [owned('r1', 'u1'), owned('r2', 'u1'), owned('r3', 'u1'), pod('h', { hostNetwork: true }), owned('s1', 'u2')];
    const r = await setup({}, pods, { maxPodsToCheck: 3 }).validate(nsReq({ [`${P}enforce`]: 'baseline' }, {}));
    expect(r.warnings).toEqual([
      'new PodSecurity enforce level only checked against the first 3 of 5 existing pods',
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'h: host namespaces',
      'r1 (and 1 other pod): privileged',
    ]);
  });

  it('stops checking once its time is spent (a fake clock)', async () => {
    let t = 0;
    const now = () => (t += 400);
    const r = await setup({}, [privileged('a'), privileged('b'), privileged('c'), privileged('d')], { now, podCheckTimeoutMs: 1000 }).validate(nsReq({ [`${P}enforce`]: 'baseline' }, {}));
    // the clock reads 400 at the start (deadline 1400), then 800, 1200, 1600: three pods checked
    expect(r.warnings[0]).toBe('new PodSecurity enforce level only checked against the first 3 of 4 existing pods');
    expect(r.warnings.at(-1)).toBe('a (and 2 other pods): privileged');
  });

  it('a failed pod list is one warning', async () => {
    const psa = new PodSecurityAdmission({ namespace: async () => ({ metadata: { name: 'ns' } }), pods: async () => Promise.reject(new Error('boom')) });
    expect((await psa.validate(nsReq({ [`${P}enforce`]: 'baseline' }, {}))).warnings).toEqual(['failed to list pods while checking new PodSecurity enforce level']);
  });
});

describe('pods', () => {
  it('enforce refuses with 403 and the full detail; audit is an annotation', async () => {
    const r = await setup({ [`${P}enforce`]: 'restricted', [`${P}audit`]: 'restricted', [`${P}warn`]: 'restricted' }).validate(req({}));
    expect(r.error?.code).toBe(403);
    expect(r.error?.message).toBe(`pods "p" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}`);
    expect(r.error?.status().details).toEqual({ name: 'p', kind: 'pods' });
    // no warnings on a request refused anyway
    expect(r.warnings).toEqual([]);
    expect(r.auditAnnotations).toEqual({ [`${P}enforce-policy`]: 'restricted:latest', [`${P}audit-violations`]: `would violate PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}` });
  });

  it('warn: admitted with a warning', async () => {
    const r = await setup({ [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}warn-version`]: 'v1.30' }).validate(req({}));
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual([`would violate PodSecurity "restricted:v1.30": ${RESTRICTED_DETAIL}`]);
    expect(r.auditAnnotations).toEqual({ [`${P}enforce-policy`]: 'baseline:latest' });
  });

  it('a fully privileged namespace admits at once', async () => {
    const r = await setup({}).validate(req({ object: privileged('p') }));
    expect(r).toEqual({ warnings: [], auditAnnotations: { [`${P}enforce-policy`]: 'privileged:latest' } });
  });

  it('invalid labels: enforce falls back to restricted, and the parse error is an annotation', async () => {
    const r = await setup({ [`${P}enforce`]: 'bogus' }).validate(req({ object: restrictedOk('p') }));
    expect(r.error).toBeUndefined();
    expect(r.auditAnnotations[`${P}error`]).toBe(
      'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
    );
    expect((await setup({ [`${P}enforce`]: 'bogus' }).validate(req({}))).error?.code).toBe(403);
  });

  it.each(['status', 'binding', 'eviction', 'exec', 'attach', 'log', 'portforward', 'proxy'])('the %s subresource is not checked', async (sub) => {
    expect((await setup({ [`${P}enforce`]: 'baseline' }).validate(req({ subresource: sub, operation: 'UPDATE', object: privileged('p'), oldObject: pod('p') }))).error).toBeUndefined();
  });

  it('ephemeralcontainers: a container added is checked', async () => {
    const old = pod('p');
    const next = { ...old, spec: { ...old.spec, ephemeralContainers: [{ name: 'dbg', image: 'busybox', securityContext: { privileged: true } }] } };
    const r = await setup({ [`${P}enforce`]: 'baseline' }).validate(req({ subresource: 'ephemeralcontainers', operation: 'UPDATE', object: next, oldObject: old }));
    expect(r.error?.message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "dbg" must not set securityContext.privileged=true)');
  });

  it('an update that changes nothing it checks is admitted, even for a violating pod', async () => {
    const old = privileged('p');
    const next = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } };
    expect((await setup({ [`${P}enforce`]: 'baseline' }).validate(req({ operation: 'UPDATE', object: next, oldObject: old }))).error).toBeUndefined();
    const image = { ...old, spec: { containers: [{ name: 'c', image: 'nginx:2', securityContext: { privileged: true } }] } };
    expect((await setup({ [`${P}enforce`]: 'baseline' }).validate(req({ operation: 'UPDATE', object: image, oldObject: old }))).error?.code).toBe(403);
  });

  it('a namespace that cannot be found is an internal error', async () => {
    const r = await setup({ [`${P}enforce`]: 'baseline' }).validate(req({ namespace: 'gone' }));
    expect(r.error?.code).toBe(500);
    expect(r.error?.message).toBe('Internal error occurred: failed to lookup namespace "gone"');
  });
});

describe('pod templates', () => {
  const deployment = (spec: Obj) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { metadata: { labels: { a: 'b' } }, spec } } });

  it('warn and audit only: never refused', async () => {
    const r = await setup({ [`${P}enforce`]: 'restricted', [`${P}warn`]: 'baseline', [`${P}audit`]: 'baseline' }).validate(
      req({ group: 'apps', resource: 'deployments', name: 'd', object: deployment({ containers: [{ name: 'c', securityContext: { privileged: true } }] }) }),
    );
    expect(r.error).toBeUndefined();
    expect(r.warnings).toEqual(['would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)']);
    expect(r.auditAnnotations).toEqual({ [`${P}audit-violations`]: 'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)' });
  });

  it('a CronJob is read through its job template; a ReplicationController without a template is skipped', async () => {
    const psa = setup({ [`${P}warn`]: 'baseline' });
    const cj = { spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { hostNetwork: true, containers: [{ name: 'c' }] } } } } } };
    expect((await psa.validate(req({ group: 'batch', resource: 'cronjobs', object: cj }))).warnings).toEqual(['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork)']);
    expect((await psa.validate(req({ resource: 'replicationcontrollers', object: { spec: { replicas: 1 } } }))).warnings).toEqual([]);
    expect((await psa.validate(req({ resource: 'podtemplates', object: { template: { spec: { hostIPC: true, containers: [] } } } }))).warnings).toEqual([
      'would violate PodSecurity "baseline:latest": host namespaces (hostIPC)',
    ]);
  });

  it('subresources (scale, status) are not checked; a missing namespace is an audit note', async () => {
    const psa = setup({ [`${P}warn`]: 'baseline' });
    const obj = deployment({ hostPID: true, containers: [] });
    expect((await psa.validate(req({ group: 'apps', resource: 'deployments', subresource: 'status', object: obj }))).warnings).toEqual([]);
    expect(await psa.validate(req({ group: 'apps', resource: 'deployments', namespace: 'gone', object: obj }))).toEqual({
      warnings: [],
      auditAnnotations: { [`${P}error`]: 'failed to lookup namespace "gone": namespaces "gone" not found' },
    });
  });
});

describe('significantPodUpdate', () => {
  const base = pod('p', { initContainers: [{ name: 'i', image: 'a' }] });
  it.each([
    ['labels only', { ...base, metadata: { ...base.metadata, labels: { x: 'y' } } }, false],
    ['an image', { ...base, spec: { ...base.spec, initContainers: [{ name: 'i', image: 'b' }] } }, true],
    ['a container seccomp annotation', { ...base, metadata: { ...base.metadata, annotations: { 'container.seccomp.security.alpha.kubernetes.io/c': 'x' } } }, true],
    ['an ephemeral container', { ...base, spec: { ...base.spec, ephemeralContainers: [{ name: 'e', image: 'x' }] } }, true],
  ])('%s: %s', (_n, next, want) => {
    expect(significantPodUpdate(next, base)).toBe(want);
  });
});

describe('defaults and exemptions (AdmissionConfiguration)', () => {
  const exemptions = { usernames: ['admin'], runtimeClasses: ['kata'], namespaces: ['ns'] };
  const none = { usernames: [], runtimeClasses: [], namespaces: [] };
  const restricted = { [`${P}enforce`]: 'restricted' };

  it('the defaults apply to modes whose label is not set', async () => {
    const defaults = {
      enforce: { level: 'baseline' as const, version: { latest: true as const } },
      audit: { level: 'privileged' as const, version: { latest: true as const } },
      warn: { level: 'restricted' as const, version: v1(30) },
    };
    const psa = setup({}, [], { defaults });
    const r = await psa.validate(req({ object: privileged('p') }));
    expect(r.error?.message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    const ok = await psa.validate(req({ object: pod('p') }));
    expect(ok.error).toBeUndefined();
    expect(ok.warnings).toEqual([`would violate PodSecurity "restricted:v1.30": ${RESTRICTED_DETAIL}`]);
    // a label still wins over the default
    expect((await setup({ [`${P}enforce`]: 'privileged' }, [], { defaults }).validate(req({ object: privileged('p') }))).error).toBeUndefined();
  });

  it.each([
    ['namespace', { namespaces: ['ns'] }, {}, 'namespace'],
    ['user', { usernames: ['admin'] }, { username: 'admin' }, 'user'],
    ['runtime class', { runtimeClasses: ['kata'] }, {}, 'runtimeClass'],
  ])('an exempt %s admits a privileged pod unchecked, with the exempt audit annotation', async (_n, ex, over, why) => {
    const psa = setup(restricted, [], { exemptions: { ...none, ...ex } });
    const obj = pod('p', { runtimeClassName: 'kata', containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] });
    const r = await psa.validate(req({ object: obj, ...over }));
    expect(r).toEqual({ warnings: [], auditAnnotations: { [`${P}exempt`]: why } });
    // the same pod template is not warned about either
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { metadata: {}, spec: obj.spec } } };
    const w = await setup({ [`${P}warn`]: 'restricted' }, [], { exemptions: { ...none, ...ex } }).validate(req({ group: 'apps', resource: 'deployments', object: dep, ...over }));
    expect(w.warnings).toEqual([]);
    expect(w.auditAnnotations).toEqual({ [`${P}exempt`]: why });
  });

  it('another user, runtime class or namespace is checked', async () => {
    const psa = setup(restricted, [], { exemptions });
    const r = await psa.validate(req({ namespace: 'other', username: 'bob' }));
    expect(r.error?.code).toBe(500); // no namespace "other" here: checked, not exempt
    const ns2 = new PodSecurityAdmission({ namespace: async () => ({ metadata: { name: 'x', labels: restricted } }), pods: async () => [] }, { exemptions });
    expect((await ns2.validate(req({ namespace: 'x', username: 'bob', object: privileged('p') }))).error?.code).toBe(403);
  });

  it('raising the enforce level of an exempt namespace checks no pods and warns that its labels are ignored', async () => {
    const psa = setup({}, [privileged('p')], { exemptions });
    const r = await psa.validate(nsReq({ [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}audit-version`]: 'v1.20' }, {}));
    expect(r.warnings).toEqual(['namespace "ns" is exempt from Pod Security, and the policy (enforce=baseline:latest, warn=restricted:latest) will be ignored']);
    // a create through the API has no request namespace: no warning
    expect((await psa.validate({ ...nsReq({ [`${P}enforce`]: 'baseline' }), namespace: '' })).warnings).toEqual([]);
  });

  it('the namespace dry run leaves out pods of exempt runtime classes', async () => {
    const kata = pod('k', { runtimeClassName: 'kata', hostPID: true });
    const r = await setup({}, [kata, privileged('p')], { exemptions: { ...none, runtimeClasses: ['kata'] } }).validate(nsReq({ [`${P}enforce`]: 'baseline' }, {}));
    expect(r.warnings).toEqual(['existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"', 'p: privileged']);
  });
});
