// Server-side apply throughput on one object: a DaemonSet with 20 containers
// (env, ports, resources, probes), driven through FieldManager with the
// generated merge schema. Measures, in one run: first apply (create), no-op
// re-apply, re-apply changing one image, and a non-apply update changing one
// image. Usage:
//   npx tsx bench/apply/apply.ts [seconds-per-case]
import { mergeSchema } from '../../generated/merge-schema.ts';
import { FieldManager, type Obj } from '../../runtime/apply/index.ts';

const seconds = Number(process.argv[2] ?? 2);

function daemonSet(image: (i: number) => string): Obj {
  const containers = Array.from({ length: 20 }, (_, i) => ({
    name: `c${i}`,
    image: image(i),
    args: ['--port', String(8000 + i), '--verbose'],
    env: [
      { name: 'MODE', value: 'prod' },
      { name: 'INDEX', value: String(i) },
    ],
    ports: [{ containerPort: 8000 + i, protocol: 'TCP', name: `p${i}` }],
    resources: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '10m' } },
    readinessProbe: { httpGet: { path: '/healthz', port: 8000 + i }, periodSeconds: 5 },
  }));
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agents', namespace: 'kube-system', labels: { app: 'agents' } },
    spec: {
      selector: { matchLabels: { app: 'agents' } },
      template: { metadata: { labels: { app: 'agents' } }, spec: { containers, tolerations: [{ operator: 'Exists' }] } },
    },
  };
}

const fm = new FieldManager({
  schema: mergeSchema,
  typeName: 'io.k8s.api.apps.v1.DaemonSet',
  apiVersion: 'apps/v1',
  resetFields: { '': ['status'] },
});

function measure(label: string, fn: (i: number) => void): void {
  for (let i = 0; i < 50; i++) fn(i); // warm-up
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000) fn(n++);
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(34)} ${(n / (ms / 1000)).toFixed(0).padStart(7)} ops/s  ${((ms * 1000) / n).toFixed(0).padStart(6)} µs/op`);
}

const config = daemonSet((i) => `registry/agent-${i}:1.0`);
const live = fm.apply(null, config, 'kubectl', { force: false });
const altConfigs = [0, 1].map((v) => daemonSet((i) => (i === 0 ? `registry/agent-0:2.${v}` : `registry/agent-${i}:1.0`)));
let current = live;

console.log(`DaemonSet with 20 containers, ${JSON.stringify(live).length} bytes with managedFields`);
measure('apply (create)', () => {
  fm.apply(null, config, 'kubectl', { force: false });
});
measure('apply (no-op re-apply)', () => {
  fm.apply(live, config, 'kubectl', { force: false });
});
measure('apply (one image changed)', (i) => {
  current = fm.apply(current, altConfigs[i % 2], 'kubectl', { force: false });
});
const { metadata: _m, ...rest } = live;
const updates = [0, 1].map((v) => {
  const o = structuredClone(rest) as Obj;
  ((((o.spec as Obj).template as Obj).spec as Obj).containers as Obj[])[0].image = `registry/agent-0:3.${v}`;
  return { ...o, metadata: live.metadata };
});
current = live;
measure('update (one image changed)', (i) => {
  current = fm.update(current, updates[i % 2], 'kube-controller');
});
measure('update (create)', () => {
  fm.update(null, config, 'kubectl-create');
});
