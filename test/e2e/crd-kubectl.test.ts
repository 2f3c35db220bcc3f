// End-to-end: a CustomResourceDefinition applied with the real kubectl to a
// real server process is served without a restart: `kubectl wait --for
// condition=established`, CRUD, `get -o wide` with a priority-1 column,
// `explain` from the OpenAPI documents, `patch --subresource=status`,
// `scale`, `apply --server-side` with a list-map marker, `get -w` seeing an
// add and an update, `Age` for a version without printer columns, a field
// the CRD's schema dropped no longer shown by `get -o yaml`; and a client-node
// informer on the new kind (in-process server) sees add, update and delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { ensureClients } from '../support/clients.ts';
import { kubectlSession, type KubectlSession, type RunResult } from '../support/kubectl.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
      additionalPrinterColumns:
        - name: Spec
          type: string
          jsonPath: .spec.cronSpec
        - name: Replicas
          type: integer
          jsonPath: .spec.replicas
          priority: 1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              description: The schedule and what runs.
              properties:
                cronSpec:
                  type: string
                  description: When to run, in cron syntax.
                image:
                  type: string
                replicas:
                  type: integer
                  default: 1
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  items:
                    type: object
                    required: [name]
                    properties:
                      name: {type: string}
                      port: {type: integer}
            status:
              type: object
              properties:
                replicas: {type: integer}
                phase: {type: string}
`;

const ok = (r: RunResult) => {
  if (r.code !== 0) throw new Error(`kubectl failed: ${r.stderr}`);
  return r.stdout;
};

describe('a CRD applied with kubectl', () => {
  let session: KubectlSession;
  beforeAll(async () => {
    session = await kubectlSession();
  }, 120_000);
  afterAll(async () => {
    await session?.stop();
  });

  it('is established, then its custom resources are served', async () => {
    const { k } = session;
    ok(await k(['apply', '-f', '-'], { input: CRD }));
    ok(await k(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/crontabs.stable.example.com']));
    ok(await k(['apply', '-f', '-'], { input: 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  image: backup\n' }));
    expect(ok(await k(['get', 'crontabs']))).toMatch(/^NAME\s+SPEC\nnightly\s+0 3 \* \* \*$/m);
    expect(ok(await k(['get', 'ct', '-o', 'wide']))).toMatch(/^nightly\s+0 3 \* \* \*\s+1$/m);
    expect(ok(await k(['get', 'crontab', 'nightly', '-o', 'jsonpath={.spec.replicas}']))).toBe('1');
  });

  it('is watched with get -w: an add and an update of a custom resource', async () => {
    const { kubectl } = ensureClients();
    const w = spawn(kubectl, ['--kubeconfig', session.server.kubeconfig, 'get', 'crontabs', '-w'], { env: { ...process.env, HOME: session.home } });
    let out = '';
    w.stdout.on('data', (d) => {
      out += d;
    });
    const until = async (re: RegExp) => {
      const deadline = Date.now() + 30_000;
      while (!re.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      // the list is printed first; the watch starts at its resourceVersion, so nothing after it is missed
      await until(/nightly/);
      ok(await session.k(['apply', '-f', '-'], { input: 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: hourly\nspec:\n  cronSpec: "0 * * * *"\n' }));
      ok(await session.k(['patch', 'crontab', 'hourly', '--type=merge', '-p', '{"spec":{"cronSpec":"5 * * * *"}}']));
      await until(/hourly\s+5 \* \* \* \*/);
    } finally {
      w.kill();
    }
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SPEC$/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^nightly\s+0 3 \* \* \*$/), expect.stringMatching(/^hourly\s+0 \* \* \* \*$/), expect.stringMatching(/^hourly\s+5 \* \* \* \*$/)]);
    ok(await session.k(['delete', 'crontab', 'hourly']));
  });

  it('prints Age for a version without additionalPrinterColumns, as upstream', async () => {
    const notes = CRD.replace(/crontabs/g, 'notes')
      .replace(/crontab\b/g, 'note')
      .replace(/CronTab/g, 'Note')
      .replace(/shortNames: \[ct\]/, 'shortNames: [nt]')
      .replace(/ {6}additionalPrinterColumns:[\s\S]*?(?= {6}schema:)/, '');
    ok(await session.k(['apply', '-f', '-'], { input: notes }));
    ok(await session.k(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/notes.stable.example.com']));
    ok(await session.k(['apply', '-f', '-'], { input: 'apiVersion: stable.example.com/v1\nkind: Note\nmetadata:\n  name: n1\nspec:\n  cronSpec: x\n' }));
    expect(ok(await session.k(['get', 'notes']))).toMatch(/^NAME\s+AGE\nn1\s+\d+[smhd]\n$/);
    ok(await session.k(['delete', 'crd', 'notes.stable.example.com', '--timeout=60s']));
  });

  it('explains the new kind from the OpenAPI documents', async () => {
    const out = ok(await session.k(['explain', 'crontabs.spec']));
    expect(out).toContain('KIND:       CronTab');
    expect(out).toContain('The schedule and what runs.');
    expect(out).toContain('cronSpec');
  });

  it('patches the status subresource and scales', async () => {
    ok(await session.k(['patch', 'crontab', 'nightly', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Ready","replicas":1}}']));
    expect(ok(await session.k(['get', 'crontab', 'nightly', '-o', 'jsonpath={.status.phase}']))).toBe('Ready');
    ok(await session.k(['scale', 'crontab', 'nightly', '--replicas=3']));
    expect(ok(await session.k(['get', 'crontab', 'nightly', '-o', 'jsonpath={.spec.replicas}']))).toBe('3');
  });

  it('merges server-side applies of two managers by the list-map key', async () => {
    const cfg = (port: string) => `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  ports:\n  - name: ${port}\n    port: 80\n`;
    ok(await session.k(['apply', '--server-side', '--field-manager=a', '-f', '-'], { input: cfg('http') }));
    ok(await session.k(['apply', '--server-side', '--field-manager=b', '-f', '-'], { input: cfg('metrics') }));
    expect(ok(await session.k(['get', 'crontab', 'nightly', '-o', 'jsonpath={.spec.ports[*].name}']))).toBe('http metrics');
  });

  it('no longer shows a field the CRD schema dropped: get -o yaml after a CRD update', async () => {
    const { k } = session;
    const crd = (withX: boolean) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.prune.example.com
spec:
  group: prune.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                keep: {type: string}
${withX ? '                x: {type: string}' : '                added: {type: string, default: fresh}'}
`;
    ok(await k(['apply', '-f', '-'], { input: crd(true) }));
    ok(await k(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/widgets.prune.example.com']));
    ok(await k(['apply', '-f', '-'], { input: 'apiVersion: prune.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  keep: k\n  x: gone-soon\n' }));
    expect(ok(await k(['get', 'widget', 'w1', '-o', 'yaml']))).toMatch(/^ {2}x: gone-soon$/m);
    ok(await k(['apply', '-f', '-'], { input: crd(false) }));
    // the new schema is served within moments; poll the read, not a clock
    let yaml = '';
    for (let i = 0; i < 300; i++) {
      yaml = ok(await k(['get', 'widget', 'w1', '-o', 'yaml']));
      if (!/^ {2}x:/m.test(yaml)) break;
    }
    expect(yaml).not.toMatch(/^ {2}x:/m);
    expect(yaml).toMatch(/^ {2}keep: k$/m);
    expect(yaml).toMatch(/^ {2}added: fresh$/m);
  });

  it('deletes the CRD and its custom resources', async () => {
    ok(await session.k(['delete', 'crd', 'crontabs.stable.example.com', '--timeout=60s']));
    const r = await session.k(['get', 'crontabs']);
    expect(r.code).not.toBe(0);
  });
});

describe('a client-node informer on a kind created at run time', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ authorizationMode: ['AlwaysAllow'] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sees add, update and delete', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(server.kubeconfig);
    const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
    const crd = k8s.loadYaml<k8s.V1CustomResourceDefinition>(CRD);
    await ext.createCustomResourceDefinition({ body: crd });
    for (let i = 0; i < 3000; i++) {
      const got = await ext.readCustomResourceDefinition({ name: 'crontabs.stable.example.com' });
      if (got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const custom = kc.makeApiClient(k8s.CustomObjectsApi);
    const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
    const list = () =>
      custom.listNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs' }) as Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>;
    const informer = k8s.makeInformer(kc, path, list);
    const seen: string[] = [];
    let notify: () => void = () => {};
    const saw = (what: string) =>
      new Promise<void>((resolve) => {
        const check = () => (seen.includes(what) ? resolve() : (notify = check));
        check();
      });
    for (const ev of ['add', 'update', 'delete'] as const) {
      informer.on(ev, (obj) => {
        seen.push(`${ev} ${obj.metadata?.name}`);
        notify();
      });
    }
    await informer.start();
    const body = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'hourly' }, spec: { cronSpec: '0 * * * *' } };
    await custom.createNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', body });
    await saw('add hourly');
    await custom.patchNamespacedCustomObject(
      { group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'hourly', body: { spec: { image: 'x' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await saw('update hourly');
    await custom.deleteNamespacedCustomObject({ group: 'stable.example.com', version: 'v1', namespace: 'default', plural: 'crontabs', name: 'hourly' });
    await saw('delete hourly');
    await informer.stop();
    expect(seen).toEqual(['add hourly', 'update hourly', 'delete hourly']);
  });
});
