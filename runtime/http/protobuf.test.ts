// Protobuf in the HTTP layer: the codec at once for kinds already loaded,
// and a GET's whole protobuf body made once per cached object.
import { describe, expect, it } from 'vitest';
import { protobufSupport } from './protobuf.ts';
import { protobufObjectBody } from './encoded-list.ts';
import type { EncodedObject } from '../storage/interface.ts';

const loadIndex = () => import('../../generated/proto/index.ts');

describe('protobufSupport codecNow', () => {
  it('is undefined until codec() has loaded the kind, then the same codec at once', async () => {
    const pb = await protobufSupport(loadIndex);
    expect(pb.codecNow?.('v1', 'ConfigMap')).toBeUndefined();
    const codec = await pb.codec('v1', 'ConfigMap');
    expect(pb.codecNow?.('v1', 'ConfigMap')).toBe(codec);
    expect(pb.codecNow?.('v1', 'Secret')).toBeUndefined();
  });
});

describe('protobufObjectBody', () => {
  const item = (data: Record<string, string>): EncodedObject => ({
    json: JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'ns', resourceVersion: '7' }, data }),
    apiVersion: 'v1',
  });
  it('is the envelope around the object, made once per cached object; another revision gets its own bytes', async () => {
    const codec = await (await protobufSupport(loadIndex)).codec('v1', 'ConfigMap');
    const one = item({ k: 'v' });
    const body = protobufObjectBody(codec, 'ConfigMap', 'ConfigMapList', 'v1', one);
    expect(Buffer.from(body).equals(Buffer.from(codec.encode(JSON.parse(one.json) as Record<string, unknown>)))).toBe(true);
    expect(protobufObjectBody(codec, 'ConfigMap', 'ConfigMapList', 'v1', one)).toBe(body);
    const next = item({ k: 'changed' });
    const nextBody = protobufObjectBody(codec, 'ConfigMap', 'ConfigMapList', 'v1', next);
    expect(nextBody).not.toBe(body);
    expect(codec.decode(nextBody)).toMatchObject({ data: { k: 'changed' } });
  });
});
