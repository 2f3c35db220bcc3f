// A mutating webhook's patch applied to the object in place: JSONPatch
// only, undecodable patches and other types are failed calls (subject to
// failurePolicy), patches that do not apply, patches without an object and
// changes of apiVersion or kind are 500s.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { WebhookCallFailure } from './errors.ts';
import { applyWebhookPatch, identityError } from './patch.ts';

const pod = (): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: '1' } } });
const buf = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

describe('applyWebhookPatch', () => {
  it('applies a JSON patch in place and says the object changed', () => {
    const obj = pod();
    const same = obj;
    expect(applyWebhookPatch('m', obj, buf([{ op: 'add', path: '/metadata/labels/b', value: '2' }]), 'JSONPatch')).toBe(true);
    expect(same.metadata.labels).toEqual({ a: '1', b: '2' });
  });

  it.each<[string, Buffer, string | undefined]>([
    ['an empty patch', buf([]), 'JSONPatch'],
    ['a patch that changes nothing', buf([{ op: 'replace', path: '/metadata/labels/a', value: '1' }]), 'JSONPatch'],
  ])('%s is no change', (_n, patch, type) => {
    const obj = pod();
    expect(applyWebhookPatch('m', obj, patch, type)).toBe(false);
    expect(obj).toEqual(pod());
  });

  it.each<[string, Obj | null, Buffer, string | undefined, string, string]>([
    ['garbage', pod(), buf('nope'), 'JSONPatch', 'failure', 'failed calling webhook "m": received undecodable patch in webhook response: '],
    [
      'an object instead of a list',
      pod(),
      buf({ op: 'add' }),
      'JSONPatch',
      'failure',
      'received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    ['another patch type', pod(), buf([{ op: 'add', path: '/x', value: 1 }]), 'MergePatch', 'failure', 'unsupported patch type "MergePatch"'],
    [
      'no object (a delete)',
      null,
      buf([{ op: 'add', path: '/x', value: 1 }]),
      'JSONPatch',
      'api500',
      'admission webhook "m" attempted to modify the object, which is not supported for this operation',
    ],
    ['a patch that does not apply', pod(), buf([{ op: 'remove', path: '/spec/missing' }]), 'JSONPatch', 'api', ''],
    ['a changed kind', pod(), buf([{ op: 'replace', path: '/kind', value: 'Node' }]), 'JSONPatch', 'api500', "changed the object's apiVersion or kind"],
    [
      'too many operations',
      pod(),
      buf(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'Pod' }))),
      'JSONPatch',
      'api500',
      'The allowed maximum operations in a JSON patch is 10000',
    ],
  ])('refuses %s', (_n, obj, patch, type, kind, text) => {
    let err: unknown;
    try {
      applyWebhookPatch('m', obj, patch, type);
    } catch (e) {
      err = e;
    }
    if (kind === 'failure') expect(err).toBeInstanceOf(WebhookCallFailure);
    else {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(500);
    }
    expect((err as Error).message).toContain(text);
  });
});

describe('identityError', () => {
  const a = (operation: string, object: Obj, oldObject: Obj | null = null) => ({ operation, group: '', kind: 'ConfigMap', namespace: 'default', object, oldObject });
  const cm = (name: string, namespace?: string): Obj => ({ metadata: namespace === undefined ? { name } : { name, namespace } });
  it.each<[string, ReturnType<typeof a>, { name: string; namespace: string }, string | undefined]>([
    ['an unchanged update', a('UPDATE', cm('x'), cm('x', 'default')), { name: 'x', namespace: '' }, undefined],
    ['a renamed update', a('UPDATE', cm('y'), cm('x', 'default')), { name: 'x', namespace: '' }, 'ConfigMap "x" is invalid: metadata.name: Invalid value: "y": field is immutable'],
    [
      'a moved update',
      a('UPDATE', cm('x', 'other'), cm('x', 'default')),
      { name: 'x', namespace: 'default' },
      'ConfigMap "x" is invalid: metadata.namespace: Invalid value: "other": field is immutable',
    ],
    ['a renamed create (allowed)', a('CREATE', cm('y')), { name: 'x', namespace: '' }, undefined],
    ['a create moved to another namespace', a('CREATE', cm('x', 'other')), { name: 'x', namespace: '' }, 'the namespace of the provided object does not match the namespace sent on the request'],
  ])('%s', (_n, attrs, before, want) => {
    expect(identityError(attrs, before)?.message).toBe(want);
  });
});
