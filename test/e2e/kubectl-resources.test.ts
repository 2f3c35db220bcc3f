// End-to-end: resources and subresources kubectl 1.31 expects of a cluster,
// with the real kubectl against a real server process: ReplicationController
// and PodTemplate (apply --prune's default list, get, scale), pod and node
// subresources, and a service proxy.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n    app: x\ndata:\n  a: "1"\n`;

describe('ReplicationController and PodTemplate', () => {
  it('kubectl apply --prune -l app=x -f dir/ prunes with its default list (which names ReplicationController)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prune-'));
    writeFileSync(join(dir, 'a.yaml'), configMap('prune-a'));
    writeFileSync(join(dir, 'b.yaml'), configMap('prune-b'));
    ok(await k(['apply', '--prune', '-l', 'app=x', '-f', dir]));
    writeFileSync(join(dir, 'b.yaml'), configMap('prune-c'));
    const out = ok(await k(['apply', '--prune', '-l', 'app=x', '-f', dir]));
    expect(out).toContain('configmap/prune-b pruned');
    const names = ok(await k(['get', 'configmaps', '-l', 'app=x', '-o', 'name']))
      .trim()
      .split('\n')
      .sort();
    expect(names).toEqual(['configmap/prune-a', 'configmap/prune-c']);
  });

  it('kubectl get rc,podtemplates and kubectl scale rc', async () => {
    const rc =
      'apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.25\n';
    const pt = 'apiVersion: v1\nkind: PodTemplate\nmetadata:\n  name: tpl\ntemplate:\n  metadata:\n    labels:\n      app: tpl\n  spec:\n    containers:\n    - name: c\n      image: busybox\n';
    ok(await k(['apply', '-f', '-'], { input: rc }));
    ok(await k(['apply', '-f', '-'], { input: pt }));
    const table = ok(await k(['get', 'rc,podtemplates']));
    expect(table).toMatch(/NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
    expect(table).toMatch(/replicationcontroller\/web\s+2\s+0\s+0\s+/);
    expect(table).toMatch(/NAME\s+CONTAINERS\s+IMAGES\s+POD LABELS/);
    expect(table).toMatch(/podtemplate\/tpl\s+c\s+busybox\s+app=tpl/);
    expect(ok(await k(['scale', 'rc', 'web', '--replicas=4']))).toContain('replicationcontroller/web scaled');
    const wide = ok(await k(['get', 'rc', 'web', '-o', 'wide']));
    expect(wide).toMatch(/web\s+4\s+0\s+0\s+\S+\s+c\s+nginx:1.25\s+app=web/);
    const got = JSON.parse(ok(await k(['get', 'rc', 'web', '-o', 'json'])));
    expect(got.spec).toMatchObject({ replicas: 4, selector: { app: 'web' } });
  });
});

describe('PriorityClass and Pod defaults', () => {
  it('kubectl get priorityclasses lists the built-in classes; a second global default is refused', async () => {
    const out = ok(await k(['get', 'priorityclasses']));
    expect(out).toMatch(/system-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority/);
    expect(out).toMatch(/system-node-critical\s+2000001000\s+false\s+\S+\s+PreemptLowerPriority/);
    ok(await k(['create', 'priorityclass', 'first', '--value=10', '--global-default']));
    const second = await k(['create', 'priorityclass', 'second', '--value=20', '--global-default']);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('PriorityClass first is already marked as default. Only one default can exist');
    ok(await k(['delete', 'priorityclass', 'first']));
  });

  it('kubectl get pods shows a new pod Pending', async () => {
    ok(await k(['run', 'pending', '--image=nginx']));
    expect(ok(await k(['get', 'pods', 'pending']))).toMatch(/pending\s+0\/1\s+Pending\s+0\s+/);
    const pod = JSON.parse(ok(await k(['get', 'pod', 'pending', '-o', 'json'])));
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(pod.spec).toMatchObject({ enableServiceLinks: true, priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });
});

describe('pod and node subresources', () => {
  const node = (name: string) => `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${name}\n`;
  const boundPod = (name: string, nodeName: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels:\n    app: drained\nspec:\n  nodeName: ${nodeName}\n  containers:\n  - name: c\n    image: nginx\n`;

  it('kubectl drain cordons the node and evicts its pods', async () => {
    ok(await k(['apply', '-f', '-'], { input: node('worker-1') }));
    ok(await k(['apply', '-f', '-'], { input: boundPod('on-node-a', 'worker-1') }));
    ok(await k(['apply', '-f', '-'], { input: boundPod('on-node-b', 'worker-1') }));
    ok(await k(['create', 'pdb', 'drained', '--selector=app=drained', '--min-available=1']));
    const r = await k(['drain', 'worker-1', '--force', '--timeout=60s'], { timeoutMs: 90_000 });
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(0);
    expect(out).toContain('node/worker-1 cordoned');
    expect(out).toContain('evicting pod default/on-node-a');
    expect(out).toContain('pod/on-node-b evicted');
    expect(out).toContain('node/worker-1 drained');
    const n = JSON.parse(ok(await k(['get', 'node', 'worker-1', '-o', 'json'])));
    expect(n.spec.unschedulable).toBe(true);
    expect(ok(await k(['get', 'pods', '--field-selector=spec.nodeName=worker-1', '-o', 'name']))).toBe('');
  });

  it('a pod bound through pods/binding (kubectl create --raw) shows its node; a second binding is refused', async () => {
    ok(await k(['run', 'to-bind', '--image=nginx']));
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'to-bind' }, target: { apiVersion: 'v1', kind: 'Node', name: 'worker-2' } };
    ok(await k(['create', '--raw', '/api/v1/namespaces/default/pods/to-bind/binding', '-f', '-'], { input: JSON.stringify(binding) }));
    expect(ok(await k(['get', 'pod', 'to-bind', '-o', 'wide']))).toMatch(/to-bind\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+worker-2/);
    const again = await k(['create', '--raw', '/api/v1/namespaces/default/pods/to-bind/binding', '-f', '-'], { input: JSON.stringify(binding) });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('is already assigned to node "worker-2"');
  });

  it('kubectl exec and logs say why there is no kubelet to reach', async () => {
    ok(await k(['run', 'unscheduled', '--image=nginx']));
    const exec = await k(['exec', 'unscheduled', '--', 'ls']);
    expect(exec.code).not.toBe(0);
    expect(exec.stderr).toContain('pod unscheduled does not have a host assigned');
    const logs = await k(['logs', 'unscheduled']);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toBe('');
  });

  it('kubectl get --raw of a service proxy: the endpoint lookup, then the failed connection upstream reports', async () => {
    const svc = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: x\nspec:\n  selector:\n    app: x\n  ports:\n  - port: 80\n    targetPort: 8080\n';
    ok(await k(['apply', '-f', '-'], { input: svc }));
    const raw = (path: string) => k(['get', '--raw', path]);
    const noEndpoints = await raw('/api/v1/namespaces/default/services/x/proxy/');
    expect(noEndpoints.code).not.toBe(0);
    expect(noEndpoints.stderr).toContain('Error from server (NotFound): endpoints "x" not found');
    ok(await k(['run', 'x-backend', '--image=nginx', '--labels=app=x']));
    const ip = { status: { podIP: '10.1.2.3', podIPs: [{ ip: '10.1.2.3' }] } };
    ok(await k(['patch', 'pod', 'x-backend', '--subresource=status', '--type=merge', '-p', JSON.stringify(ip)]));
    const eps = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'x' },
      subsets: [{ addresses: [{ ip: '10.1.2.3', targetRef: { kind: 'Pod', namespace: 'default', name: 'x-backend' } }], ports: [{ port: 8080 }] }],
    };
    ok(await k(['apply', '-f', '-'], { input: JSON.stringify(eps) }));
    // the proxy root redirects to its path with a slash; kubectl follows it
    for (const path of ['/api/v1/namespaces/default/services/x/proxy/', '/api/v1/namespaces/default/services/x/proxy', '/api/v1/namespaces/default/services/x:80/proxy/healthz']) {
      const r = await raw(path);
      expect(r.code, path).not.toBe(0);
      expect(r.stderr, path).toContain('Error from server (ServiceUnavailable): error trying to reach service: dial tcp 10.1.2.3:8080: this API server does not connect to proxied backends');
    }
  });
});
