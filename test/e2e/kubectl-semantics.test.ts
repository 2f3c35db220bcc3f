// End-to-end with kubectl: Service allocation shown by `kubectl get svc`,
// type change to ExternalName and its erasures, a namespace deleted with its
// content (Terminating, then gone), an immutable ConfigMap that cannot
// be edited, local APIServices, workloads (generated Job selector, refused
// CronJob schedule and Deployment), the finalizer-name warning, the
// undeletable default namespace and the `kubernetes` endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import type { ServerProcess } from '../support/server-process.ts';

let session: KubectlSession;
let server: ServerProcess;
let home: string;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession(['--service-cluster-ip-range', '10.20.0.0/24', '--service-node-port-range', '30100-30200']);
  ({ server, home } = session);
});
afterAll(async () => {
  await session?.stop();
});
const getJSON = async (...args: string[]) => JSON.parse(ok(await k(['get', ...args, '-o', 'json'])));

describe('kubectl and Services', () => {
  it('NodePort and LoadBalancer Services show their allocated addresses and ports', async () => {
    ok(await k(['create', 'service', 'nodeport', 'np', '--tcp=80:8080']));
    ok(await k(['create', 'service', 'loadbalancer', 'lb', '--tcp=443:8443']));
    const np = await getJSON('svc', 'np');
    const lb = await getJSON('svc', 'lb');
    for (const s of [np, lb]) {
      expect(s.spec.clusterIP).toMatch(/^10\.20\.0\.\d+$/);
      expect(s.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30100);
      expect(s.spec.ports[0].nodePort).toBeLessThanOrEqual(30200);
    }
    const table = ok(await k(['get', 'svc', 'np', 'lb']));
    expect(table).toContain(np.spec.clusterIP);
    expect(table).toContain(`80:${np.spec.ports[0].nodePort}/TCP`);
    expect(table).toContain(`443:${lb.spec.ports[0].nodePort}/TCP`);
    expect(table).toMatch(/lb\s+LoadBalancer/);
    const kube = ok(await k(['get', 'svc', 'kubernetes']));
    expect(kube).toContain('10.20.0.1');
  });

  it('changing the type to ExternalName erases clusterIP, families and node ports', async () => {
    ok(await k(['patch', 'svc', 'np', '--type=merge', '-p', '{"spec":{"type":"ExternalName","externalName":"db.example.com"}}']));
    const s = await getJSON('svc', 'np');
    expect(s.spec.type).toBe('ExternalName');
    expect(s.spec.clusterIP).toBeUndefined();
    expect(s.spec.clusterIPs).toBeUndefined();
    expect(s.spec.ipFamilies).toBeUndefined();
    expect(s.spec.ipFamilyPolicy).toBeUndefined();
    expect(s.spec.ports[0].nodePort).toBeUndefined();
    const table = ok(await k(['get', 'svc', 'np']));
    expect(table).toContain('db.example.com');
  });

  it('a bad Service is refused with the field error', async () => {
    const r = await k(['create', 'service', 'clusterip', 'bad', '--tcp=80:8080', '--clusterip=10.99.0.1']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('failed to allocate IP 10.99.0.1');
  });
});

describe('kubectl and namespaces', () => {
  it('a deleted namespace goes Terminating, then disappears with its content', async () => {
    ok(await k(['create', 'namespace', 'gone']));
    ok(await k(['-n', 'gone', 'create', 'configmap', 'c1', '--from-literal=a=b']));
    ok(await k(['-n', 'gone', 'create', 'configmap', 'c2', '--from-literal=a=b']));
    ok(await k(['-n', 'gone', 'patch', 'configmap', 'c2', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}']));
    ok(await k(['delete', 'namespace', 'gone', '--wait=false']));
    const ns = await getJSON('namespace', 'gone');
    expect(ns.status.phase).toBe('Terminating');
    expect(ok(await k(['get', 'namespace', 'gone']))).toContain('Terminating');
    const refused = await k(['-n', 'gone', 'create', 'configmap', 'c3', '--from-literal=a=b']);
    expect(refused.stderr).toContain('because it is being terminated');
    ok(await k(['-n', 'gone', 'patch', 'configmap', 'c2', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']));
    ok(await k(['wait', '--for=delete', 'namespace/gone', '--timeout=20s']));
    const after = await k(['get', 'namespace', 'gone']);
    expect(after.stderr).toContain('NotFound');
  });
});

describe('kubectl and immutable ConfigMaps', () => {
  it('create --from-literal, make it immutable, then edits of data fail', async () => {
    ok(await k(['create', 'configmap', 'settings', '--from-literal=mode=fast']));
    ok(await k(['patch', 'configmap', 'settings', '--type=merge', '-p', '{"immutable":true}']));
    const r = await k(['patch', 'configmap', 'settings', '--type=merge', '-p', '{"data":{"mode":"slow"}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('field is immutable when `immutable` is set');
    // kubectl edit through an EDITOR script is refused the same way
    const editor = join(home, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/mode: fast/mode: slow/" "$1"\n');
    chmodSync(editor, 0o755);
    const edit = await k(['edit', 'configmap', 'settings'], { env: { EDITOR: editor, KUBE_EDITOR: editor } });
    expect(edit.code).not.toBe(0);
    expect(edit.stderr).toContain('configmaps "settings" is invalid');
    const cm = await getJSON('configmap', 'settings');
    expect(cm.data.mode).toBe('fast');
    ok(await k(['label', 'configmap', 'settings', 'team=a']));
  });
});

describe('kubectl and the built-in objects', () => {
  it('lists the local APIServices as available', async () => {
    const table = ok(await k(['get', 'apiservices']));
    expect(table).toMatch(/v1\.apps\s+Local\s+True/);
    expect(table).toMatch(/v1\.\s+Local\s+True/);
  });

  it('default may not be deleted', async () => {
    const r = await k(['delete', 'namespace', 'default', '--wait=false']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('namespaces "default" is forbidden: this namespace may not be deleted');
  });

  it('the kubernetes EndpointSlice names the https port the server listens on', async () => {
    const slice = await getJSON('endpointslice', 'kubernetes');
    expect(slice.ports).toEqual([{ name: 'https', port: Number(new URL(server.url).port), protocol: 'TCP' }]);
  });

  it('a finalizer without a domain is accepted with a warning', async () => {
    const r = await k(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'warned', finalizers: ['cleanup'] } }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Warning: metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers');
    ok(await k(['patch', 'configmap', 'warned', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']));
  });
});

describe('kubectl and workloads', () => {
  it('create job gets a generated selector', async () => {
    ok(await k(['create', 'job', 'pi', '--image=busybox:1.36', '--', 'true']));
    const job = await getJSON('job', 'pi');
    expect(job.spec.selector.matchLabels['batch.kubernetes.io/controller-uid']).toBe(job.metadata.uid);
    expect(job.spec.template.metadata.labels['batch.kubernetes.io/job-name']).toBe('pi');
  });

  it('create deployment works; a bad replica count is refused', async () => {
    ok(await k(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2']));
    const r = await k(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":-1}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('a CronJob with a bad schedule is refused with the parser text', async () => {
    const r = await k(['create', 'cronjob', 'nightly', '--image=busybox:1.36', '--schedule=61 * * * *']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
    ok(await k(['create', 'cronjob', 'nightly', '--image=busybox:1.36', '--schedule=0 3 * * *']));
  });
});
