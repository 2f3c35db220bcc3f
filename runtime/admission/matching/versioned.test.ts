// The objects of an admission call in its matched version, over a fake mapper
// whose "conversion" renames message ⇄ note: the request's own objects when
// matched as itself, converted copies when matched as an equivalent, a
// patched copy converted back in place, and a failed conversion as a 500.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { ResourceMapper } from './equivalents.ts';
import type { RequestVersions } from './request.ts';
import type { Obj } from '../../storage/interface.ts';
import { convertBack, versionedObjects } from './versioned.ts';

const mapper: ResourceMapper = {
  equivalentsFor: (r) => [r],
  kindFor: (r) => ({ group: r.group, version: r.version, kind: 'Event' }),
  convert(_gvr, obj, apiVersion) {
    if (obj.broken) throw new Error('cannot');
    const { message, note, ...rest } = obj;
    return apiVersion === 'v1' ? { ...rest, apiVersion, message: note } : { ...rest, apiVersion, note: message };
  },
};

const core = { group: '', version: 'v1', kind: 'Event' };
const events = { group: 'events.k8s.io', version: 'v1', kind: 'Event' };
const versions = (kind: typeof core): RequestVersions => ({
  kind,
  resource: { group: kind.group, version: 'v1', resource: 'events' },
  requestKind: core,
  requestResource: { group: '', version: 'v1', resource: 'events' },
});
const attrs = (object: Obj | null, oldObject: Obj | null = null): AdmissionAttributes => ({
  operation: oldObject ? 'UPDATE' : 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  subresource: '',
  namespace: 'ns',
  name: 'e',
  object,
  oldObject,
  dryRun: false,
  user: { name: 'u', groups: [] },
});

describe('versionedObjects', () => {
  it('passes the request objects when the call is made in their own kind', async () => {
    const a = attrs({ apiVersion: 'v1', message: 'm' });
    const v = await versionedObjects(mapper, a, versions(core));
    expect(v.converted).toBe(false);
    expect(v.object).toBe(a.object);
  });

  it.each([
    ['a create', attrs({ apiVersion: 'v1', message: 'm' }), { apiVersion: 'events.k8s.io/v1', note: 'm' }, null],
    ['an update', attrs({ apiVersion: 'v1', message: 'm2' }, { apiVersion: 'v1', message: 'm1' }), { apiVersion: 'events.k8s.io/v1', note: 'm2' }, { apiVersion: 'events.k8s.io/v1', note: 'm1' }],
    ['a delete', attrs(null, { apiVersion: 'v1', message: 'm1' }), null, { apiVersion: 'events.k8s.io/v1', note: 'm1' }],
  ])('converts the objects of %s into the matched version', async (_name, a, object, oldObject) => {
    const before = structuredClone(a);
    const v = await versionedObjects(mapper, a, versions(events));
    expect(v).toEqual({ object, oldObject, converted: true });
    expect(a).toEqual(before);
  });

  it('converts a patched object back into the admitted object, in place', async () => {
    const a = attrs({ apiVersion: 'v1', message: 'm' });
    const object = a.object;
    const v = await versionedObjects(mapper, a, versions(events));
    v.object!.note = 'patched';
    await convertBack(mapper, a, v.object!);
    expect(a.object).toBe(object);
    expect(a.object).toEqual({ apiVersion: 'v1', message: 'patched' });
  });

  it('answers a failed conversion with a 500', async () => {
    const err: unknown = await versionedObjects(mapper, attrs({ apiVersion: 'v1', broken: true }), versions(events)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(500);
    expect((err as ApiError).message).toContain('failed to convert object from v1 to events.k8s.io/v1: cannot');
  });
});
