// Tests of path elements: fieldsV1 keys, printed form, order, parse errors.
import { describe, expect, it } from 'vitest';
import { comparePE, fieldPE, fieldPath, indexPE, keyPE, parsePE, pathToString, valuePE } from './element.ts';

describe('path elements', () => {
  it.each([
    ['f:spec', '.spec'],
    ['k:{"name":"web"}', '[name="web"]'],
    ['k:{"containerPort":80,"protocol":"TCP"}', '[containerPort=80,protocol="TCP"]'],
    ['v:"x"', '[="x"]'],
    ['v:3', '[=3]'],
    ['i:2', '[2]'],
  ])('%s parses, prints as %s and round-trips', (s, printed) => {
    const pe = parsePE(s);
    expect(pe.id).toBe(s);
    expect(pathToString([pe])).toBe(printed);
  });

  it('key fields are sorted by name whatever the input order', () => {
    expect(
      keyPE([
        ['protocol', 'TCP'],
        ['containerPort', 80],
      ]).id,
    ).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(parsePE('k:{"protocol":"TCP","containerPort":80}').id).toBe('k:{"containerPort":80,"protocol":"TCP"}');
  });

  it.each(['x:1', 'k:[1]', 'k:{bad', 'v:{', 'i:-1', 'i:01', 'f'])('rejects %s', (s) => {
    expect(() => parsePE(s)).toThrow();
  });

  it('orders fields, then keys, then values, then indexes', () => {
    const list = [indexPE(1), valuePE('b'), keyPE([['name', 'z']]), fieldPE('b'), valuePE(1), fieldPE('a'), keyPE([['name', 'a']]), indexPE(0)];
    expect(list.sort(comparePE).map((p) => p.id)).toEqual(['f:a', 'f:b', 'k:{"name":"a"}', 'k:{"name":"z"}', 'v:1', 'v:"b"', 'i:0', 'i:1']);
    // Shorter key lists sort first.
    expect(
      comparePE(
        keyPE([['a', 1]]),
        keyPE([
          ['a', 1],
          ['b', 1],
        ]),
      ),
    ).toBe(-1);
  });

  it('builds dotted field paths', () => {
    expect(pathToString(fieldPath('.metadata.labels'))).toBe('.metadata.labels');
    expect(fieldPath('status').map((p) => p.id)).toEqual(['f:status']);
  });
});
