import { describe, expect, it } from 'vitest';
import { loadKubeProtobuf } from '../../codec/protobuf/index.ts';
import { JSON_VALUES, protobufValues } from './value-codec.ts';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

describe('stored values', async () => {
  const pb = protobufValues(await loadKubeProtobuf());
  const rows: [string, object, boolean][] = [
    ['a ConfigMap: protobuf', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'd' }, data: { k: 'v' } }, true],
    ['a Deployment: protobuf', { kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'a', namespace: 'd' }, spec: { replicas: 2 } }, true],
    ['a custom resource: JSON', { kind: 'Widget', apiVersion: 'example.com/v1', metadata: { name: 'a' }, spec: { x: 1 } }, false],
    ['no apiVersion: JSON', { kind: 'ConfigMap', metadata: { name: 'a' } }, false],
  ];
  it.each(rows)('%s', (_name, obj, enveloped) => {
    const bytes = pb.encode(JSON.stringify(obj));
    expect([...bytes.subarray(0, 4)].join() === MAGIC.join()).toBe(enveloped);
    // what was written comes back (protobuf adds the members Go always writes, as kube-apiserver's reads show them)
    expect(JSON.parse(pb.decode(bytes))).toMatchObject(obj);
  });
  it('JSON text stored earlier reads through the protobuf layout, and JSON_VALUES keeps text as it is', () => {
    const text = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"}}';
    expect(pb.decode(Buffer.from(text))).toBe(text);
    expect(JSON_VALUES.decode(JSON_VALUES.encode(text))).toBe(text);
  });
});
