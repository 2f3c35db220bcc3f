import { describe, expect, it, vi } from 'vitest';
import { ApiError, errors } from '../../api/errors.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.ts';

const namespaces: Record<string, any> = {
  live: { metadata: { name: 'live' }, status: { phase: 'Active' } },
  dying: { metadata: { name: 'dying', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
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
            async get(_ns: string, name: string) {
              if (!namespaces[name]) throw missing(name);
              return structuredClone(namespaces[name]);
            },
            getEncoded(_ns: string, name: string) {
              if (!encoded) return undefined;
              if (!namespaces[name]) throw missing(name);
              return { json: jsonOf(name), apiVersion: 'v1' };
            },
          },
        };
      }
      return { def: { namespaced: resource !== 'nodes', group } };
    },
  }) as unknown as ApiIndex;

/** The same string while the namespace is unchanged, as the watch cache's entry. */
const texts = new Map<unknown, string>();
function jsonOf(name: string): string {
  const obj = namespaces[name];
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
