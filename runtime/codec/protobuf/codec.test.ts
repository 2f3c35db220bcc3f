import { describe, it, expect, beforeAll } from 'vitest';
import { loadKubeProtobuf, splitFrames, ProtobufError, ProtobufUnsupportedError, type KubeProtobuf } from './index.ts';
import { unwrap, wrap } from './envelope.ts';

let pb: KubeProtobuf;
beforeAll(async () => {
  pb = await loadKubeProtobuf();
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const ascii = (s: string) => Buffer.from(s).toString('hex');

describe('supports', () => {
  it.each([
    ['v1', 'Pod', true],
    ['v1', 'PodList', true],
    ['v1', 'Status', true],
    ['apps/v1', 'Deployment', true],
    ['apps/v1', 'DeploymentList', true],
    ['autoscaling/v1', 'Scale', true],
    ['stable.example.com/v1', 'CronTab', false],
    ['meta.k8s.io/v1', 'Table', false],
    ['meta.k8s.io/v1', 'PartialObjectMetadata', false],
    ['apps/v1beta1', 'Deployment', false],
    ['v1', 'NoSuchKind', false],
  ])('%s %s -> %s', (apiVersion, kind, want) => {
    expect(pb.supports(apiVersion, kind)).toBe(want);
  });
});

describe('encode and decode', () => {
  it.each([
    ['a minimal ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } }],
    ['a ConfigMapList', { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '12' }, items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' }, data: { x: '' } }] }],
    ['a Status', { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'pods' }, code: 404 }],
    [
      'replicas 0 (a pointer field)',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd' },
        spec: { replicas: 0, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', resources: {} }] } }, strategy: {} },
        status: {},
      },
    ],
    [
      'int-or-string as number and string',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: {
          ports: [
            { port: 80, targetPort: 8080 },
            { port: 81, targetPort: 'http' },
          ],
        },
        status: { loadBalancer: {} },
      },
    ],
    [
      'an inlined volume source',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', resources: {} }], volumes: [{ name: 'v', configMap: { name: 'cm', items: [{ key: 'k', path: 'p' }] } }] },
        status: {},
      },
    ],
    [
      'a named list type inside a map',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec: { user: 'u', extra: { scopes: ['a', 'b'], empty: [] } }, status: { allowed: true } },
    ],
    [
      'micro time and a secret with bytes',
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: '', renewTime: '2024-01-02T03:04:05.123456Z', leaseDurationSeconds: 0 } },
    ],
    ['binary data', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { 'b.bin': 'AAEC/w==' } }],
    ['raw extension holding JSON', { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, data: { spec: { a: [1, 'x', null] } }, revision: 3 }],
    [
      'managed fields (FieldsV1)',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'a', managedFields: [{ manager: 'm', operation: 'Apply', apiVersion: 'v1', time: '2024-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} } } }] },
      },
    ],
  ])('round-trips %s', (_n, obj) => {
    expect(pb.decode(pb.encode(obj))).toEqual(obj);
  });

  it('shows unset by-value structs as empty objects, as upstream JSON does', () => {
    const out: any = pb.decode(pb.encode({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'c' }] } } } }));
    expect(out.spec.strategy).toEqual({});
    expect(out.spec.template.spec.containers[0].resources).toEqual({});
    expect(out.status).toEqual({});
    expect(out.spec.replicas).toBeUndefined();
  });

  it('writes by-value fields of ObjectMeta even when unset, and drops them again on decode', () => {
    const bytes = pb.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    const raw = unwrap(bytes).raw;
    // metadata { name "a", generateName "", namespace "", selfLink "", uid "", resourceVersion "", generation 0, creationTimestamp {} }
    expect(hex(raw)).toBe('0a11' + '0a0161' + '1200' + '1a00' + '2200' + '2a00' + '3200' + '3800' + '4200');
    expect(pb.decode(bytes)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
  });

  it('sorts map keys bytewise (Go order), integer-like keys included', () => {
    const raw = hex(unwrap(pb.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { b: '1', '10': '2', a: '3', '9': '4' } })).raw);
    const at = (k: string) => (raw.indexOf('0a01' + ascii(k)) >= 0 ? raw.indexOf('0a01' + ascii(k)) : raw.indexOf('0a02' + ascii(k)));
    expect(at('10')).toBeLessThan(at('9'));
    expect(at('9')).toBeLessThan(at('a'));
    expect(at('a')).toBeLessThan(at('b'));
  });

  it('drops the fraction of a Time (whole seconds on the wire) but keeps microseconds of a MicroTime', () => {
    const out: any = pb.decode(pb.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', creationTimestamp: '2024-01-02T03:04:05.987Z' } }));
    expect(out.metadata.creationTimestamp).toBe('2024-01-02T03:04:05Z');
  });

  it('decodes an enveloped object embedded in a RawExtension', () => {
    const inner = pb.encode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' } });
    // ControllerRevision { metadata {} (1), data RawExtension{raw: inner} (2) }
    const raw = new Uint8Array([0x0a, 0x00, 0x12, ...varint(inner.length + 1 + varint(inner.length).length), 0x0a, ...varint(inner.length), ...inner]);
    const out = pb.decode(wrap('apps/v1', 'ControllerRevision', raw));
    expect(out.data).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner' } });
  });

  it.each([
    ['a string where a number belongs', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generation: 'x' } }, /metadata\.generation: expected an integer/],
    ['a number where a string belongs', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 5 } }, /metadata\.name: expected a string/],
    ['an object where a list belongs', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { finalizers: {} } }, /expected an array/],
    ['a bad time', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: 'noon' } }, /RFC 3339/],
    ['bad base64', { apiVersion: 'v1', kind: 'Secret', metadata: {}, data: { a: '%%%' } }, /base64/],
    ['no kind', { apiVersion: 'v1' }, /no apiVersion or kind/],
  ])('rejects %s', (_n, obj, msg) => {
    expect(() => pb.encode(obj as never)).toThrow(ProtobufError);
    expect(() => pb.encode(obj as never)).toThrow(msg);
  });

  it('refuses kinds without protobuf form', () => {
    expect(() => pb.encode({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: {} })).toThrow(ProtobufUnsupportedError);
    expect(() => pb.encode({ apiVersion: 'meta.k8s.io/v1', kind: 'Table', rows: [] })).toThrow(ProtobufUnsupportedError);
  });

  it.each([
    ['JSON', new TextEncoder().encode('{"apiVersion":"v1","kind":"Pod"}'), /prefix/],
    ['an unknown kind', wrap('v1', 'Nope', new Uint8Array()), /no protobuf message for v1, Kind=Nope/],
    ['a custom resource', wrap('stable.example.com/v1', 'CronTab', new Uint8Array()), /no protobuf message/],
    ['an envelope without kind', wrap('', '', new Uint8Array()), /no kind/],
    ['garbage message bytes', wrap('v1', 'Pod', new Uint8Array([0x0a, 0x05, 0x01])), /invalid k8s.io.api.core.v1.Pod bytes/],
    ['a raw extension that is not JSON', wrap('apps/v1', 'ControllerRevision', new Uint8Array([0x12, 0x03, 0x0a, 0x01, 0x7b])), /neither JSON/],
  ])('decode rejects %s', (_n, bytes, msg) => {
    expect(() => pb.decode(bytes)).toThrow(ProtobufError);
    expect(() => pb.decode(bytes)).toThrow(msg);
  });
});

describe('watch events', () => {
  it('frames each event: length, then a WatchEvent whose object is the enveloped object', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' } };
    const f = pb.encodeWatchEvent('ADDED', cm);
    const len = new DataView(f.buffer, f.byteOffset).getUint32(0, false);
    expect(len).toBe(f.length - 4);
    const obj = pb.encode(cm);
    // type "ADDED" (1), object RawExtension{raw} (2): no envelope around the event itself
    expect(hex(f.subarray(4, 4 + 7))).toBe('0a05' + ascii('ADDED'));
    expect(hex(f.subarray(4 + 7))).toBe('12' + hex(new Uint8Array(varint(obj.length + 1 + varint(obj.length).length))) + '0a' + hex(new Uint8Array(varint(obj.length))) + hex(obj));
    expect(pb.decodeWatchEvent(f.subarray(4))).toEqual({ type: 'ADDED', object: cm });
  });

  it('splits a stream into frames and keeps a partial frame', () => {
    const a = pb.encodeWatchEvent('ADDED', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    const d = pb.encodeWatchEvent('DELETED', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    const stream = new Uint8Array([...a, ...d.subarray(0, 10)]);
    const { frames, rest } = splitFrames(stream);
    expect(frames.length).toBe(1);
    expect(pb.decodeWatchEvent(frames[0]).type).toBe('ADDED');
    expect(rest.length).toBe(10);
    const again = splitFrames(new Uint8Array([...rest, ...d.subarray(10)]));
    expect(pb.decodeWatchEvent(again.frames[0]).type).toBe('DELETED');
  });

  it('carries Status objects for ERROR events', () => {
    const st = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 };
    expect(pb.decodeWatchEvent(pb.encodeWatchEvent('ERROR', st).subarray(4))).toEqual({ type: 'ERROR', object: st });
  });
});

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

describe("lists and objects from their items' message bytes", () => {
  const big = 'y'.repeat(300);
  const rows: [string, string, string, Record<string, unknown>, Record<string, unknown>[]][] = [
    ['no items', 'v1', 'ConfigMapList', { resourceVersion: '3' }, []],
    [
      'ConfigMaps, a paged list',
      'v1',
      'ConfigMapList',
      { resourceVersion: '12', continue: 'abc', remainingItemCount: 7 },
      [{ metadata: { name: 'a', labels: { x: 'y' } }, data: { k: big } }, { metadata: { name: 'b' } }],
    ],
    ['Pods', 'v1', 'PodList', { resourceVersion: '1' }, [{ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase: 'Running' } }]],
    [
      'Deployments with big items',
      'apps/v1',
      'DeploymentList',
      { resourceVersion: '99' },
      Array.from({ length: 40 }, (_, i) => ({
        metadata: { name: `d${i}`, annotations: { a: big.repeat(i) } },
        spec: { replicas: i, selector: { matchLabels: { a: 'b' } }, template: { metadata: {}, spec: { containers: [] } } },
      })),
    ],
  ];
  it.each(rows)('%s', (_, apiVersion, listKind, metadata, items) => {
    const kind = listKind.replace(/List$/, '');
    const whole = pb.encode({ apiVersion, kind: listKind, metadata, items: items.map((o) => ({ apiVersion, kind, ...o })) });
    const parts = items.map((o) => pb.encodeListItem(apiVersion, listKind, { apiVersion, kind, ...o }));
    expect(hex(pb.encodeListOf(apiVersion, listKind, metadata, parts))).toBe(hex(whole));
    for (let i = 0; i < items.length; i++) {
      expect(hex(pb.encodeObjectOf(apiVersion, kind, parts[i]))).toBe(hex(pb.encode({ apiVersion, kind, ...items[i] })));
    }
    expect(pb.listItemType(apiVersion, listKind)).toMatch(new RegExp(`\\.${kind}$`));
  });
  it('refuses kinds without a protobuf form', () => {
    expect(() => pb.encodeListOf('stable.example.com/v1', 'CronTabList', {}, [])).toThrow(ProtobufUnsupportedError);
    expect(() => pb.encodeObjectOf('meta.k8s.io/v1', 'Table', new Uint8Array())).toThrow(ProtobufUnsupportedError);
  });
});
