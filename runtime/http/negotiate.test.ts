import { describe, expect, it } from 'vitest';
import { negotiateObject, parseAccept } from './negotiate.ts';

describe('parseAccept', () => {
  const rows: [string | undefined, string[]][] = [
    [undefined, ['*/*']],
    ['', ['*/*']],
    ['application/json', ['application/json']],
    ['application/yaml;q=0.5, application/json', ['application/json', 'application/yaml']],
    ['text/html;q=0, application/json;q=0.1', ['application/json']],
    ['application/json;as=Table;v=v1;g=meta.k8s.io, application/json', ['application/json', 'application/json']],
  ];
  it.each(rows)('%j', (header, types) => {
    expect(parseAccept(header).map((m) => m.type)).toEqual(types);
  });

  it('parses a header once and hands out the same frozen ranges', () => {
    const h = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';
    const a = parseAccept(h);
    expect(parseAccept(h)).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a[0]) && Object.isFrozen(a[0].params)).toBe(true);
    expect(a[0].params).toEqual({ as: 'Table', v: 'v1', g: 'meta.k8s.io' });
  });

  it('answers a remembered header as the first time', () => {
    const opts = { protobuf: true, allowTransforms: true, list: false };
    for (let i = 0; i < 3; i++) {
      expect(negotiateObject('application/vnd.kubernetes.protobuf, application/json', opts).encoding).toBe('protobuf');
      expect(negotiateObject('application/vnd.kubernetes.protobuf, application/json', { ...opts, protobuf: false }).encoding).toBe('json');
      expect(() => negotiateObject('text/html', opts)).toThrow(/only the following media types/);
    }
  });
});

describe('negotiateObject remembers its answers per header and options', () => {
  const accepts = [
    undefined,
    '',
    'application/json',
    'application/vnd.kubernetes.protobuf, application/json',
    'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
    'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json',
  ];
  const combos = [true, false].flatMap((protobuf) => [true, false].flatMap((allowTransforms) => [true, false].map((list) => ({ protobuf, allowTransforms, list }))));
  it.each(accepts)('%j: every combination of options keeps its own answer, the same frozen object each time', (accept) => {
    const first = combos.map((o) => negotiateObject(accept, o));
    const again = combos.map((o) => negotiateObject(accept, o));
    again.forEach((n, i) => {
      expect(n).toBe(first[i]);
      expect(Object.isFrozen(n) && Object.isFrozen(n.target)).toBe(true);
    });
    // the options matter: protobuf only where the resource has it, transforms only where allowed
    if (accept?.includes('protobuf')) expect(first.map((n) => n.encoding)).toEqual(combos.map((o) => (o.protobuf ? 'protobuf' : 'json')));
    if (accept?.includes('as=Table')) expect(first.map((n) => n.target.as)).toEqual(combos.map((o) => (o.allowTransforms ? 'Table' : 'object')));
    if (accept?.includes('PartialObjectMetadataList')) expect(first.map((n) => n.target.as)).toEqual(combos.map((o) => (o.allowTransforms && o.list ? 'PartialObjectMetadataList' : 'object')));
  });
});
