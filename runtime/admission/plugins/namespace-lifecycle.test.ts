import { describe, expect, it } from 'vitest';
import { ApiError, errors } from '../../api/errors.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { namespaceLifecyclePlugin } from './namespace-lifecycle.ts';

const namespaces: Record<string, any> = {
  live: { metadata: { name: 'live' }, status: { phase: 'Active' } },
  dying: { metadata: { name: 'dying', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
};
const fakeApi = {
  lookup(group: string, _v: string, resource: string) {
    if (resource === 'namespaces') {
      return {
        def: { namespaced: false },
        store: {
          async get(_ns: string, name: string) {
            if (!namespaces[name]) throw errors.notFound({ group: '', resource: 'namespaces' }, name);
            return namespaces[name];
          },
        },
      };
    }
    return { def: { namespaced: resource !== 'nodes', group } };
  },
} as unknown as ApiIndex;

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

describe('NamespaceLifecycle', () => {
  const plugin = namespaceLifecyclePlugin(fakeApi);
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
