// JSON patch (RFC 6902): the public json-patch-test-suite run through our
// code path, kube-apiserver's differences from the RFC suite, and the status
// codes and texts of each failure.
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import type { JSONValue } from '../../generated/api-types.ts';
import { PatchError } from './errors.ts';
import { applyOperations, jsonPatch, MAX_JSON_PATCH_LIST_SHIFTS, MAX_JSON_PATCH_OPERATIONS } from './json-patch.ts';

type JMap = { [k: string]: JSONValue };
interface SuiteTest {
  comment?: string;
  doc: JSONValue;
  patch: JMap[];
  expected?: JSONValue;
  error?: string;
  disabled?: boolean;
}

const require = createRequire(import.meta.url);
const suite: SuiteTest[] = [...(require('json-patch-test-suite/tests.json') as SuiteTest[]), ...(require('json-patch-test-suite/spec_tests.json') as SuiteTest[])];

/**
 * Suite tests where kube-apiserver (evanphx/json-patch v4) and so specserver
 * deliberately answer differently from the RFC suite: the reason, and what we
 * answer instead (checked).
 */
function kubeDifference(t: SuiteTest): { reason: string; expected?: JSONValue; error?: true } | undefined {
  if (t.patch.some((op) => op.path === '' || op.from === '')) {
    return { reason: 'evanphx/json-patch v4 cannot address the document root: a Kubernetes object is never replaced whole by a JSON patch (422)', error: true };
  }
  if (t.patch.some((op) => typeof op.path === 'string' && /\/-[0-9]/.test(op.path))) {
    return {
      reason: 'evanphx/json-patch v4 reads negative array indices from the end (add at -1 inserts before the last item)',
      expected: { bar: [1, '5', 2] },
    };
  }
  return undefined;
}

function run(doc: JSONValue, patch: JMap[]): JSONValue {
  return applyOperations(structuredClone(doc), patch);
}

describe('json-patch-test-suite (RFC 6902)', () => {
  suite.forEach((t, i) => {
    const name = `#${i} ${t.comment ?? JSON.stringify(t.patch).slice(0, 60)}`;
    if (t.disabled) {
      it.skip(`${name} (disabled by the suite itself)`, () => {});
      return;
    }
    const diff = kubeDifference(t);
    if (diff) {
      it(`${name} [kube: ${diff.reason}]`, () => {
        if (diff.error) expect(() => run(t.doc, t.patch)).toThrow(PatchError);
        else expect(run(t.doc, t.patch)).toEqual(diff.expected);
      });
      return;
    }
    it(name, () => {
      if (t.error !== undefined) {
        let err: unknown;
        try {
          run(t.doc, t.patch);
        } catch (e) {
          err = e;
        }
        expect(err, t.error).toBeInstanceOf(PatchError);
        expect((err as PatchError).code).toBe(422);
      } else {
        const out = run(t.doc, t.patch);
        if (t.expected !== undefined) expect(out).toEqual(t.expected);
      }
    });
  });
});

const live = (): JMap => ({
  metadata: { name: 'x', labels: { a: '1' } },
  spec: { list: [1, 2, 3], replicas: 1 },
});

describe('JSON patch against a Kubernetes object', () => {
  const cases: { name: string; patch: unknown; expected: JSONValue }[] = [
    { name: 'add a label', patch: [{ op: 'add', path: '/metadata/labels/b', value: '2' }], expected: { ...live(), metadata: { name: 'x', labels: { a: '1', b: '2' } } } },
    { name: 'replace replicas', patch: [{ op: 'replace', path: '/spec/replicas', value: 3 }], expected: { ...live(), spec: { list: [1, 2, 3], replicas: 3 } } },
    { name: 'remove the last item by -1', patch: [{ op: 'remove', path: '/spec/list/-1' }], expected: { ...live(), spec: { list: [1, 2], replicas: 1 } } },
    { name: 'append with -', patch: [{ op: 'add', path: '/spec/list/-', value: 4 }], expected: { ...live(), spec: { list: [1, 2, 3, 4], replicas: 1 } } },
    {
      name: 'test of a missing field against null passes',
      patch: [
        { op: 'test', path: '/spec/missing', value: null },
        { op: 'remove', path: '/spec/replicas' },
      ],
      expected: { ...live(), spec: { list: [1, 2, 3] } },
    },
    {
      name: 'move and copy',
      patch: [
        { op: 'copy', from: '/metadata/labels', path: '/spec/labels' },
        { op: 'move', from: '/spec/replicas', path: '/spec/count' },
      ],
      expected: { metadata: { name: 'x', labels: { a: '1' } }, spec: { list: [1, 2, 3], labels: { a: '1' }, count: 1 } },
    },
    { name: 'a null patch changes nothing', patch: null, expected: live() },
    { name: 'an empty patch changes nothing', patch: [], expected: live() },
  ];
  it.each(cases)('$name', ({ patch, expected }) => {
    const current = live();
    const before = structuredClone(current);
    expect(jsonPatch(current, patch)).toEqual(expected);
    expect(current).toEqual(before);
  });

  it('does not alias operation values into the result', () => {
    const value = { k: 'v' };
    const patch = [
      { op: 'add', path: '/spec/obj', value },
      { op: 'add', path: '/spec/obj/k2', value: 'x' },
    ];
    const out = jsonPatch(live(), patch) as JMap;
    expect((out.spec as JMap).obj).toEqual({ k: 'v', k2: 'x' });
    expect(value).toEqual({ k: 'v' });
  });

  const failures: { name: string; patch: unknown; code: number; reason: string; message: string }[] = [
    { name: 'failed test', patch: [{ op: 'test', path: '/spec/replicas', value: 2 }], code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    { name: 'missing path', patch: [{ op: 'remove', path: '/spec/nothing' }], code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    { name: 'add under a missing parent', patch: [{ op: 'add', path: '/nope/a', value: 1 }], code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    { name: 'unknown op', patch: [{ op: 'frobnicate', path: '/spec' }], code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    { name: 'null operation', patch: [null], code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    { name: 'root replace', patch: [{ op: 'replace', path: '', value: {} }], code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
    { name: 'an object instead of a list', patch: { op: 'add' }, code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' },
    { name: 'a string instead of a list', patch: 'x', code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal string into Go value of type jsonpatch.Patch' },
    { name: 'an operation that is not an object', patch: [1], code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation' },
    {
      name: 'too many operations',
      patch: Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 })),
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    },
  ];
  it.each(failures)('$name: $code', ({ patch, code, reason, message }) => {
    const current = live();
    let err: unknown;
    try {
      jsonPatch(current, patch);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PatchError);
    expect({ code: (err as PatchError).code, reason: (err as PatchError).reason, message: (err as PatchError).message }).toEqual({ code, reason, message });
    expect(current).toEqual(live());
  });

  it('copies may add up to 3 MiB in all', () => {
    const big = 'x'.repeat(1024 * 1024);
    const doc = { ...live(), data: { big } };
    const copy = (to: string) => ({ op: 'copy', from: '/data/big', path: `/data/${to}` });
    expect(Object.keys((jsonPatch(doc, [copy('a'), copy('b')]) as JMap).data as JMap)).toEqual(['big', 'a', 'b']);
    let err: unknown;
    try {
      jsonPatch(doc, [copy('a'), copy('b'), copy('c')]);
    } catch (e) {
      err = e;
    }
    expect((err as PatchError).code).toBe(422);
    expect((err as PatchError).detail).toMatch(/^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/);
  });

  it('10000 operations are accepted', () => {
    const patch = Array.from({ length: MAX_JSON_PATCH_OPERATIONS }, () => ({ op: 'test', path: '/spec/replicas', value: 1 }));
    expect(jsonPatch(live(), patch)).toEqual(live());
  });

  it('keeps the library error text as detail', () => {
    try {
      jsonPatch(live(), [{ op: 'test', path: '/spec/replicas', value: 2 }]);
    } catch (e) {
      expect((e as PatchError).detail).toBe('operation 0 (test /spec/replicas): Test operation failed [TEST_OPERATION_FAILED]');
    }
    expect.assertions(1);
  });
});

describe('move and copy sources', () => {
  // the library instance json-patch.ts uses (Node loads the package as CommonJS)
  const helpers = require('fast-json-patch/commonjs/helpers.js') as { _deepClone: (v: unknown) => unknown };

  it('are looked up without copying the whole document for each operation', () => {
    const doc: JMap = { data: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'v'.repeat(100)])), a: { x: 1 } };
    const ops = Array.from({ length: 200 }, (_, i) => ({ op: 'move', from: i % 2 ? '/b' : '/a', path: i % 2 ? '/a' : '/b' }));
    const spy = vi.spyOn(helpers, '_deepClone');
    try {
      const out = applyOperations(doc, ops) as JMap;
      expect(out.a).toEqual({ x: 1 });
      expect(spy.mock.calls.filter(([v]) => v === doc)).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  it.each([
    ['a missing field', { op: 'move', from: '/nope', path: '/x' }],
    ['a missing nested field', { op: 'copy', from: '/a/nope', path: '/x' }],
    ['an index past the end', { op: 'copy', from: '/l/2', path: '/x' }],
    ['a non-numeric index', { op: 'move', from: '/l/x', path: '/x' }],
    ['an inherited name', { op: 'copy', from: '/a/constructor', path: '/x' }],
  ])('%s: 422', (_n, op) => {
    let err: unknown;
    try {
      applyOperations({ a: { b: 1 }, l: [1, 2] }, [op as JMap]);
    } catch (e) {
      err = e;
    }
    expect((err as PatchError).code).toBe(422);
    expect((err as PatchError).detail).toMatch(/\[OPERATION_FROM_UNRESOLVABLE\]$/);
  });
});

describe('list shifting budget', () => {
  const withList = (n: number): JMap => ({ data: { l: new Array(n).fill(1) } });
  const failure = (fn: () => unknown): PatchError => {
    try {
      fn();
    } catch (e) {
      if (e instanceof PatchError) return e;
      throw e;
    }
    throw new Error('expected a PatchError');
  };

  it('10,000 moves at the front of a 700,000-item list: 422 before the budget is spent', () => {
    const ops = Array.from({ length: 10_000 }, () => ({ op: 'move', from: '/data/l/0', path: '/data/l/1' }));
    const err = failure(() => applyOperations(withList(700_000), ops));
    expect(err.code).toBe(422);
    expect(err.message).toBe('the server rejected our request due to an error in our request');
    expect(err.detail).toMatch(new RegExp(`^operation \\d+ \\(move /data/l/1\\): the operations would shift more than ${MAX_JSON_PATCH_LIST_SHIFTS} list items$`));
  });

  it('counts only list operations, and ordinary patches stay far below', () => {
    const ops = Array.from({ length: 10_000 }, (_, i) => ({ op: 'add', path: `/data/k${i}`, value: 1 }));
    expect(Object.keys((applyOperations(withList(700_000), ops) as JMap).data as JMap)).toHaveLength(10_001);
    const listOps = Array.from({ length: 10_000 }, () => ({ op: 'add', path: '/data/l/-', value: 2 }));
    expect((((applyOperations(withList(1000), listOps) as JMap).data as JMap).l as JSONValue[]).length).toBe(11_000);
  });
});
