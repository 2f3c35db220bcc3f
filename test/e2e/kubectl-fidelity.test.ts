// End-to-end: places where the real kubectl 1.31 sees exactly what
// kube-apiserver 1.31 answers (metadata.generation per kind, ...), against a
// real server process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

let session: KubectlSession;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

describe('metadata.generation as upstream keeps it', () => {
  it('a ConfigMap has none; a Deployment has 1, then 2 after a spec change, and keeps 2 on a label change', async () => {
    ok(await k(['create', 'configmap', 'gen-cm', '--from-literal=a=1']));
    const cm = JSON.parse(ok(await k(['get', 'configmap', 'gen-cm', '-o', 'json'])));
    expect(cm.metadata).not.toHaveProperty('generation');

    ok(await k(['create', 'deployment', 'gen-dep', '--image=nginx']));
    const created = JSON.parse(ok(await k(['get', 'deployment', 'gen-dep', '-o', 'json'])));
    expect(created.metadata.generation).toBe(1);
    ok(await k(['scale', 'deployment', 'gen-dep', '--replicas=3']));
    const scaled = JSON.parse(ok(await k(['get', 'deployment', 'gen-dep', '-o', 'json'])));
    expect(scaled.metadata.generation).toBe(2);
    ok(await k(['label', 'deployment', 'gen-dep', 'tier=web']));
    const labelled = JSON.parse(ok(await k(['get', 'deployment', 'gen-dep', '-o', 'json'])));
    expect(labelled.metadata.generation).toBe(2);
  });
});

describe('DELETE answers as upstream', () => {
  it('kubectl deletes a ConfigMap (a Status answer) and a Service (the deleted object), also with -o name', async () => {
    ok(await k(['create', 'configmap', 'del-cm', '--from-literal=a=1']));
    expect(ok(await k(['delete', 'configmap', 'del-cm']))).toBe('configmap "del-cm" deleted\n');
    ok(await k(['create', 'service', 'clusterip', 'del-svc', '--tcp=80:8080']));
    expect(ok(await k(['delete', 'service', 'del-svc']))).toBe('service "del-svc" deleted\n');
    ok(await k(['create', 'configmap', 'del-cm2', '--from-literal=a=1']));
    expect(ok(await k(['delete', 'configmap', 'del-cm2', '-o', 'name']))).toBe('configmap/del-cm2\n');
  });

  it('the raw answers: a Status for a ConfigMap, the object for a Service', async () => {
    ok(await k(['create', 'configmap', 'raw-cm', '--from-literal=a=1']));
    const cm = JSON.parse(ok(await k(['delete', '--raw', '/api/v1/namespaces/default/configmaps/raw-cm'])));
    expect(cm).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', details: { name: 'raw-cm', kind: 'configmaps' } });
    ok(await k(['create', 'service', 'clusterip', 'raw-svc', '--tcp=80:8080']));
    const svc = JSON.parse(ok(await k(['delete', '--raw', '/api/v1/namespaces/default/services/raw-svc'])));
    expect(svc).toMatchObject({ kind: 'Service', metadata: { name: 'raw-svc' } });
  });
});

describe('discovery paths with a trailing slash', () => {
  it.each([
    ['/version/', 'gitVersion'],
    ['/api/', 'APIVersions'],
    ['/apis/', 'APIGroupList'],
    ['/apis/apps/', 'APIGroup'],
    ['/apis/apps/v1/', 'APIResourceList'],
  ])('kubectl get --raw %s', async (path, answer) => {
    expect(ok(await k(['get', '--raw', path]))).toContain(answer);
  });

  it('a health check with a slash is 404 as upstream', async () => {
    const r = await k(['get', '--raw', '/healthz/']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('NotFound');
  });
});
