// The ResourceQuota admission plugin (validating half only, as upstream's):
// a create or update in a namespace with quotas is measured against them
// (check.ts) and, unless it is a dry run, its usage is charged into each
// matching quota's status.used before the object is stored, with a
// compare-and-swap on the quota's resourceVersion; quotas whose update
// conflicted are read again and checked again, three times at most, as
// upstream retries. Writes in one namespace are checked one at a time, and
// the quotas this plugin last wrote are preferred over an older read.
// Subresources, cluster-scoped objects and namespace creation are not
// checked. With limitedResources configured (config.ts) for a resource, its
// writes are checked even in a namespace without quotas, where they are
// refused if they consume a limited resource.

import type { Obj } from '../../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../chain.ts';
import { checkRequest, limitedFor } from './check.ts';
import type { LimitedResource } from './config.ts';
import { evaluatorFor } from './evaluators.ts';

/** Where the plugin reads quotas and writes their status. */
export interface QuotaAccess {
  list(namespace: string): Promise<Obj[]>;
  /** Writes status.used; fails (409) when the quota's resourceVersion is no longer the stored one. Returns the stored quota. */
  updateStatus(quota: Obj): Promise<Obj>;
  /** False only when the namespace is known to have no quota (a watch keeps count); absent: always look. */
  mayHaveQuotas?(namespace: string): boolean;
}

const RETRIES = 3;

const rvNumber = (q: Obj | undefined): bigint => {
  const rv = q?.metadata?.resourceVersion;
  return typeof rv === 'string' && /^\d+$/.test(rv) ? BigInt(rv) : -1n;
};

/** Whether a write is one quota may charge: a create or update of a namespaced object an evaluator counts. */
function counted(attrs: AdmissionAttributes): boolean {
  if (attrs.subresource !== '' || attrs.namespace === '') return false;
  if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return false;
  if (attrs.group === '' && attrs.resource === 'namespaces') return false;
  return evaluatorFor(attrs.group, attrs.resource).handles(attrs);
}

export function resourceQuotaPlugin(access: QuotaAccess, now: () => number = Date.now, limitedResources: LimitedResource[] = []): AdmissionPlugin {
  // the quotas last written here, by namespace/name: newer than a read that lags behind them
  const written = new Map<string, Obj>();
  const queues = new Map<string, Promise<void>>();

  const freshest = (q: Obj): Obj => {
    const mine = written.get(`${q.metadata?.namespace}/${q.metadata?.name}`);
    if (!mine || mine.metadata?.uid !== q.metadata?.uid) return q;
    return rvNumber(mine) > rvNumber(q) ? mine : q;
  };
  const list = async (ns: string): Promise<Obj[]> => {
    const items = (await access.list(ns)).map(freshest);
    // forget what storage has caught up with
    for (const q of items) {
      const key = `${ns}/${q.metadata?.name}`;
      if (written.get(key) === q) continue;
      written.delete(key);
    }
    return items;
  };

  const evaluate = async (attrs: AdmissionAttributes): Promise<void> => {
    const ev = evaluatorFor(attrs.group, attrs.resource);
    let quotas = await list(attrs.namespace);
    // the limited resources are checked against all quotas, once; a retry re-checks the conflicted quotas' usage
    let limited = limitedResources;
    for (let left = RETRIES; quotas.length || limited.length; left--) {
      const { quotas: next, changed } = checkRequest(quotas, attrs, ev, now(), limited);
      limited = [];
      if (attrs.dryRun || !changed.length) return;
      const failed = new Set<string>();
      let lastErr: unknown;
      for (const i of changed) {
        try {
          const stored = await access.updateStatus(next[i]);
          written.set(`${attrs.namespace}/${stored.metadata?.name}`, stored);
        } catch (err) {
          failed.add(next[i].metadata?.name);
          lastErr = err;
        }
      }
      if (!failed.size) return;
      if (left <= 0) throw lastErr;
      quotas = (await list(attrs.namespace)).filter((q) => failed.has(q.metadata?.name));
    }
  };

  return {
    name: 'ResourceQuota',
    // a namespace without quotas waits for nothing
    handles: (attrs) =>
      counted(attrs) && (queues.has(attrs.namespace) || limitedFor(limitedResources, attrs.group, attrs.resource).length > 0 || !access.mayHaveQuotas || access.mayHaveQuotas(attrs.namespace)),
    async validate(attrs) {
      if (!counted(attrs)) return;
      // a namespace without quotas waits for nothing, unless the resource is limited
      if (!queues.has(attrs.namespace) && !limitedFor(limitedResources, attrs.group, attrs.resource).length) {
        if (access.mayHaveQuotas && !access.mayHaveQuotas(attrs.namespace)) return;
        if (!access.mayHaveQuotas && !(await access.list(attrs.namespace)).length) return;
      }
      // one write at a time per namespace
      const before = queues.get(attrs.namespace) ?? Promise.resolve();
      const mine = before.then(() => evaluate(attrs));
      const tail = mine.catch(() => {});
      queues.set(attrs.namespace, tail);
      try {
        await mine;
      } finally {
        if (queues.get(attrs.namespace) === tail) queues.delete(attrs.namespace);
      }
    },
  };
}
