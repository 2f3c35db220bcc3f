// LazyKubeProtobuf loads message packages as kinds need them: a kind's
// package and what it uses, meta/v1 always; decoding loads the kind its
// envelope names. Counted through an index whose loaders record their calls.
import { beforeEach, describe, expect, it } from 'vitest';
import * as generated from '../../../generated/proto/index.ts';
import { LazyKubeProtobuf, ProtobufError, loadKubeProtobuf, type GeneratedProtoIndex } from './index.ts';

let loaded: string[];
let index: GeneratedProtoIndex;
beforeEach(() => {
  loaded = [];
  const packages = Object.fromEntries(
    Object.entries(generated.packages).map(([name, load]) => [
      name,
      () => {
        loaded.push(name);
        return load();
      },
    ]),
  );
  index = { kinds: generated.kinds, packageDeps: generated.packageDeps, packages };
});

describe('LazyKubeProtobuf', () => {
  it.each([
    ['v1', 'Status', ['k8s.io.apimachinery.pkg.apis.meta.v1', 'k8s.io.apimachinery.pkg.runtime']],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole', ['k8s.io.api.rbac.v1', 'k8s.io.apimachinery.pkg.apis.meta.v1', 'k8s.io.apimachinery.pkg.runtime']],
    ['apps/v1', 'DeploymentList', generated.packageDeps['k8s.io.api.apps.v1']],
    ['stable.example.com/v1', 'CronTab', ['k8s.io.apimachinery.pkg.apis.meta.v1', 'k8s.io.apimachinery.pkg.runtime']],
  ])('%s %s loads only its packages', async (apiVersion, kind, want) => {
    const codec = await new LazyKubeProtobuf(index).forKind(apiVersion, kind);
    expect([...new Set(loaded)].sort()).toEqual([...new Set(want)].sort());
    expect(codec.supports('v1', 'Status')).toBe(true);
  });

  it('loads each package once, also when asked concurrently', async () => {
    const lazy = new LazyKubeProtobuf(index);
    await Promise.all([lazy.forKind('apps/v1', 'Deployment'), lazy.forKind('apps/v1', 'Deployment'), lazy.forKind('v1', 'Pod')]);
    expect(loaded.length).toBe(new Set(loaded).size);
  });

  it('decodes a body of a kind not loaded yet, the same as the full codec', async () => {
    const full = await loadKubeProtobuf();
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default' }, spec: { parallelism: 2 } };
    const lazy = new LazyKubeProtobuf(index);
    expect((await lazy.forKind('v1', 'Status')).supports('batch/v1', 'Job')).toBe(false);
    expect(await lazy.decode(full.encode(job))).toEqual(full.decode(full.encode(job)));
    expect(loaded).toContain('k8s.io.api.batch.v1');
    expect(loaded).not.toContain('k8s.io.api.apps.v1');
  });

  it('bytes that are no envelope are a ProtobufError, with nothing loaded', async () => {
    await expect(new LazyKubeProtobuf(index).decode(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(ProtobufError);
    expect(loaded).toEqual([]);
  });
});
