import { describe, expect, it } from 'vitest';
import { decodeObjectMeta, type DecodedObjectMeta } from './object-meta.ts';

const cases: { name: string; in: unknown; drop?: boolean; out: DecodedObjectMeta }[] = [
  { name: 'valid metadata as Go encodes it', in: { name: 'a', labels: { x: 'y' }, generation: 2 }, out: { meta: { name: 'a', generation: 2, labels: { x: 'y' } }, unknown: [] } },
  { name: 'empty values omitted (omitempty)', in: { name: '', labels: {}, finalizers: [], generation: 0, namespace: null }, out: { meta: {}, unknown: [] } },
  { name: 'a pointer field keeps zero', in: { deletionGracePeriodSeconds: 0 }, out: { meta: { deletionGracePeriodSeconds: 0 }, unknown: [] } },
  {
    name: 'unknown fields dropped and reported, nested ones with their path',
    in: { name: 'a', zz: 1, ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u', extra: true }] },
    out: { meta: { name: 'a', ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u' }] }, unknown: ['ownerReferences[0].extra', 'zz'] },
  },
  {
    name: 'owner reference fields without omitempty stay',
    in: { ownerReferences: [{ controller: false }] },
    out: { meta: { ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '', controller: false }] }, unknown: [] },
  },
  { name: 'times in UTC seconds', in: { creationTimestamp: '2024-05-06T07:08:09.5-02:00' }, out: { meta: { creationTimestamp: '2024-05-06T09:08:09Z' }, unknown: [] } },
  { name: 'a number name: encoding/json text', in: { name: 5 }, out: { error: 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string', unknown: [] } },
  { name: 'a label value: the map field named', in: { labels: { a: true } }, out: { error: 'json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string', unknown: [] } },
  { name: 'labels not a map', in: { labels: 'a' }, out: { error: 'json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string', unknown: [] } },
  { name: 'a fractional generation', in: { generation: 1.5 }, out: { error: 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64', unknown: [] } },
  {
    name: 'a nested field: the struct and the JSON path',
    in: { ownerReferences: [{ name: 1 }] },
    out: { error: 'json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string', unknown: [] },
  },
  { name: 'the first failure in key order', in: { uid: 1, name: 2 }, out: { error: 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string', unknown: [] } },
  { name: 'not an object', in: 'x', out: { error: 'json: cannot unmarshal string into Go value of type v1.ObjectMeta', unknown: [] } },
  {
    name: 'dropMalformed: only the bad fields go',
    in: { name: 5, namespace: 'n', labels: { a: 1 }, finalizers: ['f'] },
    drop: true,
    out: { meta: { namespace: 'n', finalizers: ['f'] }, unknown: [] },
  },
  { name: 'dropMalformed: a bad time goes', in: { name: 'a', creationTimestamp: 'yesterday' }, drop: true, out: { meta: { name: 'a' }, unknown: [] } },
];

describe('decodeObjectMeta', () => {
  it.each(cases)('$name', (c) => {
    expect(decodeObjectMeta(structuredClone(c.in), c.drop ?? false)).toEqual(c.out);
  });
});
