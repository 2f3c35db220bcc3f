// DaemonSet rules and Pod volume rules wherever a PodSpec appears (Pod,
// DaemonSet, Deployment, CronJob), one row per rule; PodSpec and workload
// defaults.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

let n = 0;
const uniq = (p: string) => `${p}-${++n}`;
const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const container = { name: 'c', image: 'nginx:1.25' };

function ds(spec: Record<string, any> = {}, podSpec: Record<string, any> = {}, name = uniq('ds')) {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container], ...podSpec } },
      ...spec,
    },
  };
}

function expect422(r: { code: number; body: any }, field: string, msg: string) {
  expect(r.code, JSON.stringify(r.body)).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(
    causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
    causeMessages(r).join('\n'),
  ).toBe(true);
}

describe('DaemonSet', () => {
  it('defaults', async () => {
    const r = await call(s, 'POST', DS, ds());
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(r.body.spec.revisionHistoryLimit).toBe(10);
    const pod = r.body.spec.template.spec;
    expect(pod).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30 });
    // container defaults apply in templates too, as upstream
    expect(pod.containers[0]).toEqual({ ...container, imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
  });

  const rows: [string, Record<string, any>, Record<string, any>, string, string][] = [
    ['selector required', { selector: undefined }, {}, 'spec.selector', 'Required value'],
    [
      'empty selector',
      { selector: {} },
      {},
      'spec.selector',
      'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
    ],
    [
      'selector does not match',
      { selector: { matchLabels: { app: 'other' } } },
      {},
      'spec.template.metadata.labels',
      'Invalid value: map[string]string{"app":"d"}: `selector` does not match template `labels`',
    ],
    [
      'selector operator',
      { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['d'] }] } },
      {},
      'spec.selector.matchExpressions[0].operator',
      'Invalid value: "Near": not a valid selector operator',
    ],
    ['restartPolicy Never', {}, { restartPolicy: 'Never' }, 'spec.template.spec.restartPolicy', 'Unsupported value: "Never": supported values: "Always"'],
    ['activeDeadlineSeconds', {}, { activeDeadlineSeconds: 5 }, 'spec.template.spec.activeDeadlineSeconds', 'Forbidden: activeDeadlineSeconds in DaemonSet is not Supported'],
    [
      'both zero',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
      {},
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    ],
    [
      'percent syntax',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10 percent' } } },
      {},
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'Invalid value: "10 percent": a valid percent string',
    ],
    [
      'percent over 100',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '150%' } } },
      {},
      'spec.updateStrategy.rollingUpdate.maxSurge',
      'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ],
    [
      'negative maxUnavailable',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: -1 } } },
      {},
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'Invalid value: -1: must be greater than or equal to 0',
    ],
    ['strategy type', { updateStrategy: { type: 'Rolling' } }, {}, 'spec.updateStrategy.type', 'Unsupported value: "Rolling": supported values: "OnDelete", "RollingUpdate"'],
    ['negative minReadySeconds', { minReadySeconds: -1 }, {}, 'spec.minReadySeconds', 'Invalid value: -1: must be greater than or equal to 0'],
    ['negative revisionHistoryLimit', { revisionHistoryLimit: -2 }, {}, 'spec.revisionHistoryLimit', 'Invalid value: -2: must be greater than or equal to 0'],
  ];
  it.each(rows)('%s', async (_n, spec, podSpec, field, msg) => {
    const body = ds(spec, podSpec);
    if ('selector' in spec && spec.selector === undefined) delete (body.spec as any).selector;
    expect422(await call(s, 'POST', DS, body), field, msg);
  });

  it('valid: OnDelete and percentages', async () => {
    expect((await call(s, 'POST', DS, ds({ updateStrategy: { type: 'OnDelete' } }))).code).toBe(201);
    expect((await call(s, 'POST', DS, ds({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%', maxSurge: '20%' } } }))).code).toBe(201);
  });

  it('selector is immutable; status goes through /status with non-negative counts', async () => {
    const c = (await call(s, 'POST', DS, ds({}, {}, 'fixed'))).body;
    const sel = { matchLabels: { app: 'd', tier: 'x' } };
    const r = await call(s, 'PUT', `${DS}/fixed`, { ...c, spec: { ...c.spec, selector: sel, template: { ...c.spec.template, metadata: { labels: { app: 'd', tier: 'x' } } } } });
    expect422(r, 'spec.selector', 'Invalid value');
    expect(causeMessages(r).some((m) => m.endsWith('field is immutable'))).toBe(true);
    const st = await call(s, 'PUT', `${DS}/fixed/status`, { ...c, status: { currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1 } });
    expect(st.code).toBe(200);
    expect(st.body.status.numberReady).toBe(1);
    expect422(await call(s, 'PUT', `${DS}/fixed/status`, { ...st.body, status: { ...st.body.status, numberReady: -1 } }), 'status.numberReady', 'Invalid value: -1');
    const main = await call(s, 'PUT', `${DS}/fixed`, { ...st.body, status: { numberReady: 9 } });
    expect(main.body.status.numberReady).toBe(1);
  });
});

describe('Pod volumes', () => {
  const POD = '/api/v1/namespaces/default/pods';
  const pod = (volumes: unknown[]) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: uniq('pod') }, spec: { containers: [container], volumes } });
  const rows: [string, unknown[], string, string][] = [
    ['name required', [{ emptyDir: {} }], 'spec.volumes[0].name', 'Required value'],
    ['name syntax', [{ name: 'Bad_Name', emptyDir: {} }], 'spec.volumes[0].name', 'Invalid value: "Bad_Name"'],
    [
      'duplicate name',
      [
        { name: 'v', emptyDir: {} },
        { name: 'v', emptyDir: {} },
      ],
      'spec.volumes[1].name',
      'Duplicate value: "v"',
    ],
    ['two sources', [{ name: 'v', emptyDir: {}, configMap: { name: 'c' } }], 'spec.volumes[0].configMap', 'Forbidden: may not specify more than 1 volume type'],
    [
      'defaultMode too big',
      [{ name: 'v', secret: { secretName: 's', defaultMode: 0o1000 } }],
      'spec.volumes[0].secret.defaultMode',
      'Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive',
    ],
    [
      'defaultMode negative',
      [{ name: 'v', configMap: { name: 'c', defaultMode: -1 } }],
      'spec.volumes[0].configMap.defaultMode',
      'Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive',
    ],
    ['item mode', [{ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: 'p', mode: 0o777 + 1 }] } }], 'spec.volumes[0].configMap.items[0].mode', 'Invalid value: 512'],
    ['secretName required', [{ name: 'v', secret: {} }], 'spec.volumes[0].secret.secretName', 'Required value'],
    ['item key required', [{ name: 'v', secret: { secretName: 's', items: [{ path: 'p' }] } }], 'spec.volumes[0].secret.items[0].key', 'Required value'],
    [
      'item absolute path',
      [{ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: '/etc/x' }] } }],
      'spec.volumes[0].configMap.items[0].path',
      'Invalid value: "/etc/x": must be a relative path',
    ],
    [
      'item path with ..',
      [{ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: 'a/../b' }] } }],
      'spec.volumes[0].configMap.items[0].path',
      'Invalid value: "a/../b": must not contain \'..\'',
    ],
    [
      'item path starting ..',
      [{ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: '..data' }] } }],
      'spec.volumes[0].configMap.items[0].path',
      'Invalid value: "..data": must not start with \'..\'',
    ],
    [
      'downwardAPI fieldPath',
      [{ name: 'v', downwardAPI: { items: [{ path: 'p', fieldRef: { fieldPath: 'spec.nodeName' } }] } }],
      'spec.volumes[0].downwardAPI.items[0].fieldRef.fieldPath',
      'Unsupported value: "spec.nodeName"',
    ],
    ['downwardAPI needs a ref', [{ name: 'v', downwardAPI: { items: [{ path: 'p' }] } }], 'spec.volumes[0].downwardAPI.items[0]', 'Required value: one of fieldRef and resourceFieldRef is required'],
    [
      'token expiry under 10 minutes',
      [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 599 } }] } }],
      'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds',
      'Invalid value: 599: may not specify a duration less than 10 minutes',
    ],
    [
      'token path required',
      [{ name: 'v', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 600 } }] } }],
      'spec.volumes[0].projected.sources[0].serviceAccountToken.path',
      'Required value',
    ],
    [
      'projected duplicate paths',
      [{ name: 'v', projected: { sources: [{ configMap: { name: 'a', items: [{ key: 'k', path: 'x' }] } }, { secret: { name: 'b', items: [{ key: 'k', path: 'x' }] } }] } }],
      'spec.volumes[0].projected.sources[1].secret.items[0].path',
      'Invalid value: "x": conflicting duplicate paths',
    ],
    ['ephemeral template required', [{ name: 'v', ephemeral: {} }], 'spec.volumes[0].ephemeral.volumeClaimTemplate', 'Required value'],
    [
      'ephemeral access modes',
      [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } } }],
      'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes',
      'Required value',
    ],
    [
      'ephemeral storage request',
      [{ name: 'v', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'] } } } }],
      'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]',
      'Required value',
    ],
    ['csi driver required', [{ name: 'v', csi: {} }], 'spec.volumes[0].csi.driver', 'Required value'],
    ['pvc claimName', [{ name: 'v', persistentVolumeClaim: {} }], 'spec.volumes[0].persistentVolumeClaim.claimName', 'Required value'],
    ['hostPath type', [{ name: 'v', hostPath: { path: '/x', type: 'Folder' } }], 'spec.volumes[0].hostPath.type', 'Unsupported value: "Folder"'],
    ['nfs relative path', [{ name: 'v', nfs: { server: 's', path: 'x' } }], 'spec.volumes[0].nfs.path', 'Invalid value: "x": must be an absolute path'],
  ];
  it.each(rows)('%s', async (_n, volumes, field, msg) => {
    expect422(await call(s, 'POST', POD, pod(volumes)), field, msg);
  });

  it('defaults: no source is emptyDir, modes 0644, token expiry 3600', async () => {
    const r = await call(s, 'POST', POD, pod([{ name: 'a' }, { name: 'b', secret: { secretName: 's' } }, { name: 'c', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }]));
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const v = r.body.spec.volumes;
    expect(v[0].emptyDir).toEqual({});
    expect(v[1].secret.defaultMode).toBe(420);
    expect(v[2].projected.sources[0].serviceAccountToken.expirationSeconds).toBe(3600);
    expect(r.body.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it.each([
    ['DaemonSet', DS, (vols: unknown[]) => ds({}, { volumes: vols }), 'spec.template.spec.volumes[0].secret.defaultMode'],
    [
      'Deployment',
      '/apis/apps/v1/namespaces/default/deployments',
      (vols: unknown[]) => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: uniq('dep') },
        spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container], volumes: vols } } },
      }),
      'spec.template.spec.volumes[0].secret.defaultMode',
    ],
    [
      'CronJob',
      '/apis/batch/v1/namespaces/default/cronjobs',
      (vols: unknown[]) => ({
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: uniq('cj') },
        spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [container], volumes: vols } } } } },
      }),
      'spec.jobTemplate.spec.template.spec.volumes[0].secret.defaultMode',
    ],
  ])('volume rules apply in a %s', async (_k, path, make, field) => {
    expect422(await call(s, 'POST', path, make([{ name: 'v', secret: { secretName: 's', defaultMode: 4096 } }])), field, 'Invalid value: 4096');
  });

  it('Deployment defaults', async () => {
    const r = await call(s, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'defaults' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    expect(r.body.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    });
  });
});
