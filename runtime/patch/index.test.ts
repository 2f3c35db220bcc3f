// The public API: Content-Type mapping, dispatch by patch type, the 415 for
// strategic merge on custom resources and the 422 for a patch whose result is
// not an object.
import { describe, expect, it } from 'vitest';
import { acceptedPatchTypes, applyPatch, contentTypeToPatchKind, PatchError } from './index.ts';
import type { Obj } from './index.ts';
import { DAEMONSET, liveDaemonSet, testSchema } from './test-fixtures.ts';
import { MAX_NESTING_DEPTH } from '../codec/limits.ts';

const ctx = { schema: testSchema, typeName: DAEMONSET };

describe('contentTypeToPatchKind', () => {
  it.each([
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json', 'merge'],
    ['application/strategic-merge-patch+json', 'strategic'],
    ['application/apply-patch+yaml', 'apply'],
    ['application/merge-patch+json; charset=utf-8', 'merge'],
    ['application/strategic-merge-patch+json;charset=UTF-8', 'strategic'],
    ['application/json', undefined],
    ['application/apply-patch+cbor', undefined],
    ['text/plain', undefined],
    ['', undefined],
    ['Application/Merge-Patch+Json', undefined],
    ['application/merge-patch+json ; charset=utf-8', undefined],
    [';application/merge-patch+json', undefined],
  ])('%j -> %s', (ct, kind) => {
    expect(contentTypeToPatchKind(ct)).toBe(kind);
  });

  it('lists the accepted types as the 415 answer names them', () => {
    expect(acceptedPatchTypes(false)).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    expect(acceptedPatchTypes(true)).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
  });
});

function failure(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (e) {
    if (e instanceof PatchError) return e;
    throw e;
  }
  throw new Error('expected a PatchError');
}

describe('applyPatch', () => {
  it.each([
    ['json', [{ op: 'replace', path: '/metadata/labels/tier', value: 'x' }]],
    ['merge', { metadata: { labels: { tier: 'x' } } }],
    ['strategic', { metadata: { labels: { tier: 'x' } } }],
  ] as const)('%s patch sets a label and leaves the live object alone', (kind, patch) => {
    const live = liveDaemonSet();
    const before = structuredClone(live);
    const out = applyPatch(kind, live, patch, ctx);
    expect((out.metadata as Obj).labels).toEqual({ app: 'agent', tier: 'x' });
    expect(live).toEqual(before);
  });

  it('merge patch replaces lists where strategic merges them', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'agent', image: 'agent:2' }] } } } };
    const merged = applyPatch('merge', liveDaemonSet(), patch, ctx);
    const strategic = applyPatch('strategic', liveDaemonSet(), patch, ctx);
    const containers = (o: Obj) => ((o.spec as Obj).template as Obj).spec as Obj;
    expect(containers(merged).containers).toEqual([{ name: 'agent', image: 'agent:2' }]);
    expect((containers(strategic).containers as Obj[]).map((c) => c.name)).toEqual(['agent', 'sidecar']);
  });

  it('strategic merge patch on a custom resource: 415 naming the accepted types', () => {
    const err = failure(() => applyPatch('strategic', liveDaemonSet(), {}, { ...ctx, custom: true }));
    expect({ code: err.code, reason: err.reason, message: err.message }).toEqual({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
  });

  it('an unknown patch kind: 415', () => {
    const err = failure(() => applyPatch('apply' as never, liveDaemonSet(), {}, ctx));
    expect(err.code).toBe(415);
  });

  it('a merge patch that is a list yields a non-object: 422 with a patch cause', () => {
    const err = failure(() => applyPatch('merge', liveDaemonSet(), [1], ctx));
    expect(err.code).toBe(422);
    expect(err.reason).toBe('Invalid');
    expect(err.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'patch',
        message: expect.stringMatching(/^Invalid value: "\[1\]": couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value/),
      },
    ]);
    expect(err.message).toMatch(/^ "" is invalid: patch: Invalid value: "\[1\]"/);
  });

  it('a failing patch leaves the live object unchanged', () => {
    const live = liveDaemonSet();
    const before = structuredClone(live);
    expect(() =>
      applyPatch(
        'json',
        live,
        [
          { op: 'remove', path: '/metadata/labels' },
          { op: 'test', path: '/x', value: 1 },
        ],
        ctx,
      ),
    ).toThrow(PatchError);
    expect(() => applyPatch('strategic', live, { metadata: { $retainKeys: 'x' } }, ctx)).toThrow(PatchError);
    expect(live).toEqual(before);
  });
});

describe('nesting of JSON patch results', () => {
  const chain = (d: number): Record<string, unknown> => {
    let v: Record<string, unknown> = {};
    for (let i = 1; i < d; i++) v = { a: v };
    return v;
  };
  const deepPath = (prefix: string, d: number) => prefix + '/a'.repeat(d - 1);

  it('moving one chain below another past the limit: 422 Invalid, nothing recursive overflows', () => {
    const half = Math.ceil(MAX_NESTING_DEPTH / 2) + 1;
    const live = { ...liveDaemonSet(), x: chain(half), y: chain(half) } as Obj;
    const err = failure(() => applyPatch('json', live, [{ op: 'move', from: '/y', path: `${deepPath('/x', half)}/b` }], ctx));
    expect(err.code).toBe(422);
    expect(err.reason).toBe('Invalid');
    expect(err.message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": couldn't get version\/kind; json parse error: invalid character '\{' exceeded max depth$/s);
  });

  it('a result exactly at the limit passes', () => {
    const live = { ...liveDaemonSet(), x: chain(MAX_NESTING_DEPTH - 2), y: {} } as Obj;
    const out = applyPatch('json', live, [{ op: 'move', from: '/y', path: `${deepPath('/x', MAX_NESTING_DEPTH - 2)}/b` }], ctx);
    expect(out.x).toBeDefined();
  });

  it('ten thousand moves stacking chains a million levels deep: 422, no stack overflow', () => {
    // 2,000 chains of 100 levels, each moved into the deepest object of the next
    const live = { ...liveDaemonSet() } as Obj;
    const ops: unknown[] = [];
    for (let i = 0; i < 2000; i++) {
      (live as Record<string, unknown>)[`c${i}`] = chain(100);
      if (i > 0) ops.push({ op: 'move', from: `/c${i - 1}`, path: `${deepPath(`/c${i}`, 100)}/n` });
    }
    const err = failure(() => applyPatch('json', live, ops, ctx));
    expect(err.code).toBe(422);
    expect(err.message).toContain('exceeded max depth');
  });

  it('copying a subtree too deep to measure: the generic 422', () => {
    const live = { ...liveDaemonSet() } as Obj;
    const ops: unknown[] = [];
    for (let i = 0; i < 200; i++) {
      (live as Record<string, unknown>)[`c${i}`] = chain(100);
      if (i > 0) ops.push({ op: 'move', from: `/c${i - 1}`, path: `${deepPath(`/c${i}`, 100)}/n` });
    }
    ops.push({ op: 'copy', from: '/c199', path: '/copy' });
    const err = failure(() => applyPatch('json', live, ops, ctx));
    expect(err.code).toBe(422);
    expect(err.message).toBe('the server rejected our request due to an error in our request');
  });
});
