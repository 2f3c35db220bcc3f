// End-to-end: the real kubectl 1.31 against a real server process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import type { ServerProcess } from '../support/server-process.ts';

let session: KubectlSession;
let server: ServerProcess;
let home: string;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
  ({ server, home } = session);
});
afterAll(async () => {
  await session?.stop();
});

describe('kubectl against specserver', () => {
  it('lists API resources with short names and scope', async () => {
    const out = ok(await k(['api-resources']));
    expect(out).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    expect(out).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
    expect(out).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    expect(out).toMatch(/^daemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet$/m);
  });

  it('lists API versions', async () => {
    const out = ok(await k(['api-versions']));
    expect(out.split('\n')).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'batch/v1', 'node.k8s.io/v1']));
  });

  it('has the initial namespaces', async () => {
    const out = ok(await k(['get', 'namespaces', '-o', 'name']));
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) expect(out).toContain(`namespace/${ns}`);
  });

  it('creates, gets in every output format, and deletes a configmap', async () => {
    ok(await k(['create', 'configmap', 'cm1', '--from-literal=a=1', '--from-literal=b=2']));
    const y = ok(await k(['get', 'configmap', 'cm1', '-o', 'yaml']));
    expect(y).toContain('name: cm1');
    expect(y).toMatch(/a: "1"/);
    const j = JSON.parse(ok(await k(['get', 'cm', 'cm1', '-o', 'json'])));
    expect(j.data).toEqual({ a: '1', b: '2' });
    expect(j.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok(await k(['get', 'cm', 'cm1', '-o', 'name']))).toBe('configmap/cm1\n');
    const table = ok(await k(['get', 'cm', 'cm1']));
    expect(table).toMatch(/^NAME\s+DATA\s+AGE$/m);
    expect(table).toMatch(/^cm1\s+2\s+\d+s$/m);
    ok(await k(['get', 'cm', 'cm1', '-o', 'wide']));
    expect(ok(await k(['delete', 'cm', 'cm1']))).toContain('configmap "cm1" deleted');
    const gone = await k(['get', 'cm', 'cm1']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('configmaps "cm1" not found');
  });

  it('creates a generic secret', async () => {
    ok(await k(['create', 'secret', 'generic', 's1', '--from-literal=password=hunter2']));
    const j = JSON.parse(ok(await k(['get', 'secret', 's1', '-o', 'json'])));
    expect(Buffer.from(j.data.password, 'base64').toString()).toBe('hunter2');
    expect(j.type).toBe('Opaque');
  });

  it('dry-run=server does not store', async () => {
    const out = ok(await k(['create', 'configmap', 'dry', '--from-literal=a=1', '--dry-run=server', '-o', 'json']));
    expect(JSON.parse(out).metadata.name).toBe('dry');
    expect((await k(['get', 'cm', 'dry'])).code).not.toBe(0);
  });

  it('rejects an unknown field with --validate=strict', async () => {
    const file = join(home, 'bad.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  a: "1"\nbogus: true\n');
    const r = await k(['create', '-f', file, '--validate=strict']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('unknown field "bogus"');
    expect((await k(['get', 'cm', 'bad'])).code).not.toBe(0);
  });

  it('lists in chunks and filters by label and field selectors', async () => {
    for (let i = 0; i < 7; i++) {
      ok(await k(['create', 'configmap', `chunk-${i}`, `--from-literal=i=${i}`]));
      ok(await k(['label', 'configmap', `chunk-${i}`, `parity=${i % 2 ? 'odd' : 'even'}`]));
    }
    const all = ok(await k(['get', 'cm', '--chunk-size=2', '-o', 'name']));
    for (let i = 0; i < 7; i++) expect(all).toContain(`configmap/chunk-${i}`);
    const odd = ok(await k(['get', 'cm', '-l', 'parity=odd', '-o', 'name']))
      .trim()
      .split('\n');
    expect(odd.sort()).toEqual(['configmap/chunk-1', 'configmap/chunk-3', 'configmap/chunk-5']);
    const one = ok(await k(['get', 'cm', '--field-selector', 'metadata.name=chunk-4', '-o', 'name']));
    expect(one.trim()).toBe('configmap/chunk-4');
    const bad = await k(['get', 'cm', '--field-selector', 'data.i=1']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('field label not supported: data.i');
  });

  it('reports readiness verbosely through --raw', async () => {
    const out = ok(await k(['get', '--raw', '/readyz?verbose']));
    expect(out).toContain('[+]ping ok');
    expect(out).toContain('readyz check passed');
  });

  it('deletes in two phases with a finalizer', async () => {
    const file = join(home, 'fin.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fin\n  finalizers: ["example.com/hold"]\n');
    ok(await k(['create', '-f', file]));
    ok(await k(['delete', 'cm', 'fin', '--wait=false']));
    const j = JSON.parse(ok(await k(['get', 'cm', 'fin', '-o', 'json'])));
    expect(j.metadata.deletionTimestamp).toBeTruthy();
    ok(await k(['patch', 'cm', 'fin', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']));
    expect((await k(['get', 'cm', 'fin'])).code).not.toBe(0);
  });

  it('watches ADDED, MODIFIED and DELETED', async () => {
    const { kubectl } = await import('../support/clients.ts').then((m) => m.ensureClients());
    const { spawn } = await import('node:child_process');
    const w = spawn(
      kubectl,
      ['--kubeconfig', server.kubeconfig, 'get', 'cm', '-w', '--output-watch-events', '-o', 'jsonpath={.type} {.object.metadata.name}{"\\n"}', '--field-selector', 'metadata.name=watched'],
      { env: { ...process.env, HOME: home } },
    );
    let out = '';
    w.stdout.on('data', (d) => {
      out += d;
    });
    await new Promise((r) => setTimeout(r, 1500));
    ok(await k(['create', 'configmap', 'watched', '--from-literal=a=1']));
    ok(await k(['label', 'cm', 'watched', 'x=y']));
    ok(await k(['delete', 'cm', 'watched']));
    const deadline = Date.now() + 10_000;
    while (!/DELETED/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    w.kill();
    expect(out.trim().split('\n')).toEqual(['ADDED watched', 'MODIFIED watched', 'DELETED watched']);
  });

  it('explains a field from the OpenAPI documents', async () => {
    const out = ok(await k(['explain', 'deployment.spec.replicas']));
    expect(out).toContain('KIND:       Deployment');
    expect(out).toMatch(/replicas\s+<integer>/);
  });
});

describe('kubectl auth', () => {
  it('whoami and can-i are answered without storing anything', async () => {
    const who = ok(await k(['auth', 'whoami', '-o', 'json']));
    expect(JSON.parse(who).status.userInfo.groups).toContain('system:masters');
    expect(ok(await k(['auth', 'can-i', 'create', 'deployments'])).trim()).toBe('yes');
    expect(ok(await k(['auth', 'can-i', '--list'])).trim()).toMatch(/\*\.\*\s+\[\]\s+\[\]\s+\[\*\]/);
  });
});
