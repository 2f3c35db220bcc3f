// Protobuf codec benchmark: a PodList of 1,000 realistic Pods (metadata with
// labels, annotations, owner reference and managed fields; two containers
// with ports, env, resources, probes, mounts; volumes; status with
// conditions and container statuses), encoded and decoded with the protobuf
// codec and with JSON (JSON.stringify + UTF-8 encode / UTF-8 decode +
// JSON.parse), in one run. Prints ms per list, throughput and the ratios
// protobuf/JSON (below 1: protobuf faster), plus the body sizes.
// Usage: npx tsx bench/protobuf/run.ts [--rounds 20]
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg('rounds', 20);
const N = 1000;

function pod(i: number) {
  const ts = '2024-05-06T07:08:09Z';
  return {
    metadata: {
      name: `web-7d9f8c6b5-${i.toString(36).padStart(5, 'x')}`,
      generateName: 'web-7d9f8c6b5-',
      namespace: 'default',
      uid: `0b3c1f0e-1d2c-4e5f-8a9b-${String(i).padStart(12, '0')}`,
      resourceVersion: String(100000 + i),
      creationTimestamp: ts,
      labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5', tier: 'frontend' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': ts },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5', uid: '9a8b7c6d-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true }],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: ts,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } },
        },
      ],
    },
    spec: {
      containers: ['web', 'sidecar'].map((n, j) => ({
        name: n,
        image: `registry.example.com/${n}:1.${j}.${i % 10}`,
        imagePullPolicy: 'IfNotPresent',
        ports: [{ name: 'http', containerPort: 8080 + j, protocol: 'TCP' }],
        env: [
          { name: 'MODE', value: 'production' },
          { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
        ],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        readinessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 },
        volumeMounts: [
          { name: 'config', mountPath: '/etc/config', readOnly: true },
          { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
        ],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      })),
      volumes: [
        { name: 'config', configMap: { name: 'web-config', defaultMode: 420 } },
        {
          name: 'kube-api-access',
          projected: {
            defaultMode: 420,
            sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }],
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${i % 50}`,
      schedulerName: 'default-scheduler',
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    },
    status: {
      phase: 'Running',
      hostIP: '10.0.0.1',
      podIP: `10.244.${i % 250}.${i % 200}`,
      startTime: ts,
      qosClass: 'Burstable',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((t) => ({ type: t, status: 'True', lastProbeTime: null, lastTransitionTime: ts })),
      containerStatuses: ['web', 'sidecar'].map((n) => ({
        name: n,
        ready: true,
        restartCount: 0,
        image: `registry.example.com/${n}:1`,
        imageID: `registry.example.com/${n}@sha256:${'ab'.repeat(32)}`,
        containerID: `containerd://${'cd'.repeat(32)}`,
        started: true,
        state: { running: { startedAt: ts } },
        lastState: {},
      })),
    },
  };
}

function time(fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < ROUNDS; i++) fn();
  return (performance.now() - t0) / ROUNDS;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const pb = await loadKubeProtobuf();
  const loadMs = performance.now() - t0;
  const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '200000' }, items: Array.from({ length: N }, (_, i) => pod(i)) };
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const pbBytes = pb.encode(list);
  const jsonBytes = enc.encode(JSON.stringify(list));
  const back: any = pb.decode(pbBytes);
  if (back.items.length !== N || back.items[7].metadata.name !== list.items[7].metadata.name) throw new Error('round trip failed');

  const pbEnc = time(() => pb.encode(list));
  const jsonEnc = time(() => enc.encode(JSON.stringify(list)));
  const pbDec = time(() => pb.decode(pbBytes));
  const jsonDec = time(() => JSON.parse(dec.decode(jsonBytes)));
  const row = (what: string, p: number, j: number) =>
    console.log(
      `${what.padEnd(8)} protobuf ${p.toFixed(1).padStart(7)} ms (${((N / p) * 1000).toFixed(0).padStart(7)} pods/s)   json ${j.toFixed(1).padStart(7)} ms (${((N / j) * 1000).toFixed(0).padStart(7)} pods/s)   ratio pb/json ${(p / j).toFixed(2)}`,
    );
  console.log(`PodList of ${N} pods, ${ROUNDS} rounds; codec load ${loadMs.toFixed(0)} ms`);
  console.log(`size     protobuf ${(pbBytes.length / 1024).toFixed(0)} KiB   json ${(jsonBytes.length / 1024).toFixed(0)} KiB   ratio ${(pbBytes.length / jsonBytes.length).toFixed(2)}`);
  row('encode', pbEnc, jsonEnc);
  row('decode', pbDec, jsonDec);
}

await main();
