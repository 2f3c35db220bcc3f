import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, errors } from '../../api/errors.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.ts';

const namespaces: Record<string, any> = {
  live: { metadata: { name: 'live' }, status: { phase: 'Active' } },
  dying: { metadata: { name: 'dying', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
};
/**
 * What the watch cache shows where it differs from the store (a read at
 * resourceVersion 0 sees it; a consistent read sees `namespaces`): null for
 * a namespace the cache has not seen.
 */
const cacheView: Record<string, any> = {};
/** The reads made, as `name@0` (from the cache) or `name@live`. */
const reads: string[] = [];
const viewOf = (name: string, rv: string | undefined) => {
  reads.push(`${name}@${rv === '0' ? '0' : 'live'}`);
  return rv === '0' && name in cacheView ? cacheView[name] : namespaces[name];
};
/** The namespaces' store as the registry's: served JSON from getEncoded, or undefined (then get) when `encoded` is off. */
const fakeApiOf = (encoded: boolean) =>
  ({
    lookup(group: string, _v: string, resource: string) {
      if (resource === 'namespaces') {
        const missing = (name: string) => errors.notFound({ group: '', resource: 'namespaces' }, name);
        return {
          def: { namespaced: false },
          store: {
            async get(_ns: string, name: string, rv?: string) {
              const obj = viewOf(name, rv);
              if (!obj) throw missing(name);
              return structuredClone(obj);
            },
            getEncoded(_ns: string, name: string, rv?: string) {
              if (!encoded) return undefined;
              const obj = viewOf(name, rv);
              if (!obj) throw missing(name);
              return { json: jsonOf(obj), apiVersion: 'v1' };
            },
          },
        };
      }
      return { def: { namespaced: resource !== 'nodes', group } };
    },
  }) as unknown as ApiIndex;

/** The same string while the namespace is unchanged, as the watch cache's entry. */
const texts = new Map<unknown, string>();
function jsonOf(obj: unknown): string {
  let t = texts.get(obj);
  if (t === undefined) texts.set(obj, (t = JSON.stringify(obj)));
  return t;
}

const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  subresource: '',
  namespace: 'live',
  name: 'x',
  object: {},
  oldObject: null,
  dryRun: false,
  user: { username: 'u', groups: [] } as never,
  ...over,
});

describe.each([
  ['read as objects', false],
  ['read as served JSON', true],
])('NamespaceLifecycle, namespaces %s', (_how, encoded) => {
  const plugin = namespaceLifecyclePlugin(fakeApiOf(encoded));
  it.each([
    ['create in an active namespace', attrs({}), undefined],
    ['create in a missing namespace', attrs({ namespace: 'gone' }), 404],
    ['create in a terminating namespace', attrs({ namespace: 'dying' }), 403],
    ['update in a terminating namespace', attrs({ namespace: 'dying', operation: 'UPDATE', oldObject: {} }), undefined],
    ['delete in a terminating namespace', attrs({ namespace: 'dying', operation: 'DELETE', object: null, oldObject: {} }), undefined],
    ['cluster-scoped kind', attrs({ namespace: '', resource: 'nodes' }), undefined],
  ])('%s', async (_n, a, code) => {
    let got: number | undefined;
    try {
      await plugin.admit!(a);
    } catch (e) {
      got = (e as ApiError).code;
    }
    expect(got).toBe(code);
  });
  it('names the namespace and the cause', async () => {
    try {
      await plugin.admit!(attrs({ namespace: 'dying' }));
      expect.unreachable();
    } catch (e) {
      expect((e as ApiError).message).toBe('configmaps "x" is forbidden: unable to create new content in namespace dying because it is being terminated');
      expect((e as ApiError).details?.causes?.[0]).toEqual({
        reason: 'NamespaceTerminating',
        message: 'unable to create new content in namespace dying because it is being terminated',
        field: 'metadata.namespace',
      });
    }
  });
});

describe('NamespaceLifecycle over served JSON', () => {
  const code = async (plugin: ReturnType<typeof namespaceLifecyclePlugin>, namespace: string) => {
    try {
      await plugin.admit!(attrs({ namespace }));
      return undefined;
    } catch (e) {
      return (e as ApiError).code;
    }
  };

  it('parses a namespace once per stored version, and sees it change or go', async () => {
    const plugin = namespaceLifecyclePlugin(fakeApiOf(true));
    namespaces.changing = { metadata: { name: 'changing' }, status: { phase: 'Active' } };
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(await code(plugin, 'changing')).toBeUndefined();
      expect(await code(plugin, 'changing')).toBeUndefined();
      expect(parse).toHaveBeenCalledTimes(1);
      namespaces.changing = { metadata: { name: 'changing' }, status: { phase: 'Terminating' } };
      expect(await code(plugin, 'changing')).toBe(403);
      expect(parse).toHaveBeenCalledTimes(2);
      delete namespaces.changing;
      expect(await code(plugin, 'changing')).toBe(404);
      namespaces.changing = { metadata: { name: 'changing' }, status: { phase: 'Active' } };
      expect(await code(plugin, 'changing')).toBeUndefined();
    } finally {
      parse.mockRestore();
      delete namespaces.changing;
    }
  });
});

describe.each([
  ['read as objects', false],
  ['read as served JSON', true],
])('NamespaceLifecycle reads the cache first, namespaces %s', (_how, encoded) => {
  const active = (name: string) => ({ metadata: { name }, status: { phase: 'Active' } });
  const terminating = (name: string) => ({ metadata: { name, deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } });
  const deleteOf = (name: string) => attrs({ operation: 'DELETE', resource: 'namespaces', kind: 'Namespace', namespace: '', name, object: null, oldObject: {} });
  const run = async (plugin: ReturnType<typeof namespaceLifecyclePlugin>, a: AdmissionAttributes) => {
    try {
      await plugin.admit!(a);
      return undefined;
    } catch (e) {
      return (e as ApiError).code;
    }
  };
  afterEach(() => {
    for (const n of Object.keys(cacheView)) delete cacheView[n];
    for (const n of ['t1', 't2', 't3', 't4', 't5', 't6']) delete namespaces[n];
    reads.length = 0;
  });

  it.each([
    // name, store, cache, deleted here (ms ago), expected code, reads made
    ['active in the cache: no live read', active('t1'), active('t1'), undefined, undefined, ['t1@0']],
    ['created through another server a moment ago: the cache misses, the live read finds it', active('t1'), null, undefined, undefined, ['t1@0', 't1@live']],
    ['missing in both', undefined, null, undefined, 404, ['t1@0', 't1@live']],
    ['terminating in the cache, made again since', active('t1'), terminating('t1'), undefined, undefined, ['t1@0', 't1@live']],
    ['terminating in both', terminating('t1'), terminating('t1'), undefined, 403, ['t1@0', 't1@live']],
    ['deleted here a moment ago, the cache still shows it active: terminating', terminating('t1'), active('t1'), 1000, 403, ['t1@live']],
    ['deleted here a moment ago and gone, the cache still shows it active', undefined, active('t1'), 1000, 404, ['t1@live']],
    ['deleted here 31 s ago: the cache is trusted again', terminating('t1'), active('t1'), 31_000, undefined, ['t1@0']],
  ])('%s', async (_n, stored, cached, deletedAgo, code, madeReads) => {
    let t = 1_000_000;
    const plugin = namespaceLifecyclePlugin(fakeApiOf(encoded), () => t);
    if (stored) namespaces.t1 = stored;
    cacheView.t1 = cached;
    if (deletedAgo !== undefined) {
      expect(plugin.handles!(deleteOf('t1'))).toBe(true);
      expect(await run(plugin, deleteOf('t1'))).toBeUndefined();
      t += deletedAgo;
    }
    reads.length = 0;
    expect(await run(plugin, attrs({ namespace: 't1' }))).toBe(code);
    expect(reads).toEqual(madeReads);
  });

  it('a deletecollection of namespaces (no name) makes every create read live for 30 s', async () => {
    let t = 1_000_000;
    const plugin = namespaceLifecyclePlugin(fakeApiOf(encoded), () => t);
    namespaces.t2 = terminating('t2');
    cacheView.t2 = active('t2');
    expect(await run(plugin, deleteOf(''))).toBeUndefined();
    expect(await run(plugin, attrs({ namespace: 't2' }))).toBe(403);
    t += 31_000;
    expect(await run(plugin, attrs({ namespace: 't2' }))).toBeUndefined();
  });

  it('a delete of another namespace, or of an object in it, forces nothing', async () => {
    const plugin = namespaceLifecyclePlugin(fakeApiOf(encoded), () => 0);
    namespaces.t3 = terminating('t3');
    cacheView.t3 = active('t3');
    await run(plugin, deleteOf('t4'));
    const inside = attrs({ operation: 'DELETE', namespace: 't3', object: null, oldObject: {} });
    expect(plugin.handles!(inside)).toBe(false);
    expect(await run(plugin, attrs({ namespace: 't3' }))).toBeUndefined();
  });
});
