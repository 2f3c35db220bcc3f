// The ResourceQuota plugin over a fake quota store: status written with the
// read resourceVersion, a conflict read again and checked again, retries
// bounded, dry runs never written, concurrent writes of one namespace
// checked one after another, what is not checked.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { AdmissionAttributes } from '../../chain.ts';
import { type QuotaAccess, resourceQuotaPlugin } from './plugin.ts';

/** An in-memory quota store with resourceVersions; `conflicts` makes that many status writes fail as if raced. */
function fakeStore(hard: Record<string, string>, used: Record<string, string>, conflicts = 0) {
  let rv = 1;
  let stored: Obj = { metadata: { name: 'q', namespace: 'ns', uid: 'u1', resourceVersion: String(rv) }, spec: { hard }, status: { hard, used } };
  const writes: Obj[] = [];
  let lists = 0;
  const access: QuotaAccess = {
    async list() {
      lists++;
      return [structuredClone(stored)];
    },
    async updateStatus(quota) {
      if (conflicts > 0) {
        conflicts--;
        // someone else charged one pod meanwhile
        stored = { ...stored, metadata: { ...stored.metadata, resourceVersion: String(++rv) }, status: { hard, used: { pods: String(Number(stored.status.used.pods) + 1) } } };
      }
      if (quota.metadata.resourceVersion !== stored.metadata.resourceVersion) throw new ApiError(409, 'Conflict', 'the object has been modified');
      stored = { ...structuredClone(quota), metadata: { ...quota.metadata, resourceVersion: String(++rv) } };
      writes.push(stored);
      return structuredClone(stored);
    },
  };
  return {
    access,
    writes,
    get stored() {
      return stored;
    },
    get lists() {
      return lists;
    },
  };
}

const attrs = (name: string, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name,
  object: { metadata: { name }, spec: { containers: [{ name: 'c' }] } },
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
  ...extra,
});

describe('resourceQuotaPlugin', () => {
  it('charges the quota with a compare-and-swap write', async () => {
    const f = fakeStore({ pods: '2' }, { pods: '0' });
    const p = resourceQuotaPlugin(f.access);
    await p.validate!(attrs('a'));
    expect(f.writes.map((w) => w.status.used)).toEqual([{ pods: '1' }]);
  });

  it('a conflict is read again and checked again against the newer usage', async () => {
    const f = fakeStore({ pods: '3' }, { pods: '0' }, 1);
    await resourceQuotaPlugin(f.access).validate!(attrs('a'));
    expect(f.stored.status.used).toEqual({ pods: '2' });
  });

  it('the newer usage may refuse the write', async () => {
    const f = fakeStore({ pods: '1' }, { pods: '0' }, 1);
    await expect(resourceQuotaPlugin(f.access).validate!(attrs('a'))).rejects.toThrow('pods "a" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
  });

  it('gives up after three retries with the conflict', async () => {
    const f = fakeStore({ pods: '100' }, { pods: '0' }, 10);
    const err: unknown = await Promise.resolve(resourceQuotaPlugin(f.access).validate!(attrs('a'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(409);
    // a first look for quotas, then the check and its three retries
    expect(f.lists).toBe(5);
  });

  it('a dry run is checked, never written', async () => {
    const f = fakeStore({ pods: '1' }, { pods: '0' });
    const p = resourceQuotaPlugin(f.access);
    await p.validate!(attrs('a', { dryRun: true }));
    expect(f.writes).toEqual([]);
  });

  it('concurrent writes of a namespace are checked one after another', async () => {
    const f = fakeStore({ pods: '2' }, { pods: '0' });
    const p = resourceQuotaPlugin(f.access);
    const results = await Promise.allSettled(['a', 'b', 'c'].map((n) => p.validate!(attrs(n))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(f.stored.status.used).toEqual({ pods: '2' });
  });

  it('a namespace without quotas is looked at once and never written', async () => {
    let lists = 0;
    const none: QuotaAccess = {
      async list() {
        lists++;
        return [];
      },
      updateStatus: () => Promise.reject(new Error('no write expected')),
    };
    await resourceQuotaPlugin(none).validate!(attrs('a'));
    expect(lists).toBe(1);
  });

  it('lists nothing for a namespace its watch knows has no quota', async () => {
    const f = fakeStore({ pods: '0' }, { pods: '0' });
    const p = resourceQuotaPlugin({ ...f.access, mayHaveQuotas: (ns) => ns !== 'ns' });
    await p.validate!(attrs('a'));
    expect(f.lists).toBe(0);
    // elsewhere it looks
    await expect(p.validate!(attrs('b', { namespace: 'other' }))).rejects.toThrow('exceeded quota: q');
  });

  it('with a limited resource, a namespace without quotas is still checked and refuses its consumption', async () => {
    const limited = [{ apiGroup: '', resource: 'pods', matchContains: ['pods'], matchScopes: [] }];
    const p = resourceQuotaPlugin({ list: async () => [], updateStatus: async (q) => q, mayHaveQuotas: () => false }, Date.now, limited);
    await expect(p.validate!(attrs('a'))).rejects.toThrow('pods "a" is forbidden: insufficient quota to consume: count/pods,pods');
    // a quota restricting both admits and is charged once
    const f = fakeStore({ pods: '2', 'count/pods': '2' }, { pods: '0', 'count/pods': '0' });
    await resourceQuotaPlugin(f.access, Date.now, limited).validate!(attrs('b'));
    expect(f.writes.map((w) => w.status.used)).toEqual([{ pods: '1', 'count/pods': '1' }]);
  });

  it('prefers what it wrote over a read that lags behind it', async () => {
    const f = fakeStore({ pods: '5' }, { pods: '0' });
    const stale = structuredClone(f.stored);
    let first = true;
    const lagging: QuotaAccess = {
      async list() {
        if (first) {
          first = false;
          return f.access.list('ns');
        }
        return [structuredClone(stale)];
      },
      updateStatus: (q) => f.access.updateStatus(q),
    };
    const p = resourceQuotaPlugin(lagging);
    await p.validate!(attrs('a'));
    await p.validate!(attrs('b'));
    expect(f.stored.status.used).toEqual({ pods: '2' });
  });

  it.each([
    ['a subresource', { subresource: 'status' }],
    ['a cluster-scoped object', { namespace: '' }],
    ['a delete', { operation: 'DELETE' as const }],
    ['a namespace', { resource: 'namespaces', name: 'ns' }],
  ] as [string, Partial<AdmissionAttributes>][])('does not look at %s', async (_n, extra) => {
    const f = fakeStore({ pods: '0', 'count/namespaces': '0' }, { pods: '0', 'count/namespaces': '0' });
    await resourceQuotaPlugin(f.access).validate!(attrs('a', extra));
    expect(f.lists).toBe(0);
  });
});
