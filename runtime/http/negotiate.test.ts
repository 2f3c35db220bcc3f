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
