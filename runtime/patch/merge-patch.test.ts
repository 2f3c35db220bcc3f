// JSON merge patch (RFC 7386): the RFC's example table, evanphx/json-patch's
// pruning of nulls, and the 400 answers for a null or scalar patch.
import { describe, expect, it } from 'vitest';
import type { JSONValue } from '../../generated/api-types.ts';
import { PatchError } from './errors.ts';
import { ERR_BAD_JSON_PATCH, mergePatch } from './merge-patch.ts';

type JMap = { [k: string]: JSONValue };

describe('JSON merge patch', () => {
  const cases: { name: string; doc: JMap; patch: JSONValue; expected: JSONValue }[] = [
    { name: 'replace a value', doc: { a: 'b' }, patch: { a: 'c' }, expected: { a: 'c' } },
    { name: 'add a field', doc: { a: 'b' }, patch: { b: 'c' }, expected: { a: 'b', b: 'c' } },
    { name: 'null deletes', doc: { a: 'b' }, patch: { a: null }, expected: {} },
    { name: 'null deletes one of two', doc: { a: 'b', b: 'c' }, patch: { a: null }, expected: { b: 'c' } },
    { name: 'a list is replaced by a scalar', doc: { a: ['b'] }, patch: { a: 'c' }, expected: { a: 'c' } },
    { name: 'a scalar is replaced by a list', doc: { a: 'c' }, patch: { a: ['b'] }, expected: { a: ['b'] } },
    { name: 'nested merge with a delete', doc: { a: { b: 'c' } }, patch: { a: { b: 'd', c: null } }, expected: { a: { b: 'd' } } },
    { name: 'lists are replaced, not merged', doc: { a: [{ b: 'c' }] }, patch: { a: [1] }, expected: { a: [1] } },
    { name: 'a live null stays', doc: { e: null }, patch: { a: 1 }, expected: { e: null, a: 1 } },
    { name: 'nulls in a new object are pruned', doc: {}, patch: { a: { bb: { ccc: null } } }, expected: { a: { bb: {} } } },
    { name: 'nulls inside objects of a new list are pruned, null items stay', doc: {}, patch: { a: [{ x: null, y: 1 }, null] }, expected: { a: [{ y: 1 }, null] } },
    { name: 'an object replacing a scalar loses its nulls', doc: { a: 1 }, patch: { a: { b: null, c: 2 } }, expected: { a: { c: 2 } } },
    { name: 'a live null is replaced like an absent field', doc: { a: null }, patch: { a: { b: null, c: 1 } }, expected: { a: { c: 1 } } },
    { name: 'an empty patch changes nothing', doc: { a: { b: 1 } }, patch: {}, expected: { a: { b: 1 } } },
    { name: 'a list patch becomes the document', doc: { a: 'b' }, patch: [{ c: null, d: 1 }, null], expected: [{ d: 1 }, null] },
  ];
  it.each(cases)('$name', ({ doc, patch, expected }) => {
    const before = structuredClone(doc);
    const patchBefore = structuredClone(patch);
    expect(mergePatch(doc, patch)).toEqual(expected);
    expect(doc).toEqual(before);
    expect(patch).toEqual(patchBefore);
  });

  it('the result shares nothing with the live object or the patch', () => {
    const doc: JMap = { spec: { a: { b: 1 } }, keep: { x: 1 } };
    const patch: JMap = { spec: { n: { m: 1 } } };
    const out = mergePatch(doc, patch) as JMap;
    ((out.spec as JMap).n as JMap).m = 2;
    (out.keep as JMap).x = 2;
    expect(patch).toEqual({ spec: { n: { m: 1 } } });
    expect(doc.keep).toEqual({ x: 1 });
  });

  it.each([
    ['null', null],
    ['a string', 'bar'],
    ['a number', 3],
    ['a boolean', true],
  ])('%s patch: 400 Invalid JSON Patch', (_n, patch) => {
    let err: unknown;
    try {
      mergePatch({ a: 'foo' }, patch);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PatchError);
    expect({ code: (err as PatchError).code, reason: (err as PatchError).reason, message: (err as PatchError).message }).toEqual({
      code: 400,
      reason: 'BadRequest',
      message: ERR_BAD_JSON_PATCH,
    });
  });
});
