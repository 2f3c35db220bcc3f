// Cross-checks with an independent implementation: protoc (Debian package
// protobuf-compiler) and upstream's own .proto files. Our bytes decode with
// protoc against upstream's messages without unknown fields and re-encode to
// the same bytes; bytes protoc encodes from text decode to the expected JSON.
// Skips when protoc or the reference data is absent.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadKubeProtobuf, type KubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import { unwrap, wrap } from '../../runtime/codec/protobuf/envelope.ts';
import { referenceDir } from './reference.ts';

const ref = referenceDir();
const hasProtoc = spawnSync('protoc', ['--version']).status === 0;

const FILES: Record<string, string> = {
  'k8s.io.api.core.v1': 'k8s.io/api/core/v1/generated.proto',
  'k8s.io.api.apps.v1': 'k8s.io/api/apps/v1/generated.proto',
  'k8s.io.api.coordination.v1': 'k8s.io/api/coordination/v1/generated.proto',
  'k8s.io.apimachinery.pkg.apis.meta.v1': 'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
};

function protoc(args: string[], input: Uint8Array | string): Buffer {
  const r = spawnSync('protoc', ['-I', join(ref!, 'proto'), ...args], { input });
  if (r.status !== 0) throw new Error(`protoc ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout;
}

function fileOf(message: string): string {
  return FILES[message.slice(0, message.lastIndexOf('.'))];
}

describe.skipIf(!ref || !hasProtoc)('protoc against upstream protos (skipped: protoc or reference data absent)', () => {
  let pb: KubeProtobuf;
  beforeAll(async () => {
    pb = await loadKubeProtobuf();
  });

  it.each([
    [
      'k8s.io.api.core.v1.ConfigMap',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm', namespace: 'default', labels: { b: '2', a: '1' }, creationTimestamp: '2024-01-02T03:04:05Z' },
        data: { k: 'v' },
        binaryData: { bin: 'AAE=' },
      },
    ],
    [
      'k8s.io.api.core.v1.Pod',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: {
          containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m', memory: '1Gi' } }, readinessProbe: { httpGet: { port: 'http', path: '/' } } }],
          volumes: [{ name: 'v', emptyDir: {} }],
        },
        status: { phase: 'Pending' },
      },
    ],
    [
      'k8s.io.api.apps.v1.Deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', generation: 2 },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app: 'x' } },
          template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c' }] } },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        },
        status: {},
      },
    ],
    [
      'k8s.io.api.coordination.v1.Lease',
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2024-01-02T03:04:05.123456Z' } },
    ],
    ['k8s.io.apimachinery.pkg.apis.meta.v1.Status', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'no', reason: 'NotFound', code: 404 }],
    ['k8s.io.api.core.v1.ConfigMapList', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9' }, items: [{ metadata: { name: 'a' } }] }],
  ])('our %s decodes with protoc, without unknown fields, and re-encodes to the same bytes', (message, obj) => {
    const bytes = pb.encode(obj);
    const env = protoc(['--decode=k8s.io.apimachinery.pkg.runtime.Unknown', 'k8s.io/apimachinery/pkg/runtime/generated.proto'], bytes.subarray(4)).toString();
    expect(env).toContain(`apiVersion: "${obj.apiVersion}"`);
    expect(env).toContain(`kind: "${obj.kind}"`);
    const raw = unwrap(bytes).raw;
    const text = protoc([`--decode=${message}`, fileOf(message)], raw).toString();
    expect(text.split('\n').filter((l) => /^\s*\d+[:{ ]/.test(l))).toEqual([]); // unknown fields print as numbers
    const again = protoc([`--encode=${message}`, fileOf(message)], text);
    expect(Buffer.from(again).toString('hex')).toBe(Buffer.from(raw).toString('hex'));
  });

  it.each([
    [
      'k8s.io.api.core.v1.ConfigMap',
      'v1',
      'ConfigMap',
      'metadata { name: "from-protoc" namespace: "default" labels { key: "a" value: "b" } creationTimestamp { seconds: 1704164645 nanos: 0 } }\ndata { key: "k" value: "v" }\nimmutable: false',
      { metadata: { name: 'from-protoc', namespace: 'default', labels: { a: 'b' }, creationTimestamp: '2024-01-02T03:04:05Z' }, data: { k: 'v' }, immutable: false },
    ],
    [
      'k8s.io.api.apps.v1.Deployment',
      'apps/v1',
      'Deployment',
      'metadata { name: "d" generation: 0 }\nspec { replicas: 3 template { spec { containers { name: "c" ports { containerPort: 8080 protocol: "TCP" } } } } strategy { rollingUpdate { maxSurge { type: 1 intVal: 0 strVal: "50%" } } } }',
      {
        metadata: { name: 'd' },
        spec: { replicas: 3, template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 8080, protocol: 'TCP' }] }] } }, strategy: { rollingUpdate: { maxSurge: '50%' } } },
      },
    ],
  ])('%s that protoc encodes decodes to the expected JSON', (message, apiVersion, kind, text, want) => {
    const raw = protoc([`--encode=${message}`, fileOf(message)], text);
    expect(pb.decode(wrap(apiVersion, kind, new Uint8Array(raw)))).toEqual({ apiVersion, kind, ...want });
  });
});
