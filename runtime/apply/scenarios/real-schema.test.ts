// Scenarios on the generated merge schema (generated/merge-schema.ts) with
// real kinds: a Deployment applied by two field managers the way
// `kubectl apply --server-side` does, and a DaemonSet's status.
// Skips when codegen has not produced the schema yet.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MergeSchema } from '../../../generated/api-types.ts';
import { ApplyConflictError, FieldManager } from '../index.ts';
import type { Obj } from '../value/json.ts';
import { entriesByKey, stripManaged } from './run.ts';

const schemaFile = new URL('../../../generated/merge-schema.ts', import.meta.url);
const present = existsSync(schemaFile);
const schema: MergeSchema | undefined = present ? (await import(schemaFile.href)).mergeSchema : undefined;

const deployment = (replicas: number, image = 'nginx:1.14.2'): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80, protocol: 'TCP' }] }] } },
  },
});

describe.skipIf(!present)('generated merge schema: apps/v1', () => {
  const fm = () =>
    new FieldManager({
      schema: schema!,
      typeName: 'io.k8s.api.apps.v1.Deployment',
      apiVersion: 'apps/v1',
      resetFields: { '': ['status'], status: ['spec', 'metadata'] },
    });

  it('two field managers on a Deployment: shared fields, conflict text, force, dropped field', () => {
    const m = fm();
    let live = m.apply(null, deployment(2), 'kubectl', { force: false });
    expect(entriesByKey(live)).toEqual({
      'kubectl/Apply': {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:selector': {},
          'f:template': {
            'f:metadata': { 'f:labels': { 'f:app': {} } },
            'f:spec': {
              'f:containers': {
                'k:{"name":"nginx"}': {
                  '.': {},
                  'f:image': {},
                  'f:name': {},
                  'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
                },
              },
            },
          },
        },
      },
    });
    let err: ApplyConflictError | undefined;
    try {
      m.apply(live, deployment(3, 'nginx:1.16'), 'other', { force: false });
    } catch (e) {
      err = e as ApplyConflictError;
    }
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect(err!.message).toBe('Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image');
    expect(err!.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' },
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.template.spec.containers[name="nginx"].image' },
    ]);
    live = m.apply(live, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', namespace: 'default' }, spec: { replicas: 3 } }, 'other', { force: true });
    expect((live.spec as Obj).replicas).toBe(3);
    const e = entriesByKey(live);
    expect((e['kubectl/Apply'] as Obj)['f:spec']).not.toHaveProperty('f:replicas');
    expect((e['other/Apply'] as Obj)['f:spec']).toHaveProperty('f:replicas');
    // kubectl drops its labels and replicas: labels go (nobody else owns them), replicas stay (other owns them).
    const noLabels = deployment(2);
    delete (noLabels.metadata as Obj).labels;
    delete (noLabels.spec as Obj).replicas;
    live = m.apply(live, noLabels, 'kubectl', { force: false });
    expect((live.metadata as Obj).labels).toBeUndefined();
    expect((live.spec as Obj).replicas).toBe(3);
  });

  it('status written through the status sub-resource by an update', () => {
    const m = fm();
    const live = m.apply(null, deployment(1), 'kubectl', { force: false });
    const next = m.update(live, { ...stripManaged(live), status: { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] } }, 'kube-controller-manager', { subresource: 'status' });
    expect(entriesByKey(next)['kube-controller-manager/Update/status']).toEqual({
      'f:status': { '.': {}, 'f:conditions': { '.': {}, 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:replicas': {} },
    });
  });

  it('a DaemonSet with many containers round-trips its managed fields', () => {
    const m = new FieldManager({ schema: schema!, typeName: 'io.k8s.api.apps.v1.DaemonSet', apiVersion: 'apps/v1' });
    const containers = Array.from({ length: 20 }, (_, i) => ({ name: `c${i}`, image: `img:${i}`, env: [{ name: 'A', value: String(i) }] }));
    const ds: Obj = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'ds' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers } } },
    };
    const live = m.apply(null, ds, 'a', { force: false });
    const again = m.apply(live, ds, 'a', { force: false, now: new Date(Date.now() + 5000) });
    expect(again).toEqual(live);
    const fewer = m.apply(live, { ...ds, spec: { ...(ds.spec as Obj), template: { metadata: { labels: { a: 'b' } }, spec: { containers: containers.slice(0, 10) } } } }, 'a', { force: false });
    expect(((((fewer.spec as Obj).template as Obj).spec as Obj).containers as Obj[]).map((c) => c.name)).toEqual(containers.slice(0, 10).map((c) => c.name));
  });
});
