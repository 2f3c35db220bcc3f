import { describe, it, expect, beforeAll } from 'vitest';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { loadKubeProtobuf, type Codec } from './index.ts';
import { WireWriter } from './writer.ts';
import { wrap } from './envelope.ts';
import { ProtobufError } from './errors.ts';
import { MAX_NESTING_DEPTH } from '../limits.ts';
import { Backwards } from '../../../test/support/hostile-bodies.ts';

let pb: Codec;
beforeAll(async () => {
  pb = (await loadKubeProtobuf()) as Codec;
});

const samples: Array<[string, Record<string, any>]> = [
  [
    'a Pod with everything common',
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        namespace: 'n',
        labels: { a: 'b' },
        annotations: { 'x/y': 'é ü 日本' },
        generation: 3,
        creationTimestamp: '1960-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 0,
        ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', controller: false }],
      },
      spec: {
        containers: [{ name: 'c', args: ['a', ''], ports: [{ containerPort: 80, hostPort: 0 }], resources: { limits: { cpu: '1' } }, securityContext: { runAsUser: -1, privileged: false } }],
        volumes: [{ name: 'v', hostPath: { path: '/x' } }],
        priority: -5,
        activeDeadlineSeconds: 9007199254740991,
      },
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] },
    },
  ],
  [
    'a Service',
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: {
        ports: [
          { port: 80, targetPort: 'http' },
          { port: 81, targetPort: -3 },
        ],
        selector: { z: '1', a: '2' },
      },
      status: { loadBalancer: {} },
    },
  ],
  [
    'a SubjectAccessReview',
    { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec: { extra: { k: ['v1', 'v2'] }, groups: ['g'] }, status: { allowed: false, reason: 'r' } },
  ],
  [
    'a CRD',
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'a.b' },
      spec: {
        group: 'b',
        names: { plural: 'a', kind: 'A' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: false, default: { a: 1 }, enum: [1, 'x'] },
                  list: { type: 'array', items: { type: 'string' } },
                },
                required: ['spec'],
              },
            },
          },
        ],
      },
      status: { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
    },
  ],
  [
    'an Event with micro time',
    {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e' },
      eventTime: '2024-01-02T03:04:05.000001Z',
      reportingController: 'c',
      reportingInstance: 'i',
      action: 'a',
      reason: 'r',
      series: { count: 2, lastObservedTime: '2024-01-02T03:04:06.500000Z' },
    },
  ],
];

describe('fast reader', () => {
  it.each(samples)('decodes %s exactly like the reflection decoder', (_n, obj) => {
    const bytes = pb.encode(obj);
    const fast = pb.decode(bytes);
    expect(fast).toEqual(pb.decodeReflect(bytes));
    expect(pb.encode(fast)).toEqual(bytes);
  });

  it('keeps the last value of a repeated singular field and merges repeated messages, as protobuf does', () => {
    // ConfigMap: metadata{name "a"} metadata{namespace "n"} immutable true immutable false
    const raw = new Uint8Array([0x0a, 0x03, 0x0a, 0x01, 0x61, 0x0a, 0x03, 0x1a, 0x01, 0x6e, 0x20, 0x01, 0x20, 0x00]);
    const b = wrap('v1', 'ConfigMap', raw);
    expect(pb.decode(b)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'n' }, immutable: false });
    expect(pb.decode(b)).toEqual(pb.decodeReflect(b));
  });

  it('skips unknown fields (varint, bytes, fixed64, fixed32)', () => {
    // ConfigMap with unknown fields 15 (varint 5), 16 (bytes "ab"), 17 (fixed64), 18 (fixed32), then metadata {}
    const raw = new Uint8Array([0x78, 0x05, 0x82, 0x01, 0x02, 0x61, 0x62, 0x89, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x95, 0x01, 1, 2, 3, 4, 0x0a, 0x00]);
    expect(pb.decode(wrap('v1', 'ConfigMap', raw))).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
    expect(pb.decodeReflect(wrap('v1', 'ConfigMap', raw))).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
  });

  it('reads packed repeated scalars too', () => {
    // PodSecurityContext.supplementalGroups (4, int64) packed: [1, 300]; Pod { spec (2) { securityContext (14) { ... } } }
    const psc = [0x22, 0x03, 0x01, 0xac, 0x02];
    const spec = [0x72, psc.length, ...psc];
    const raw = new Uint8Array([0x12, spec.length, ...spec]);
    const out: any = pb.decode(wrap('v1', 'Pod', raw));
    expect(out.spec.securityContext.supplementalGroups).toEqual([1, 300]);
    expect(out).toEqual(pb.decodeReflect(wrap('v1', 'Pod', raw)));
  });

  it.each([
    ['a truncated varint', [0x20]],
    ['a length past the end', [0x0a, 0x09, 0x00]],
    ['a wrong wire type for a string', [0x0a, 0x02, 0x08, 0x01]],
    ['an unsupported wire type', [0x0b]],
    ['invalid UTF-8', [0x0a, 0x03, 0x0a, 0x81, 0xff]],
  ])('rejects %s', (_n, raw) => {
    expect(() => pb.decode(wrap('v1', 'ConfigMap', new Uint8Array(raw)))).toThrow(/invalid k8s.io.api.core.v1.ConfigMap bytes/);
  });
});

/** A CRD whose openAPIV3Schema nests `levels` JSONSchemaProps through `not` (field 28). */
function crdWithNot(levels: number): Uint8Array {
  const b = new Backwards();
  for (let i = 0; i < levels; i++) b.field([0xe2, 0x01]);
  // openAPIV3Schema (1) < schema (4) < versions (7) < spec (2)
  b.field([0x0a]).field([0x22]).field([0x3a]).field([0x12]);
  return wrap('apiextensions.k8s.io/v1', 'CustomResourceDefinition', b.bytes());
}

/** A ControllerRevision whose data (2) is a RawExtension with `raw` (1). */
function revisionWithRaw(raw: Uint8Array): Uint8Array {
  return wrap('apps/v1', 'ControllerRevision', new Backwards().raw(raw).field([0x0a]).field([0x12]).bytes());
}

function decodeError(bytes: Uint8Array): Error {
  try {
    pb.decode(bytes);
  } catch (e) {
    return e as Error;
  }
  throw new Error('decoded');
}

describe('nesting limit', () => {
  // CRD (1) > spec (2) > versions list (3) and item (4) > schema (5) > openAPIV3Schema (6) > not ...
  const notLevels = MAX_NESTING_DEPTH - 6;

  it('decodes nested messages up to the limit', () => {
    let v = (pb.decode(crdWithNot(notLevels)) as any).spec.versions[0].schema.openAPIV3Schema;
    let n = 0;
    while (v.not) {
      v = v.not;
      n++;
    }
    expect(n).toBe(notLevels);
  });

  it.each([
    ['one message past the limit', crdWithNot(notLevels + 1)],
    ['a million nested messages', crdWithNot(1_000_000)],
    // ControllerRevision (1) > data (2): JSON nested L levels there ends at L + 1
    ['RawExtension JSON past the limit', revisionWithRaw(Buffer.from('['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH)))],
    ['RawExtension JSON a million deep', revisionWithRaw(Buffer.from('['.repeat(1_000_000)))],
  ])('rejects %s with a ProtobufError', (_n, bytes) => {
    const err = decodeError(bytes);
    expect(err).toBeInstanceOf(ProtobufError);
    expect(err.message).toMatch(/ bytes: exceeded max depth of \d+$/);
  });

  it('counts RawExtension JSON from where it stands', () => {
    const ok = revisionWithRaw(Buffer.from('['.repeat(MAX_NESTING_DEPTH - 1) + ']'.repeat(MAX_NESTING_DEPTH - 1)));
    expect(pb.decode(ok).data).toBeInstanceOf(Array);
  });

  it('bounds objects enveloped inside RawExtensions inside each other', () => {
    let inner = revisionWithRaw(Buffer.from('{}'));
    for (let i = 0; i < 1000; i++) inner = revisionWithRaw(inner);
    const err = decodeError(inner);
    expect(err).toBeInstanceOf(ProtobufError);
    expect(err.message).toMatch(/exceeded max depth/);
    let shallow = revisionWithRaw(Buffer.from('{}'));
    for (let i = 0; i < 10; i++) shallow = revisionWithRaw(shallow);
    expect((pb.decode(shallow) as any).data.data.kind).toBe('ControllerRevision');
  });
});

describe('WireWriter', () => {
  it('writes the same bytes as protobuf-es BinaryWriter', () => {
    const long = 'x'.repeat(300);
    const ours = new WireWriter(8); // tiny initial buffer: exercises growth
    const theirs = new BinaryWriter();
    const cases: Array<[number, (w: any) => void, (w: BinaryWriter) => void]> = [
      [1, (w) => w.varint(0), (w) => w.int32(0)],
      [2, (w) => w.varint(300), (w) => w.int32(300)],
      [3, (w) => w.varint(-1), (w) => w.int32(-1)],
      [4, (w) => w.varint(-62135596800), (w) => w.int64(-62135596800)],
      [5, (w) => w.varint(2 ** 40 + 7), (w) => w.int64(2 ** 40 + 7)],
      [6, (w) => w.bool(true), (w) => w.bool(true)],
      [7, (w) => w.double(1.5), (w) => w.double(1.5)],
      [8, (w) => w.string('ascii'), (w) => w.string('ascii')],
      [9, (w) => w.string('日本語 é'), (w) => w.string('日本語 é')],
      [10, (w) => w.string(long), (w) => w.string(long)],
      [11, (w) => w.bytes(new Uint8Array([0, 255])), (w) => w.bytes(new Uint8Array([0, 255]))],
    ];
    for (const [no, a, b] of cases) {
      const wt = no === 7 ? 1 : no >= 8 ? 2 : 0;
      a(ours.tag(no, wt));
      b(theirs.tag(no, wt));
    }
    // nested: a 200-byte sub-message inside a 3-byte one inside another
    ours.tag(12, 2).fork().tag(1, 2).fork().string(long.slice(0, 200)).join().join();
    theirs.tag(12, 2).fork().tag(1, 2).fork().string(long.slice(0, 200)).join().join();
    expect(Buffer.from(ours.finish()).toString('hex')).toBe(Buffer.from(theirs.finish()).toString('hex'));
  });

  it('refuses to finish inside an open sub-message', () => {
    const w = new WireWriter();
    w.tag(1, 2).fork();
    expect(() => w.finish()).toThrow(/unbalanced/);
  });
});
