// ReplicationController and PodTemplate (core/v1) through the server:
// the v1 defaults (selector and labels from the template, one replica, the
// PodSpec's defaults), the validation rows (422, field path, upstream text),
// status writes, the scale subresource and the Table columns.

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
const RC = '/api/v1/namespaces/default/replicationcontrollers';
const PT = '/api/v1/namespaces/default/podtemplates';
const template = (extra: Record<string, any> = {}) => ({ metadata: { labels: { app: 'a', tier: 't' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }], ...extra } });
const rc = (spec: Record<string, any> = {}) => ({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: uniq('rc') }, spec: { template: template(), ...spec } });

describe('ReplicationController', () => {
  it('defaults selector, labels and replicas from the template, and the template PodSpec', async () => {
    const r = await call(s, 'POST', RC, rc());
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.selector).toEqual({ app: 'a', tier: 't' });
    expect(r.body.metadata.labels).toEqual({ app: 'a', tier: 't' });
    expect(r.body.spec.replicas).toBe(1);
    expect(r.body.metadata.generation).toBe(1);
    expect(r.body.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 });
    expect(r.body.spec.template.spec.containers[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
  });

  it('keeps a given selector and labels', async () => {
    const body = rc({ selector: { app: 'a' }, replicas: 0 });
    body.metadata = { ...body.metadata, labels: { own: 'x' } } as any;
    const r = await call(s, 'POST', RC, body);
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.selector).toEqual({ app: 'a' });
    expect(r.body.metadata.labels).toEqual({ own: 'x' });
    expect(r.body.spec.replicas).toBe(0);
  });

  it.each([
    [
      'selector not matching the template',
      { selector: { app: 'b' } },
      'spec.template.metadata.labels',
      'Invalid value: map[string]string{"app":"a", "tier":"t"}: `selector` does not match template `labels`',
    ],
    ['no selector and no template labels', { template: { spec: template().spec } }, 'spec.selector', 'Required value'],
    ['no template', { selector: { app: 'a' }, template: undefined }, 'spec.template', 'Required value'],
    ['negative replicas', { replicas: -1 }, 'spec.replicas', 'Invalid value: -1: must be greater than or equal to 0'],
    ['negative minReadySeconds', { minReadySeconds: -1 }, 'spec.minReadySeconds', 'Invalid value: -1: must be greater than or equal to 0'],
    ['restartPolicy other than Always', { template: template({ restartPolicy: 'Never' }) }, 'spec.template.spec.restartPolicy', 'Unsupported value: "Never"'],
    [
      'activeDeadlineSeconds in the template',
      { template: template({ activeDeadlineSeconds: 5 }) },
      'spec.template.spec.activeDeadlineSeconds',
      'Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
    ],
    [
      'a writable GCE disk with replicas > 1',
      { replicas: 2, template: template({ volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'disk' } }] }) },
      'spec.template.spec.volumes[0].gcePersistentDisk.readOnly',
      'Invalid value: false: must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
    ],
    [
      'a template label that is not a qualified name (reported without metadata, as upstream)',
      { selector: { app: 'a' }, template: { ...template(), metadata: { labels: { app: 'a', 'bad key!': 'x' } } } },
      'spec.template.labels',
      'Invalid value: "bad key!": name part must consist of alphanumeric characters',
    ],
    [
      'ephemeral containers in the template',
      { template: template({ ephemeralContainers: [{ name: 'e', image: 'busybox' }] }) },
      'spec.template.spec.ephemeralContainers',
      'Forbidden: ephemeral containers not allowed in pod template',
    ],
  ])('%s: 422', async (_n, spec, field, msg) => {
    const r = await call(s, 'POST', RC, rc(spec));
    expect(r.code, JSON.stringify(r.body)).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(
      causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
      causeMessages(r).join('\n'),
    ).toBe(true);
  });

  it.each([
    ['one replica', 1, false],
    ['a read-only disk', 3, true],
  ])('a GCE disk is accepted with %s', async (_n, replicas, readOnly) => {
    const r = await call(s, 'POST', RC, rc({ replicas, template: template({ volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'disk', readOnly } }] }) }));
    expect(r.code, JSON.stringify(r.body)).toBe(201);
  });

  it('ReplicaSets and Deployments have the same disk rule', async () => {
    for (const [kind, path] of [
      ['ReplicaSet', '/apis/apps/v1/namespaces/default/replicasets'],
      ['Deployment', '/apis/apps/v1/namespaces/default/deployments'],
    ]) {
      const body = {
        apiVersion: 'apps/v1',
        kind,
        metadata: { name: uniq(kind.toLowerCase()) },
        spec: { replicas: 2, selector: { matchLabels: { app: 'a' } }, template: template({ volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'disk' } }] }) },
      };
      const r = await call(s, 'POST', path, body);
      expect(r.code, JSON.stringify(r.body)).toBe(422);
      expect(causeMessages(r)).toContain(
        'spec.template.spec.volumes[0].gcePersistentDisk.readOnly: Invalid value: false: must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
      );
    }
  });

  it('status writes: counts checked, spec kept', async () => {
    const created = (await call(s, 'POST', RC, rc({ replicas: 3 }))).body;
    const path = `${RC}/${created.metadata.name}/status`;
    const bad = await call(s, 'PATCH', path, { status: { replicas: 1, readyReplicas: 2 } }, 'application/merge-patch+json');
    expect(bad.code).toBe(422);
    expect(causeMessages(bad)).toContain('status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas');
    const ok = await call(s, 'PATCH', path, { spec: { replicas: 9 }, status: { replicas: 2, readyReplicas: 1, availableReplicas: 1 } }, 'application/merge-patch+json');
    expect(ok.code, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status.readyReplicas).toBe(1);
    expect(ok.body.spec.replicas).toBe(3);
  });

  it('scale subresource: the selector as a string, replicas written through', async () => {
    const created = (await call(s, 'POST', RC, rc({ replicas: 2 }))).body;
    const path = `${RC}/${created.metadata.name}/scale`;
    const got = await call(s, 'GET', path);
    expect(got.code).toBe(200);
    expect(got.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=a,tier=t' } });
    const put = await call(s, 'PATCH', path, { spec: { replicas: 5 } }, 'application/merge-patch+json');
    expect(put.code, JSON.stringify(put.body)).toBe(200);
    const after = await call(s, 'GET', `${RC}/${created.metadata.name}`);
    expect(after.body.spec.replicas).toBe(5);
    expect(after.body.metadata.generation).toBe(2);
  });

  it('Table columns as upstream prints them', async () => {
    const created = (await call(s, 'POST', RC, rc({ replicas: 2 }))).body;
    const res = await s.app.request(`${RC}/${created.metadata.name}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const table = await res.json();
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
    const cells = table.rows[0].cells;
    expect([cells[0], cells[1], cells[2], cells[3], cells[5], cells[6], cells[7]]).toEqual([created.metadata.name, 2, 0, 0, 'c', 'nginx:1.25', 'app=a,tier=t']);
  });
});

describe('PodTemplate', () => {
  it('defaults the template PodSpec and counts template changes in the generation', async () => {
    const name = uniq('pt');
    const r = await call(s, 'POST', PT, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: template() });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.template.spec).toMatchObject({ restartPolicy: 'Always', schedulerName: 'default-scheduler' });
    expect(r.body.metadata.generation).toBe(1);
    const p = await call(s, 'PATCH', `${PT}/${name}`, { template: { spec: { activeDeadlineSeconds: 10 } } }, 'application/merge-patch+json');
    expect(p.code, JSON.stringify(p.body)).toBe(200);
    expect(p.body.metadata.generation).toBe(2);
  });

  it('Table columns: Containers, Images, Pod Labels', async () => {
    const name = uniq('pt');
    await call(s, 'POST', PT, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: template() });
    const res = await s.app.request(`${PT}/${name}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const table = await res.json();
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Containers', 'Images', 'Pod Labels']);
    expect(table.rows[0].cells).toEqual([name, 'c', 'nginx:1.25', 'app=a,tier=t']);
  });

  it.each([
    ['a label key that is not a qualified name', { metadata: { labels: { '-x': 'y' } } }, 'template.labels: Invalid value: "-x": name part must consist of alphanumeric characters'],
    ['a label value too long', { metadata: { labels: { a: 'v'.repeat(64) } } }, `template.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
    ['an annotation key that is not a qualified name', { metadata: { annotations: { 'a/b/c': 'x' } } }, 'template.annotations: Invalid value: "a/b/c": a qualified name must consist of'],
    ['annotations over 256 KiB', { metadata: { annotations: { a: 'x'.repeat(256 * 1024) } } }, 'template.annotations: Too long: may not be more than 262144 bytes'],
    [
      'ephemeral containers',
      { spec: { ...template().spec, ephemeralContainers: [{ name: 'e', image: 'busybox' }] } },
      'template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
    ],
  ])('the template is checked: %s is 422', async (_n, part, msg) => {
    const r = await call(s, 'POST', PT, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: uniq('pt') }, template: { ...template(), ...part } });
    expect(r.code, JSON.stringify(r.body)).toBe(422);
    expect(
      causeMessages(r).some((m) => m.startsWith(msg)),
      causeMessages(r).join('\n'),
    ).toBe(true);
  });

  it('an update is checked too', async () => {
    const name = uniq('pt');
    expect((await call(s, 'POST', PT, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name }, template: template() })).code).toBe(201);
    const p = await call(s, 'PATCH', `${PT}/${name}`, { template: { metadata: { labels: { '-x': 'y' } } } }, 'application/merge-patch+json');
    expect(p.code).toBe(422);
    expect(causeMessages(p).some((m) => m.startsWith('template.labels: Invalid value: "-x"'))).toBe(true);
  });

  it('a template without containers is 422', async () => {
    const r = await call(s, 'POST', PT, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: uniq('pt') }, template: { spec: { containers: [] } } });
    expect(r.code).toBe(422);
    expect(causeMessages(r).some((m) => m.startsWith('template.spec.containers: Required value'))).toBe(true);
  });
});
