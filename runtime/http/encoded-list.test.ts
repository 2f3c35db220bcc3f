// listBody and objectBody against JSON.stringify of the list or object a
// parsed-object answer would serialize (withVersion applied), over a table
// of items, metadata and endpoint versions.
import { describe, expect, it } from 'vitest';
import { listBody, objectBody } from './encoded-list.ts';
import type { Obj } from '../storage/interface.ts';

const enc = (o: Obj) => ({ json: JSON.stringify(o), apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '' });
const withVersion = (o: Obj, gv: string) => (o.apiVersion === gv ? o : { ...o, apiVersion: gv });

const objs: Obj[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'é😀"\\\n' } },
  { kind: 'Thing', metadata: { name: 'b', resourceVersion: '6' }, apiVersion: 'example.com/v1beta1', spec: { n: 1.5, list: [1, null, true] } },
  { metadata: { name: 'c', resourceVersion: '7' } },
];

describe('listBody', () => {
  const rows: [string, string, string, Record<string, unknown>, Obj[]][] = [
    ['empty list', 'ConfigMapList', 'v1', { resourceVersion: '9' }, []],
    ['one item', 'ConfigMapList', 'v1', { resourceVersion: '9' }, [objs[0]]],
    ['paged, with items of other versions', 'ThingList', 'example.com/v1', { resourceVersion: '9', continue: 'eyJ2Ijoi', remainingItemCount: 3 }, objs],
    ['non-ASCII list metadata', 'ConfigMapList', 'v1', { resourceVersion: 'ü' }, objs],
  ];
  it.each(rows)('%s', (_, kind, apiVersion, metadata, items) => {
    const expected = `${JSON.stringify({ kind, apiVersion, metadata, items: items.map((o) => withVersion(o, apiVersion)) })}\n`;
    expect(listBody(kind, apiVersion, metadata, items.map(enc)).toString('utf8')).toBe(expected);
  });
});

describe('objectBody', () => {
  it.each(objs.map((o) => [o.metadata.name, o] as const))('%s', (_, o) => {
    for (const gv of ['v1', 'example.com/v1beta1', 'apps/v1']) {
      expect(objectBody(enc(o), gv)).toBe(`${JSON.stringify(withVersion(o, gv))}\n`);
    }
  });
});
